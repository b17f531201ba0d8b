// The language on screen: a catalog loaded, then marked on the document, stored on the device and, when
// chosen, saved to the profile.
import type { EffectTable } from './table';

export const LANGUAGE_EFFECTS = {
  '(start)': ['markDocumentLanguage'],
  'idle: language.align #1 [profileLacksPending] -> saving': ['forgetPendingForProfile', 'invoke saveLocale'],
  'idle: language.align #2 [hasPending] -> (stays)': ['forgetPendingForProfile'],
  'idle: language.align #3 [followsProfile] -> showing': ['invoke loadCatalog'],
  // markDocumentLanguage here is the root's entry run again, with the language still on screen: a
  // transition of the root with reenter re-enters the root itself. Harmless (the same lang is set again).
  '*: language.choose -> choosing (on (root))': ['markDocumentLanguage', 'invoke loadCatalog'],
  '*: language.show -> showing (on (root))': ['markDocumentLanguage', 'invoke loadCatalog'],
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
