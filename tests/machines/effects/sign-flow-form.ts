// The sign flow form loads once, edits in context only (the view keeps the draft), and leaves for the
// document page on cancel or after a save, forgetting the draft.
import type { EffectTable } from './table';

export const SIGN_FLOW_FORM_EFFECTS = {
  '(start)': ['invoke loadSignFlowForm'],
  'loading: xstate.done.actor.loadSignFlowForm #1 [isNotAllowed] -> left': ['goToDocument'],
  'loading: xstate.done.actor.loadSignFlowForm #2 -> editing': [],
  'loading: xstate.error.actor.loadSignFlowForm -> loadFailed': [],
  'loadFailed: form.back -> left': ['goToDocument'],
  'editing.*: participants.add [canAdd] -> (stays) (on editing)': [],
  'editing.*: participant.remove [canRemove] -> (stays) (on editing)': [],
  'editing.*: signatory.move [canMove] -> (stays) (on editing)': [],
  'editing.*: ordered.changed [canChangeType] -> (stays) (on editing)': [],
  'editing.*: minimum.toggled #1 [isTurningMinimumOn] -> (stays) (on editing)': ['focusMinimum'],
  'editing.*: minimum.toggled #2 [isMinimumAllowed] -> (stays) (on editing)': [],
  'editing.*: minimum.changed [isStandardFlow] -> (stays) (on editing)': [],
  'editing.*: mode.changed [canChangeMode] -> (stays) (on editing)': [],
  'editing.*: pagePosition.changed [canChangeMode] -> (stays) (on editing)': [],
  'editing.*: afterPage.changed [canChangeMode] -> (stays) (on editing)': [],
  'editing.*: comment.changed -> (stays) (on editing)': [],
  'editing.*: placements.saved -> (stays) (on editing)': [],
  'editing.*: form.submit [canSubmit] -> saving (on editing)': ['invoke saveSignFlow'],
  'editing.*: form.cancel -> left (on editing)': ['clearDraft', 'goToDocument'],
  'saving: xstate.done.actor.saveSignFlow -> left': ['clearDraft', 'goToDocument'],
  'saving: xstate.error.actor.saveSignFlow -> editing.saveFailed': [],
} as const satisfies EffectTable;
