import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import type { PersonProfile } from '../../machines/connections.machine';
import {
  canSave,
  memberMatches,
  signGroupsMachine,
  type SaveSignGroupInput,
  type SignGroup,
  type SignGroupIdInput,
} from '../../machines/sign-groups.machine';
import type { ModalName } from '../../machines/modal.machine';
import { samplePerson, sampleSignGroup } from '../samples';
import { controlledPromise, flush } from './support';

const BOB = samplePerson('p-bob', { fullName: 'Bob Builder', emailAddress: 'bob@paraph.test' });
const CAROL = samplePerson('p-carol', { fullName: 'Carol Shaw', emailAddress: 'carol@paraph.test' });
const DAN = samplePerson('p-dan', { fullName: 'Dan Brown', emailAddress: 'dan@elsewhere.test' });
const BOARD = sampleSignGroup('g1', { name: 'Board', members: [BOB, CAROL] });

function startGroups() {
  const fetchSignGroups = controlledPromise<SignGroup[]>();
  const fetchSignGroup = controlledPromise<SignGroup, SignGroupIdInput>();
  const fetchMemberCandidates = controlledPromise<PersonProfile[]>();
  const saveSignGroup = controlledPromise<void, SaveSignGroupInput>();
  const deleteSignGroup = controlledPromise<void, SignGroupIdInput>();
  const openModal = vi.fn<(args: unknown, params: { name: ModalName }) => void>();
  const closeModal = vi.fn();
  const machine = signGroupsMachine.provide({
    actors: {
      fetchSignGroups: fetchSignGroups.logic,
      fetchSignGroup: fetchSignGroup.logic,
      fetchMemberCandidates: fetchMemberCandidates.logic,
      saveSignGroup: saveSignGroup.logic,
      deleteSignGroup: deleteSignGroup.logic,
    },
    actions: { openModal, closeModal },
  });
  const actor = createActor(machine).start();
  return {
    actor,
    fetchSignGroups,
    fetchSignGroup,
    fetchMemberCandidates,
    saveSignGroup,
    deleteSignGroup,
    openModal,
    closeModal,
  };
}

async function withGroups(groups: SignGroup[] = [BOARD]) {
  const started = startGroups();
  started.fetchSignGroups.last().result.resolve(groups);
  await flush();
  return started;
}

async function creating() {
  const started = await withGroups();
  started.actor.send({ type: 'group.create' });
  started.fetchMemberCandidates.last().result.resolve([BOB, CAROL, DAN]);
  await flush();
  return started;
}

describe('sign groups: the modals', () => {
  it('opens the named modal itself for create, edit and delete, and closes it itself', async () => {
    const { actor, openModal, closeModal } = await withGroups();
    const opened = () => openModal.mock.calls.map(([, params]) => params.name);

    actor.send({ type: 'group.create' });
    expect(opened()).toEqual(['signGroupEdit']);
    // Cancel, Esc and a click outside all send dialog.close.
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    expect(closeModal).toHaveBeenCalledTimes(1);

    actor.send({ type: 'group.edit', groupId: 'g1' });
    expect(opened()).toEqual(['signGroupEdit', 'signGroupEdit']);
    actor.send({ type: 'group.delete', groupId: 'g1' });
    expect(opened()).toHaveLength(2);
    actor.send({ type: 'dialog.close' });
    expect(closeModal).toHaveBeenCalledTimes(2);

    actor.send({ type: 'group.delete', groupId: 'g1' });
    expect(opened()).toEqual(['signGroupEdit', 'signGroupEdit', 'signGroupDelete']);
    actor.send({ type: 'dialog.close' });
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    expect(closeModal).toHaveBeenCalledTimes(3);
  });
});

describe('sign groups: the list', () => {
  it('loads the groups, says when there are none, and retries a failed load', async () => {
    const { actor, fetchSignGroups } = startGroups();
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    fetchSignGroups.last().result.reject({ code: 'internal_error', status: 500 });
    await flush();
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');

    actor.send({ type: 'groups.reload' });
    fetchSignGroups.last().result.resolve([]);
    await flush();
    expect(actor.getSnapshot().matches({ list: 'empty' })).toBe(true);
    expect(fetchSignGroups.calls).toHaveLength(2);
  });
});

describe('sign groups: the editor', () => {
  it('creates a group: disabled without a name or members, then sent trimmed', async () => {
    const { actor, saveSignGroup, closeModal, fetchSignGroups } = await creating();
    expect(actor.getSnapshot().matches({ dialog: { editor: { form: 'idle' } } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);

    actor.send({ type: 'editor.nameChanged', name: '  Board 2 ' });
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);
    actor.send({ type: 'editor.memberAdded', profileId: 'p-carol' });
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(true);

    actor.send({ type: 'editor.save' });
    expect(saveSignGroup.last().input).toEqual({ groupId: null, name: 'Board 2', memberIds: ['p-carol'] });
    saveSignGroup.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    expect(closeModal).toHaveBeenCalledTimes(1);
    expect(fetchSignGroups.calls).toHaveLength(2);
  });

  it('only adds connections that are not members yet', async () => {
    const { actor } = await creating();
    actor.send({ type: 'editor.memberAdded', profileId: 'p-stranger' });
    actor.send({ type: 'editor.memberAdded', profileId: 'p-bob' });
    actor.send({ type: 'editor.memberAdded', profileId: 'p-bob' });
    expect(actor.getSnapshot().context.memberIds).toEqual(['p-bob']);
  });

  it('edits a group: loads it, then the connections, and refuses to save without members', async () => {
    const { actor, fetchSignGroup, fetchMemberCandidates, saveSignGroup } = await withGroups();
    actor.send({ type: 'group.edit', groupId: 'g1' });
    expect(fetchSignGroup.last().input).toEqual({ groupId: 'g1' });
    fetchSignGroup.last().result.resolve(BOARD);
    await flush();
    fetchMemberCandidates.last().result.resolve([BOB, CAROL]);
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ name: 'Board', memberIds: ['p-bob', 'p-carol'] });
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(true);

    actor.send({ type: 'editor.memberRemoved', profileId: 'p-bob' });
    actor.send({ type: 'editor.memberRemoved', profileId: 'p-carol' });
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);
    actor.send({ type: 'editor.save' });
    expect(saveSignGroup.calls).toHaveLength(0);
    expect(actor.getSnapshot().context.isMembersTouched).toBe(true);
  });

  it('says the group could not be loaded, and retries', async () => {
    const { actor, fetchSignGroup } = await withGroups();
    actor.send({ type: 'group.edit', groupId: 'g1' });
    fetchSignGroup.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: { editor: 'loadFailed' } })).toBe(true);
    actor.send({ type: 'editor.retry' });
    expect(fetchSignGroup.calls).toHaveLength(2);
  });

  it('says the connections could not be loaded (population error), and retries', async () => {
    const { actor, fetchMemberCandidates } = await withGroups();
    actor.send({ type: 'group.create' });
    fetchMemberCandidates.last().result.reject({ code: 'server', status: 500 });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: { editor: 'populationFailed' } })).toBe(true);
    actor.send({ type: 'editor.retry' });
    expect(fetchMemberCandidates.calls).toHaveLength(2);
  });

  it('keeps every field and names the members the server refused as no longer connections', async () => {
    const { actor, saveSignGroup, closeModal } = await creating();
    actor.send({ type: 'editor.nameChanged', name: 'Board 2' });
    actor.send({ type: 'editor.memberAdded', profileId: 'p-bob' });
    actor.send({ type: 'editor.memberAdded', profileId: 'p-dan' });
    actor.send({ type: 'editor.save' });
    saveSignGroup.last().result.reject({ code: 'not_a_connection', status: 422, blockedIds: ['p-dan'] });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ dialog: { editor: { form: 'saveFailed' } } })).toBe(true);
    expect(snapshot.context).toMatchObject({
      name: 'Board 2',
      memberIds: ['p-bob', 'p-dan'],
      dialogErrorCode: 'not_a_connection',
      blockedIds: ['p-dan'],
    });
    expect(closeModal).not.toHaveBeenCalled();

    actor.send({ type: 'editor.memberRemoved', profileId: 'p-dan' });
    actor.send({ type: 'editor.save' });
    expect(saveSignGroup.last().input.memberIds).toEqual(['p-bob']);
    expect(actor.getSnapshot().context.blockedIds).toEqual([]);
  });
});

describe('sign groups: deletion', () => {
  it('deletes only after the confirmation, and a failure can be retried', async () => {
    const { actor, deleteSignGroup, closeModal, fetchSignGroups } = await withGroups();
    actor.send({ type: 'group.delete', groupId: 'g1' });
    expect(actor.getSnapshot().matches({ dialog: { deletion: 'confirming' } })).toBe(true);
    expect(deleteSignGroup.calls).toHaveLength(0);

    actor.send({ type: 'deletion.confirm' });
    deleteSignGroup.last().result.reject({ code: 'network' });
    await flush();
    expect(actor.getSnapshot().matches({ dialog: { deletion: 'failed' } })).toBe(true);
    actor.send({ type: 'deletion.confirm' });
    expect(deleteSignGroup.calls.map((call) => call.input)).toEqual([{ groupId: 'g1' }, { groupId: 'g1' }]);
    deleteSignGroup.last().result.resolve();
    await flush();
    expect(closeModal).toHaveBeenCalledTimes(1);
    expect(fetchSignGroups.calls).toHaveLength(2);
  });

  it('ignores a group that is not listed, and opens no modal for it', async () => {
    const { actor, openModal } = await withGroups();
    actor.send({ type: 'group.delete', groupId: 'nope' });
    actor.send({ type: 'group.edit', groupId: 'nope' });
    expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
    // A modal the machine is not showing would be left open with nothing to close it.
    expect(openModal).not.toHaveBeenCalled();
  });
});

describe('sign groups: the rules', () => {
  it('searches connections by e-mail or name, case-insensitively, from 3 characters, members left out', () => {
    expect(memberMatches([BOB, CAROL, DAN], 'ca', [])).toEqual([]);
    expect(memberMatches([BOB, CAROL, DAN], 'CAR', [])).toEqual([CAROL]);
    expect(memberMatches([BOB, CAROL, DAN], 'elsewhere', [])).toEqual([DAN]);
    expect(memberMatches([BOB, CAROL, DAN], ' paraph ', ['p-bob'])).toEqual([CAROL]);
  });

  it('needs a name that is not blank and at least one member', () => {
    expect(canSave({ name: 'Board', memberIds: ['p-bob'] })).toBe(true);
    expect(canSave({ name: '   ', memberIds: ['p-bob'] })).toBe(false);
    expect(canSave({ name: 'Board', memberIds: [] })).toBe(false);
  });
});
