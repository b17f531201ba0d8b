import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  connectionsMachine,
  firstOffered,
  ignoredIdsOf,
  isInvitable,
  isSearchable,
  SEARCH_DEBOUNCE_MS,
  type AddConnectionInput,
  type ConnectionsData,
  type PersonProfile,
  type RowActionInput,
  type SearchInput,
} from '../../machines/connections.machine';
import type { ModalName } from '../../machines/modal.machine';
import { sampleConnection, samplePerson, sampleRequest } from '../samples';
import { controlledPromise, flush } from './support';

const ADA = sampleConnection('c-ada', { fullName: 'Ada Lovelace', emailAddress: 'ada@paraph.test' });
const BOB = sampleConnection('c-bob', { lastSeenAt: null });
const INBOUND = sampleRequest('r-in');
const OUTBOUND = sampleRequest('r-out', {
  direction: 'outbound',
  profile: samplePerson('profile-erin', { fullName: 'Erin Hale', emailAddress: 'erin@paraph.test' }),
});
const INVITATION = sampleRequest('r-invite', {
  direction: 'outbound',
  profile: null,
  invitationEmailAddress: 'frank@elsewhere.test',
});
const GRACE = samplePerson('profile-grace', { fullName: 'Grace Hopper', emailAddress: 'grace@paraph.test' });
const DATA: ConnectionsData = { connections: [ADA, BOB], requests: [INBOUND, OUTBOUND, INVITATION] };

function startConnections() {
  const fetchConnections = controlledPromise<ConnectionsData>();
  const acceptRequest = controlledPromise<void, RowActionInput>();
  const refuseRequest = controlledPromise<void, RowActionInput>();
  const cancelRequest = controlledPromise<void, RowActionInput>();
  const removeConnection = controlledPromise<void, RowActionInput>();
  const searchProfiles = controlledPromise<PersonProfile[], SearchInput>();
  const addConnection = controlledPromise<void, AddConnectionInput>();
  const refreshProfile = vi.fn();
  const openModal = vi.fn<(args: unknown, params: { name: ModalName }) => void>();
  const closeModal = vi.fn();
  const clock = new SimulatedClock();
  const machine = connectionsMachine.provide({
    actors: {
      fetchConnections: fetchConnections.logic,
      acceptRequest: acceptRequest.logic,
      refuseRequest: refuseRequest.logic,
      cancelRequest: cancelRequest.logic,
      removeConnection: removeConnection.logic,
      searchProfiles: searchProfiles.logic,
      addConnection: addConnection.logic,
    },
    actions: { refreshProfile, openModal, closeModal },
  });
  const actor = createActor(machine, { clock }).start();
  const answer = async (data: ConnectionsData) => {
    fetchConnections.last().result.resolve(data);
    await flush();
  };
  const fail = async (error: unknown) => {
    fetchConnections.last().result.reject(error);
    await flush();
  };
  return {
    actor,
    clock,
    fetchConnections,
    acceptRequest,
    refuseRequest,
    cancelRequest,
    removeConnection,
    searchProfiles,
    addConnection,
    refreshProfile,
    openModal,
    closeModal,
    answer,
    fail,
  };
}

async function loaded() {
  const started = startConnections();
  await started.answer(DATA);
  return started;
}

describe('connections: the list', () => {
  it('loads the connections and requests when it starts', async () => {
    const { actor, fetchConnections, answer } = startConnections();
    expect(fetchConnections.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);

    await answer(DATA);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ list: 'loaded' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.connections.map((connection) => connection.id)).toEqual(['c-ada', 'c-bob']);
    expect(snapshot.context.requests.map((request) => request.direction)).toEqual([
      'inbound',
      'outbound',
      'outbound',
    ]);
  });

  it('is empty when the user has no connections', async () => {
    const { actor, answer } = startConnections();
    await answer({ connections: [], requests: [INBOUND] });
    expect(actor.getSnapshot().matches({ list: 'empty' })).toBe(true);
    expect(actor.getSnapshot().context.requests).toHaveLength(1);
  });

  it('keeps the error code of a failed load, and a reload that succeeds clears it', async () => {
    const { actor, fetchConnections, fail, answer } = startConnections();
    await fail({ code: 'internal_error', status: 500 });
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');

    actor.send({ type: 'connections.reload' });
    expect(fetchConnections.calls).toHaveLength(2);
    await answer(DATA);
    expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });

  it('calls anything that is not an API failure a network error', async () => {
    const { actor, fail } = startConnections();
    await fail(new TypeError('Failed to fetch'));
    expect(actor.getSnapshot().context.errorCode).toBe('network');
  });
});

describe('connections: row actions', () => {
  it('accepts an inbound request once, however often it is clicked, then reloads and refreshes the profile', async () => {
    const { actor, acceptRequest, fetchConnections, refreshProfile } = await loaded();
    actor.send({ type: 'request.accept', requestId: 'r-in' });
    actor.send({ type: 'request.accept', requestId: 'r-in' });
    expect(acceptRequest.calls.map((call) => call.input)).toEqual([{ id: 'r-in' }]);
    expect(actor.getSnapshot().matches({ row: { running: 'accept' } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'request.refuse', requestId: 'r-in' })).toBe(false);

    acceptRequest.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().matches({ row: 'idle' })).toBe(true);
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(fetchConnections.calls).toHaveLength(2);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
  });

  it('refuses an inbound request and refreshes the profile (the badge count)', async () => {
    const { actor, refuseRequest, refreshProfile, fetchConnections } = await loaded();
    actor.send({ type: 'request.refuse', requestId: 'r-in' });
    refuseRequest.last().result.resolve();
    await flush();
    expect(refuseRequest.calls[0]?.input).toEqual({ id: 'r-in' });
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(fetchConnections.calls).toHaveLength(2);
  });

  it('cancels only outbound requests and accepts only inbound ones', async () => {
    const { actor, cancelRequest, acceptRequest, refreshProfile, fetchConnections } = await loaded();
    actor.send({ type: 'request.cancel', requestId: 'r-in' });
    actor.send({ type: 'request.accept', requestId: 'r-out' });
    expect(cancelRequest.calls).toHaveLength(0);
    expect(acceptRequest.calls).toHaveLength(0);

    actor.send({ type: 'request.cancel', requestId: 'r-invite' });
    cancelRequest.last().result.resolve();
    await flush();
    expect(cancelRequest.calls[0]?.input).toEqual({ id: 'r-invite' });
    expect(refreshProfile).not.toHaveBeenCalled();
    expect(fetchConnections.calls).toHaveLength(2);
  });

  it('removes a connection only after the confirmation', async () => {
    const { actor, removeConnection } = await loaded();
    actor.send({ type: 'connection.remove', connectionId: 'c-bob' });
    expect(actor.getSnapshot().matches({ row: 'confirmingRemove' })).toBe(true);
    expect(removeConnection.calls).toHaveLength(0);
    actor.send({ type: 'remove.dismiss' });
    expect(actor.getSnapshot().matches({ row: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.actionId).toBeNull();

    actor.send({ type: 'connection.remove', connectionId: 'c-bob' });
    actor.send({ type: 'remove.confirm' });
    expect(removeConnection.calls.map((call) => call.input)).toEqual([{ id: 'c-bob' }]);
  });

  it('keeps a failed action as an error banner until dismissed or another action starts', async () => {
    const { actor, acceptRequest, refuseRequest } = await loaded();
    actor.send({ type: 'request.accept', requestId: 'r-in' });
    acceptRequest.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(actor.getSnapshot().matches({ row: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ action: 'accept', actionErrorCode: 'not_found' });

    actor.send({ type: 'request.refuse', requestId: 'r-in' });
    expect(actor.getSnapshot().context.actionErrorCode).toBeNull();
    expect(refuseRequest.calls).toHaveLength(1);
    refuseRequest.last().result.reject({ code: 'network' });
    await flush();
    actor.send({ type: 'action.dismissError' });
    expect(actor.getSnapshot().matches({ row: 'idle' })).toBe(true);
  });
});

describe('connections: add by e-mail', () => {
  async function opened() {
    const started = await loaded();
    started.actor.send({ type: 'add.open' });
    return started;
  }

  it('searches a query of more than 2 characters only after the 1 s debounce, with the trimmed text', async () => {
    const { actor, clock, searchProfiles } = await opened();
    actor.send({ type: 'add.queryChanged', query: ' gra' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    expect(searchProfiles.calls).toHaveLength(0);
    actor.send({ type: 'add.queryChanged', query: ' grace ' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    expect(searchProfiles.calls).toHaveLength(0);
    clock.increment(1);
    expect(searchProfiles.calls.map((call) => call.input)).toEqual([{ query: 'grace' }]);
  });

  it('sends nothing for a 1- or 2-character query', async () => {
    const { actor, clock, searchProfiles } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'g' });
    actor.send({ type: 'add.queryChanged', query: ' gr  ' });
    clock.increment(SEARCH_DEBOUNCE_MS * 5);
    expect(searchProfiles.calls).toHaveLength(0);
    expect(actor.getSnapshot().matches({ add: { open: { form: 'idle' } } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'add.submit' })).toBe(false);
  });

  it('offers only the first result that is not already a connection or a request', async () => {
    const { actor, clock, searchProfiles } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'paraph' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles
      .last()
      .result.resolve([
        samplePerson('profile-c-ada'),
        samplePerson('profile-erin'),
        GRACE,
        samplePerson('profile-zed', { fullName: 'Zed' }),
      ]);
    await flush();
    expect(actor.getSnapshot().matches({ add: { open: { form: 'found' } } })).toBe(true);
    expect(actor.getSnapshot().context.result).toEqual(GRACE);
  });

  it('adds the offered person with `to` and their address, closes the dialog and reloads the requests', async () => {
    const { actor, clock, searchProfiles, addConnection, closeModal, fetchConnections } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'grace' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles.last().result.resolve([GRACE]);
    await flush();
    actor.send({ type: 'add.submit' });
    actor.send({ type: 'add.submit' });
    expect(addConnection.calls.map((call) => call.input)).toEqual([
      { to: 'profile-grace', invitationEmailAddress: 'grace@paraph.test' },
    ]);
    addConnection.last().result.resolve();
    await flush();
    expect(closeModal).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ add: 'closed' })).toBe(true);
    expect(fetchConnections.calls).toHaveLength(2);
  });

  it('has nothing to add when every result is ignored, unless the query is an address to invite', async () => {
    const { actor, clock, searchProfiles, addConnection } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'erin' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles.last().result.resolve([samplePerson('profile-erin')]);
    await flush();
    expect(actor.getSnapshot().matches({ add: { open: { form: 'notFound' } } })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'add.submit' })).toBe(false);

    actor.send({ type: 'add.queryChanged', query: ' New.Person@Example.org ' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles.last().result.resolve([]);
    await flush();
    expect(actor.getSnapshot().can({ type: 'add.submit' })).toBe(true);
    actor.send({ type: 'add.submit' });
    expect(addConnection.last().input).toEqual({
      to: null,
      invitationEmailAddress: 'New.Person@Example.org',
    });
  });

  it('keeps the query and offers a retry when adding fails', async () => {
    const { actor, clock, searchProfiles, addConnection, closeModal } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'grace' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles.last().result.resolve([GRACE]);
    await flush();
    actor.send({ type: 'add.submit' });
    addConnection.last().result.reject({ code: 'already_connected', status: 409 });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ add: { open: { form: 'sendFailed' } } })).toBe(true);
    expect(snapshot.context).toMatchObject({
      query: 'grace',
      result: GRACE,
      addErrorCode: 'already_connected',
    });
    expect(closeModal).not.toHaveBeenCalled();
    actor.send({ type: 'add.submit' });
    expect(addConnection.calls).toHaveLength(2);
  });

  it('opens the addConnection modal itself, and closes it itself when the dialog is closed', async () => {
    const { actor, openModal, closeModal } = await loaded();
    expect(openModal).not.toHaveBeenCalled();

    actor.send({ type: 'add.open' });
    actor.send({ type: 'add.open' });
    expect(openModal.mock.calls.map(([, params]) => params)).toEqual([{ name: 'addConnection' }]);
    expect(closeModal).not.toHaveBeenCalled();

    // Cancel, Esc and a click outside all send add.close.
    actor.send({ type: 'add.close' });
    actor.send({ type: 'add.close' });
    expect(actor.getSnapshot().matches({ add: 'closed' })).toBe(true);
    expect(closeModal).toHaveBeenCalledTimes(1);

    actor.send({ type: 'add.open' });
    expect(openModal).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches({ add: 'open' })).toBe(true);
  });

  it('closes the modal when the dialog is closed while a request is being sent', async () => {
    const { actor, clock, searchProfiles, closeModal } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'grace' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    searchProfiles.last().result.resolve([GRACE]);
    await flush();
    actor.send({ type: 'add.submit' });
    expect(actor.getSnapshot().matches({ add: { open: 'sending' } })).toBe(true);
    actor.send({ type: 'add.close' });
    expect(actor.getSnapshot().matches({ add: 'closed' })).toBe(true);
    expect(closeModal).toHaveBeenCalledTimes(1);
  });

  it('forgets the query when the dialog closes', async () => {
    const { actor } = await opened();
    actor.send({ type: 'add.queryChanged', query: 'gr' });
    actor.send({ type: 'add.close' });
    actor.send({ type: 'add.open' });
    expect(actor.getSnapshot().context.query).toBe('');
  });
});

describe('connections: the search rules', () => {
  it('needs more than 2 characters once trimmed', () => {
    expect(isSearchable('ab')).toBe(false);
    expect(isSearchable('  ab  ')).toBe(false);
    expect(isSearchable('abc')).toBe(true);
  });

  it("ignores the connections' and the requests' people", () => {
    expect([...ignoredIdsOf(DATA)].sort()).toEqual([
      'profile-c-ada',
      'profile-c-bob',
      'profile-erin',
      'profile-r-in',
    ]);
    expect(firstOffered([samplePerson('profile-erin')], ignoredIdsOf(DATA))).toBeNull();
    expect(firstOffered([GRACE, samplePerson('x')], ignoredIdsOf(DATA))).toEqual(GRACE);
  });

  it('invites only a well-formed address nobody known already has', () => {
    expect(isInvitable('someone@example.org', DATA)).toBe(true);
    expect(isInvitable('not an address', DATA)).toBe(false);
    expect(isInvitable('ADA@paraph.test', DATA)).toBe(false);
    expect(isInvitable('frank@elsewhere.test', DATA)).toBe(false);
    expect(isInvitable('erin@paraph.test', DATA)).toBe(false);
  });
});
