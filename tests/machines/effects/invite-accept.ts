// An invitation opens its document, or leads to the list; a 401 is left to the session (nothing here).
import type { EffectTable } from './table';

export const INVITE_ACCEPT_EFFECTS = {
  '(start)': ['invoke acceptInvite'],
  'accepting: xstate.done.actor.acceptInvite #1 [hasDocument] -> opened': ['openDocument'],
  'accepting: xstate.done.actor.acceptInvite #2 -> nothingToOpen': ['goToDocuments'],
  'accepting: xstate.error.actor.acceptInvite #1 [isUnauthorized] -> signedOut': [],
  'accepting: xstate.error.actor.acceptInvite #2 -> failed': ['goToDocuments'],
} as const satisfies EffectTable;
