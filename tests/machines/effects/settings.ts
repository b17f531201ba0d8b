// Loading and saving the settings; a save applies the saved language and refreshes the profile.
// The shown language only follows the app's (context).
import type { EffectTable } from './table';

export const SETTINGS_EFFECTS = {
  '(start)': ['invoke loadSettings'],
  'loading: locale.shown -> (stays)': [],
  'loading: settings.cancel -> left': ['goToDocuments'],
  'loading: xstate.done.actor.loadSettings -> editing': [],
  'loading: xstate.error.actor.loadSettings -> loadFailed': [],
  'loadFailed: locale.shown -> (stays)': [],
  'loadFailed: settings.retry -> loading': ['invoke loadSettings'],
  'loadFailed: settings.cancel -> left': ['goToDocuments'],
  'editing.*: locale.shown -> (stays) (on editing)': [],
  'editing.*: locale.changed -> editing.idle (on editing)': [],
  'editing.*: location.changed -> editing.idle (on editing)': [],
  'editing.*: settings.save [canSave] -> saving (on editing)': ['invoke saveSettings'],
  'editing.*: settings.cancel -> left (on editing)': ['goToDocuments'],
  'saving: locale.shown -> (stays)': [],
  'saving: xstate.done.actor.saveSettings -> editing.saved': ['applyLocale', 'refreshProfile'],
  'saving: xstate.error.actor.saveSettings -> editing.failed': [],
} as const satisfies EffectTable;
