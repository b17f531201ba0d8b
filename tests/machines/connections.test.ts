import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { connectionsMachine, type Connection } from '../../machines/connections.machine';
import { sampleConnection } from '../../machines/samples';
import { controlledPromise, flush } from './support';

const ADA = sampleConnection('c-ada', { fullName: 'Ada Lovelace', emailAddress: 'ada@paraph.test' });
const BOB = sampleConnection('c-bob', { lastSeenAt: null });

function startConnections() {
  const fetchConnections = controlledPromise<Connection[]>();
  const machine = connectionsMachine.provide({ actors: { fetchConnections: fetchConnections.logic } });
  const actor = createActor(machine).start();
  const answer = async (connections: Connection[]) => {
    fetchConnections.last().result.resolve(connections);
    await flush();
  };
  const fail = async (error: unknown) => {
    fetchConnections.last().result.reject(error);
    await flush();
  };
  return { actor, fetchConnections, answer, fail };
}

describe('connections', () => {
  it('loads the connections when it starts and keeps them with their profiles', async () => {
    const { actor, fetchConnections, answer } = startConnections();
    expect(fetchConnections.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);

    await answer([ADA, BOB]);
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ list: 'loaded' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context.connections.map((connection) => connection.id)).toEqual(['c-ada', 'c-bob']);
    expect(snapshot.context.connections[1]?.profile.lastSeenAt).toBeNull();
  });

  it('is empty when the user has no connections', async () => {
    const { actor, answer } = startConnections();
    await answer([]);
    expect(actor.getSnapshot().matches({ list: 'empty' })).toBe(true);
    expect(actor.getSnapshot().context.connections).toEqual([]);
  });

  it('keeps the error code of a failed load, and a reload that succeeds clears it', async () => {
    const { actor, fetchConnections, fail, answer } = startConnections();
    await fail({ code: 'internal_error', status: 500 });
    expect(actor.getSnapshot().matches({ list: 'failed' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');

    actor.send({ type: 'connections.reload' });
    expect(fetchConnections.calls).toHaveLength(2);
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    await answer([ADA]);
    expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
  });

  it('calls anything that is not an API failure a network error', async () => {
    const { actor, fail } = startConnections();
    await fail(new TypeError('Failed to fetch'));
    expect(actor.getSnapshot().context.errorCode).toBe('network');
  });

  it('reloads only after a failure: a loaded list ignores connections.reload', async () => {
    const { actor, fetchConnections, answer } = startConnections();
    await answer([ADA]);
    expect(actor.getSnapshot().can({ type: 'connections.reload' })).toBe(false);
    actor.send({ type: 'connections.reload' });
    expect(fetchConnections.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches({ list: 'loaded' })).toBe(true);
  });
});
