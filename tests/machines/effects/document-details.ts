// The details panel loads the one selected document, and its sign flow's participants when it has one.
// The input becomes a first selection.changed (applyInput, a named raise) when the actor starts.
import type { EffectTable } from './table';

export const DOCUMENT_DETAILS_EFFECTS = {
  '(start)': ['applyInput'],
  'none: selection.changed #1 [isOneSelected] -> loading': ['invoke fetchDocument'],
  'none: selection.changed #2 -> several': [],
  'several: selection.changed #1 [isNoSelection] -> none': [],
  'several: selection.changed #2 [isOneSelected] -> loading': ['invoke fetchDocument'],
  'several: selection.changed #3 -> several': [],
  'loading: selection.changed #1 [isNoSelection] -> none': [],
  'loading: selection.changed #2 [isOneSelected] -> loading': ['invoke fetchDocument'],
  'loading: selection.changed #3 -> several': [],
  'loading: xstate.done.actor.fetchDocument #1 [isSignFlow] -> one.loadingParticipants': [
    'invoke fetchSignFlow',
  ],
  'loading: xstate.done.actor.fetchDocument #2 -> one': [],
  'loading: xstate.error.actor.fetchDocument -> failed': [],
  'one.*: selection.changed #1 [isNoSelection] -> none (on one)': [],
  'one.*: selection.changed #2 [isOneSelected] -> loading (on one)': ['invoke fetchDocument'],
  'one.*: selection.changed #3 -> several (on one)': [],
  'one.*: details.reload -> loading (on one)': ['invoke fetchDocument'],
  'one.loadingParticipants: xstate.done.actor.fetchSignFlow -> one.participants': [],
  'one.loadingParticipants: xstate.error.actor.fetchSignFlow -> one.participantsFailed': [],
  'failed: selection.changed #1 [isNoSelection] -> none': [],
  'failed: selection.changed #2 [isOneSelected] -> loading': ['invoke fetchDocument'],
  'failed: selection.changed #3 -> several': [],
  'failed: details.reload -> loading': ['invoke fetchDocument'],
} as const satisfies EffectTable;
