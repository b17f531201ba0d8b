// The shell starts its five long-lived children and passes on what they announce: every effect is a
// send to a child (sendTo) or an emit to the screens' actors, each a named action.
import type { EffectTable } from './table';

export const SHELL_EFFECTS = {
  '(start)': [
    'invoke documentActions',
    'invoke language',
    'invoke modal',
    'invoke session',
    'invoke welcome',
  ],
  'waitingForProfile: profile.loaded -> ready': ['alignLocale', 'checkWelcome'],
  '*: documents.changed -> (stays) (on (root))': ['announceDocumentsChanged'],
  '*: modal.changed -> (stays) (on (root))': ['followModal'],
  '*: modal.confirmed [isActionModal] -> (stays) (on (root))': ['confirmAction'],
  '*: action.request -> (stays) (on (root))': ['requestAction'],
  '*: notice.show -> (stays) (on (root))': [],
  '*: notice.dismiss -> (stays) (on (root))': [],
  'ready: profile.loaded -> (stays)': ['checkWelcome'],
} as const satisfies EffectTable;
