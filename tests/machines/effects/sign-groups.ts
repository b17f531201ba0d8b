// The editor and the deletion are dialogs: opening one opens its modal and starts its loads, a save or a
// delete closes it and reloads the list (a raised groups.reload).
import type { EffectTable } from './table';

export const SIGN_GROUPS_EFFECTS = {
  '(start)': ['invoke fetchSignGroups'],
  'list.loading: xstate.done.actor.fetchSignGroups #1 [hasNoGroups] -> list.empty': [],
  'list.loading: xstate.done.actor.fetchSignGroups #2 -> list.loaded': [],
  'list.loading: xstate.error.actor.fetchSignGroups -> list.failed': [],
  'list.*: groups.reload -> list.loading (on list)': ['invoke fetchSignGroups'],
  'dialog.closed: group.create -> dialog.editor.populating': ['invoke fetchMemberCandidates', 'openModal'],
  'dialog.closed: group.edit [isListedGroup] -> dialog.editor.loadingGroup': [
    'invoke fetchSignGroup',
    'openModal',
  ],
  'dialog.closed: group.delete [isListedGroup] -> dialog.deletion.confirming': ['openModal'],
  'dialog.editor.loadingGroup: xstate.done.actor.fetchSignGroup -> dialog.editor.populating': [
    'invoke fetchMemberCandidates',
  ],
  'dialog.editor.loadingGroup: xstate.error.actor.fetchSignGroup -> dialog.editor.loadFailed': [],
  'dialog.editor.*: dialog.close -> dialog.closed (on dialog.editor)': ['closeModal'],
  'dialog.editor.loadFailed: editor.retry -> dialog.editor.loadingGroup': ['invoke fetchSignGroup'],
  'dialog.editor.populating: xstate.done.actor.fetchMemberCandidates -> dialog.editor.form': [],
  'dialog.editor.populating: xstate.error.actor.fetchMemberCandidates -> dialog.editor.populationFailed': [],
  'dialog.editor.populationFailed: editor.retry -> dialog.editor.populating': [
    'invoke fetchMemberCandidates',
  ],
  'dialog.editor.form.*: editor.nameChanged -> (stays) (on dialog.editor.form)': [],
  'dialog.editor.form.*: editor.queryChanged -> (stays) (on dialog.editor.form)': [],
  'dialog.editor.form.*: editor.memberAdded [isAddableMember] -> (stays) (on dialog.editor.form)': [],
  'dialog.editor.form.*: editor.memberRemoved [isMember] -> (stays) (on dialog.editor.form)': [],
  'dialog.editor.form.*: editor.save [canSave] -> dialog.editor.saving (on dialog.editor.form)': [
    'invoke saveSignGroup',
  ],
  'dialog.editor.saving: xstate.done.actor.saveSignGroup -> dialog.closed': ['closeModal', 'reloadList'],
  'dialog.editor.saving: xstate.error.actor.saveSignGroup -> dialog.editor.form.saveFailed': [],
  'dialog.deletion.confirming: deletion.confirm -> dialog.deletion.deleting': ['invoke deleteSignGroup'],
  'dialog.deletion.*: dialog.close -> dialog.closed (on dialog.deletion)': ['closeModal'],
  'dialog.deletion.deleting: xstate.done.actor.deleteSignGroup -> dialog.closed': [
    'closeModal',
    'reloadList',
  ],
  'dialog.deletion.deleting: xstate.error.actor.deleteSignGroup -> dialog.deletion.failed': [],
  'dialog.deletion.failed: deletion.confirm -> dialog.deletion.deleting': ['invoke deleteSignGroup'],
} as const satisfies EffectTable;
