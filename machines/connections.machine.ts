// The connections page (/app/connections/users), three parallel regions. `list`: the user's connections
// and pending requests (one load, a data error with a retry; `connections.reload` reloads from any state).
// `row`: accept / reject an inbound request, cancel an outbound one, remove a connection after a
// destructive confirmation; one call at a time, so a second click while one runs sends nothing. `add`: the
// "add a connection by e-mail" dialog (spec 000 §5): a trimmed query of more than 2 characters is searched
// SEARCH_DEBOUNCE after the last keystroke, the first result that is not already a connection or a request
// is offered, and a valid address nobody was found for can be invited instead. The `add` region is the one
// record of whether that dialog is open: its transitions tell the shell's modal actor (`openModal`,
// `closeModal`), so no view has to copy one actor's state into the other.
import { assign, fromPromise, raise, setup } from 'xstate';
import type { ModalName } from './modal.machine';
import { toErrorCode } from './types.ts';

/** A connection's profile as `GET /connections` includes it; `lastSeenAt` is null when never seen. */
export type ConnectedProfile = {
  id: string;
  fullName: string;
  emailAddress: string;
  initials: string;
  lastSeenAt: string | null;
};

export type Connection = { id: string; profile: ConnectedProfile };

/** Another user as a request or a search shows them. */
export type PersonProfile = { id: string; fullName: string; emailAddress: string; initials: string };

export type RequestDirection = 'inbound' | 'outbound';

/** A pending request: `profile` is null for an invitation to an address without an account. */
export type ConnectionRequestItem = {
  id: string;
  direction: RequestDirection;
  profile: PersonProfile | null;
  invitationEmailAddress: string | null;
  createdAt: string;
};

export type ConnectionsData = { connections: Connection[]; requests: ConnectionRequestItem[] };

export type RowAction = 'accept' | 'refuse' | 'cancel' | 'remove';

export type RowActionInput = { id: string };
export type SearchInput = { query: string };
/** Spec 000 §3: a request carries `to` and the address; an invitation (nobody found) has no `to`. */
export type AddConnectionInput = { to: string | null; invitationEmailAddress: string };

export type ConnectionsContext = {
  connections: Connection[];
  requests: ConnectionRequestItem[];
  errorCode: string | null;
  action: RowAction | null;
  actionId: string | null;
  actionErrorCode: string | null;
  query: string;
  result: PersonProfile | null;
  addErrorCode: string | null;
};

export type ConnectionsEvent =
  | { type: 'connections.reload' }
  | { type: 'request.accept'; requestId: string }
  | { type: 'request.refuse'; requestId: string }
  | { type: 'request.cancel'; requestId: string }
  | { type: 'connection.remove'; connectionId: string }
  | { type: 'remove.confirm' }
  | { type: 'remove.dismiss' }
  | { type: 'action.dismissError' }
  | { type: 'add.open' }
  | { type: 'add.close' }
  | { type: 'add.queryChanged'; query: string }
  | { type: 'add.submit' };

export const SEARCH_DEBOUNCE_MS = 1_000;
/** Spec 000 §5: the search runs only for more than 2 characters. */
export const SEARCH_MIN_LENGTH = 3;

const EMAIL_ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isSearchable(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_LENGTH;
}

/** The people already connected or asked: the search must not offer them again. */
export function ignoredIdsOf(context: Pick<ConnectionsContext, 'connections' | 'requests'>): Set<string> {
  return new Set([
    ...context.connections.map((connection) => connection.profile.id),
    ...context.requests.flatMap((request) => (request.profile ? [request.profile.id] : [])),
  ]);
}

/** Spec 000 §5: only the first result that is not ignored is shown. */
export function firstOffered(
  results: readonly PersonProfile[],
  ignoredIds: Set<string>,
): PersonProfile | null {
  return results.find((profile) => !ignoredIds.has(profile.id)) ?? null;
}

/** A well-formed address that is not already a connection's, a request's or an invitation's. */
export function isInvitable(
  query: string,
  context: Pick<ConnectionsContext, 'connections' | 'requests'>,
): boolean {
  const address = query.trim().toLowerCase();
  if (!EMAIL_ADDRESS.test(address)) return false;
  const known = [
    ...context.connections.map((connection) => connection.profile.emailAddress),
    ...context.requests.flatMap((request) => [
      request.profile?.emailAddress ?? '',
      request.invitationEmailAddress ?? '',
    ]),
  ];
  return !known.some((email) => email.toLowerCase() === address);
}

const dataOfOutput = ({ event }: { event: { output: ConnectionsData } }) => event.output;
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
const queryOfEvent = ({ event }: { event: { query: string } }) => ({ query: event.query });

type Args = { context: ConnectionsContext };

function actionInput({ context }: Args): RowActionInput {
  if (!context.actionId) throw new Error('a row action needs an id');
  return { id: context.actionId };
}

const searchInput = ({ context }: Args): SearchInput => ({ query: context.query.trim() });
const addInput = ({ context }: Args): AddConnectionInput =>
  context.result
    ? { to: context.result.id, invitationEmailAddress: context.result.emailAddress }
    : { to: null, invitationEmailAddress: context.query.trim() };

const ROW_EVENTS = {
  'request.accept': {
    guard: { type: 'isInboundRequest', params: ({ event }: { event: { requestId: string } }) => event },
    target: '#connections.row.running.accept',
    actions: {
      type: 'keepAction',
      params: ({ event }: { event: { requestId: string } }) => ({
        action: 'accept' as const,
        id: event.requestId,
      }),
    },
  },
  'request.refuse': {
    guard: { type: 'isInboundRequest', params: ({ event }: { event: { requestId: string } }) => event },
    target: '#connections.row.running.refuse',
    actions: {
      type: 'keepAction',
      params: ({ event }: { event: { requestId: string } }) => ({
        action: 'refuse' as const,
        id: event.requestId,
      }),
    },
  },
  'request.cancel': {
    guard: { type: 'isOutboundRequest', params: ({ event }: { event: { requestId: string } }) => event },
    target: '#connections.row.running.cancel',
    actions: {
      type: 'keepAction',
      params: ({ event }: { event: { requestId: string } }) => ({
        action: 'cancel' as const,
        id: event.requestId,
      }),
    },
  },
  'connection.remove': {
    guard: {
      type: 'isListedConnection',
      params: ({ event }: { event: { connectionId: string } }) => event,
    },
    target: '#connections.row.confirmingRemove',
    actions: {
      type: 'keepAction',
      params: ({ event }: { event: { connectionId: string } }) => ({
        action: 'remove' as const,
        id: event.connectionId,
      }),
    },
  },
} as const;

// A request answered changes both lists and the inbound count of the sidebar badge.
const ANSWERED = {
  target: '#connections.row.idle',
  actions: ['forgetAction', 'refreshProfile', 'reloadList'],
} as const;
const CHANGED = { target: '#connections.row.idle', actions: ['forgetAction', 'reloadList'] } as const;
const ROW_FAILED = {
  target: '#connections.row.failed',
  actions: { type: 'rememberActionError', params: codeOfError },
} as const;

const QUERY_CHANGED = [
  {
    guard: { type: 'isSearchable', params: queryOfEvent },
    target: '#connections.add.open.form.debouncing',
    reenter: true,
    actions: { type: 'keepQuery', params: queryOfEvent },
  },
  { target: '#connections.add.open.form.idle', actions: { type: 'keepQuery', params: queryOfEvent } },
] as const;

export const connectionsMachine = setup({
  types: {
    context: {} as ConnectionsContext,
    events: {} as ConnectionsEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchConnections: fromPromise<ConnectionsData>(async () => {
      throw new Error('fetchConnections not provided');
    }),
    acceptRequest: fromPromise<void, RowActionInput>(async () => {
      throw new Error('acceptRequest not provided');
    }),
    refuseRequest: fromPromise<void, RowActionInput>(async () => {
      throw new Error('refuseRequest not provided');
    }),
    cancelRequest: fromPromise<void, RowActionInput>(async () => {
      throw new Error('cancelRequest not provided');
    }),
    removeConnection: fromPromise<void, RowActionInput>(async () => {
      throw new Error('removeConnection not provided');
    }),
    searchProfiles: fromPromise<PersonProfile[], SearchInput>(async () => {
      throw new Error('searchProfiles not provided');
    }),
    addConnection: fromPromise<void, AddConnectionInput>(async () => {
      throw new Error('addConnection not provided');
    }),
  },
  actions: {
    refreshProfile: () => {},
    openModal: (_, _params: { name: ModalName }) => {},
    closeModal: () => {},
    reloadList: raise({ type: 'connections.reload' }),
    keepData: assign((_, params: ConnectionsData) => ({
      connections: params.connections,
      requests: params.requests,
      errorCode: null,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    keepAction: assign((_, params: { action: RowAction; id: string }) => ({
      action: params.action,
      actionId: params.id,
      actionErrorCode: null,
    })),
    forgetAction: assign({ action: null, actionId: null, actionErrorCode: null }),
    rememberActionError: assign((_, params: { code: string }) => ({ actionErrorCode: params.code })),
    resetAdd: assign({ query: '', result: null, addErrorCode: null }),
    keepQuery: assign((_, params: { query: string }) => ({
      query: params.query,
      result: null,
      addErrorCode: null,
    })),
    keepResult: assign((_, params: { result: PersonProfile | null }) => ({ result: params.result })),
    rememberAddError: assign((_, params: { code: string }) => ({ addErrorCode: params.code })),
  },
  guards: {
    hasNoConnections: (_, params: ConnectionsData) => params.connections.length === 0,
    isInboundRequest: ({ context }, params: { requestId: string }) =>
      context.requests.some((request) => request.id === params.requestId && request.direction === 'inbound'),
    isOutboundRequest: ({ context }, params: { requestId: string }) =>
      context.requests.some((request) => request.id === params.requestId && request.direction === 'outbound'),
    isListedConnection: ({ context }, params: { connectionId: string }) =>
      context.connections.some((connection) => connection.id === params.connectionId),
    isSearchable: (_, params: { query: string }) => isSearchable(params.query),
    hasOffer: (_, params: { result: PersonProfile | null }) => params.result !== null,
    isInvitable: ({ context }) => isInvitable(context.query, context),
  },
  delays: { SEARCH_DEBOUNCE: SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'connections',
  type: 'parallel',
  context: {
    connections: [],
    requests: [],
    errorCode: null,
    action: null,
    actionId: null,
    actionErrorCode: null,
    query: '',
    result: null,
    addErrorCode: null,
  },
  states: {
    list: {
      initial: 'loading',
      on: { 'connections.reload': { target: '.loading', reenter: true } },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'fetchConnections',
            src: 'fetchConnections',
            onDone: [
              {
                guard: { type: 'hasNoConnections', params: dataOfOutput },
                target: 'empty',
                actions: { type: 'keepData', params: dataOfOutput },
              },
              { target: 'loaded', actions: { type: 'keepData', params: dataOfOutput } },
            ],
            onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
          },
        },
        loaded: {},
        empty: {},
        failed: { tags: ['error'] },
      },
    },
    row: {
      initial: 'idle',
      states: {
        idle: { on: ROW_EVENTS },
        confirmingRemove: {
          on: {
            'remove.confirm': 'running.remove',
            'remove.dismiss': { target: 'idle', actions: 'forgetAction' },
          },
        },
        running: {
          tags: ['busy'],
          initial: 'accept',
          states: {
            accept: {
              invoke: {
                id: 'acceptRequest',
                src: 'acceptRequest',
                input: actionInput,
                onDone: ANSWERED,
                onError: ROW_FAILED,
              },
            },
            refuse: {
              invoke: {
                id: 'refuseRequest',
                src: 'refuseRequest',
                input: actionInput,
                onDone: ANSWERED,
                onError: ROW_FAILED,
              },
            },
            cancel: {
              invoke: {
                id: 'cancelRequest',
                src: 'cancelRequest',
                input: actionInput,
                onDone: CHANGED,
                onError: ROW_FAILED,
              },
            },
            remove: {
              invoke: {
                id: 'removeConnection',
                src: 'removeConnection',
                input: actionInput,
                onDone: CHANGED,
                onError: ROW_FAILED,
              },
            },
          },
        },
        failed: {
          tags: ['error'],
          on: { ...ROW_EVENTS, 'action.dismissError': { target: 'idle', actions: 'forgetAction' } },
        },
      },
    },
    add: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'add.open': {
              target: 'open',
              actions: ['resetAdd', { type: 'openModal', params: { name: 'addConnection' } }],
            },
          },
        },
        open: {
          initial: 'form',
          on: { 'add.close': { target: 'closed', actions: ['closeModal', 'resetAdd'] } },
          states: {
            form: {
              initial: 'idle',
              on: { 'add.queryChanged': QUERY_CHANGED },
              states: {
                idle: {},
                debouncing: { after: { SEARCH_DEBOUNCE: 'searching' } },
                searching: {
                  invoke: {
                    id: 'searchProfiles',
                    src: 'searchProfiles',
                    input: searchInput,
                    onDone: [
                      {
                        guard: {
                          type: 'hasOffer',
                          params: ({ context, event }) => ({
                            result: firstOffered(event.output, ignoredIdsOf(context)),
                          }),
                        },
                        target: 'found',
                        actions: {
                          type: 'keepResult',
                          params: ({ context, event }) => ({
                            result: firstOffered(event.output, ignoredIdsOf(context)),
                          }),
                        },
                      },
                      { target: 'notFound' },
                    ],
                    onError: {
                      target: 'searchFailed',
                      actions: { type: 'rememberAddError', params: codeOfError },
                    },
                  },
                },
                found: { on: { 'add.submit': '#connections.add.open.sending' } },
                notFound: {
                  on: { 'add.submit': { guard: 'isInvitable', target: '#connections.add.open.sending' } },
                },
                searchFailed: { tags: ['error'] },
                sendFailed: { tags: ['error'], on: { 'add.submit': '#connections.add.open.sending' } },
              },
            },
            sending: {
              tags: ['busy'],
              invoke: {
                id: 'addConnection',
                src: 'addConnection',
                input: addInput,
                onDone: {
                  target: '#connections.add.closed',
                  actions: ['closeModal', 'resetAdd', 'reloadList'],
                },
                onError: {
                  target: 'form.sendFailed',
                  actions: { type: 'rememberAddError', params: codeOfError },
                },
              },
            },
          },
        },
      },
    },
  },
});
