// The welcome modal opens once, when the profile says it was never watched and no other modal is open;
// closing it saves the flag and has the session read the profile again.
import type { EffectTable } from './table';

export const WELCOME_EFFECTS = {
  '(start)': [],
  'waiting: welcome.check #1 [isWatched] -> watched': [],
  'waiting: welcome.check #2 [canShow] -> showing': ['openWelcome'],
  'showing: welcome.closed -> saving': ['invoke saveWelcomeScreenWatched'],
  'saving: xstate.done.actor.saveWelcomeScreenWatched -> watched': ['refreshProfile'],
  'saving: xstate.error.actor.saveWelcomeScreenWatched -> unsaved': [],
} as const satisfies EffectTable;
