// The language on screen: a catalog loaded, then marked on the document, stored on the device and, when
// chosen, saved to the profile.
import type { EffectTable } from './table';

export const LANGUAGE_EFFECTS = {
  '(start)': ['markDocumentLanguage'],
  'idle: language.align #1 [profileLacksPending] -> saving': ['forgetPendingForProfile', 'invoke saveLocale'],
  'idle: language.align #2 [hasPending] -> (stays)': ['forgetPendingForProfile'],
  'idle: language.align #3 [followsProfile] -> showing': ['invoke loadCatalog'],
  // The root is not re-entered (its entry would mark the language still on screen): only its target is.
  '*: language.choose -> choosing (on (root))': ['invoke loadCatalog'],
  '*: language.show -> showing (on (root))': ['invoke loadCatalog'],
  'choosing: xstate.done.actor.loadCatalog -> saving': [
    'invoke saveLocale',
    'markDocumentLanguage',
    'storeLocale',
  ],
  'choosing: xstate.error.actor.loadCatalog -> idle': [],
  'showing: xstate.done.actor.loadCatalog -> idle': ['markDocumentLanguage', 'storeLocale'],
  'showing: xstate.error.actor.loadCatalog -> idle': [],
  'saving: xstate.done.actor.saveLocale -> idle': ['refreshProfile'],
  'saving: xstate.error.actor.saveLocale -> failed': [],
} as const satisfies EffectTable;
