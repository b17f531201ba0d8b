// The connections page (/app/connections/users): loads the user's connections and says whether there are
// any, or why they could not be loaded (a retry reloads). Started when the page mounts, stopped when it
// unmounts. The root is parallel so that [3/6] can add regions beside `list` (requests, the row actions,
// adding by e-mail) without changing what views match: `{ list: 'loaded' }`.
import { assign, fromPromise, setup } from 'xstate';
import { toErrorCode } from './types';

/** A connection's profile as `GET /connections` includes it; `lastSeenAt` is null when never seen. */
export type ConnectedProfile = {
  id: string;
  fullName: string;
  emailAddress: string;
  initials: string;
  lastSeenAt: string | null;
};

export type Connection = { id: string; profile: ConnectedProfile };

export type ConnectionsContext = {
  connections: Connection[];
  errorCode: string | null;
};

export type ConnectionsEvent = { type: 'connections.reload' };

const connectionsOfOutput = ({ event }: { event: { output: Connection[] } }) => ({
  connections: event.output,
});
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

export const connectionsMachine = setup({
  types: {
    context: {} as ConnectionsContext,
    events: {} as ConnectionsEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchConnections: fromPromise<Connection[]>(async () => {
      throw new Error('fetchConnections not provided');
    }),
  },
  actions: {
    keepConnections: assign((_, params: { connections: Connection[] }) => ({
      connections: params.connections,
      errorCode: null,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    hasNoConnections: (_, params: { connections: Connection[] }) => params.connections.length === 0,
  },
}).createMachine({
  id: 'connections',
  type: 'parallel',
  context: { connections: [], errorCode: null },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'fetchConnections',
            src: 'fetchConnections',
            onDone: [
              {
                guard: { type: 'hasNoConnections', params: connectionsOfOutput },
                target: 'empty',
                actions: { type: 'keepConnections', params: connectionsOfOutput },
              },
              { target: 'loaded', actions: { type: 'keepConnections', params: connectionsOfOutput } },
            ],
            onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
          },
        },
        loaded: {},
        empty: {},
        failed: {
          tags: ['error'],
          on: { 'connections.reload': 'loading' },
        },
      },
    },
  },
});
