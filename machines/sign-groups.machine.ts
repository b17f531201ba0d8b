// The sign groups tab (/app/connections/groups), two parallel regions. `list`: the user's groups (a data
// error with a retry; `groups.reload` reloads from any state). `dialog`: the one modal the tab can show,
// the editor or the delete confirmation (spec 000 §5, §8). The editor loads the group being edited
// (error-loading), then the user's connections, which the member search runs over locally (the population
// error); a save the server refuses keeps every field as typed and, for a member who stopped being a
// connection, names them (`blockedIds`). The `dialog` region is the one record of which modal is open: its
// transitions tell the shell's modal actor (`openModal`, `closeModal`), so nothing mirrors one into the other.
import { assign, fromPromise, raise, setup } from 'xstate';
import type { PersonProfile } from './connections.machine';
import type { ModalName } from './modal.machine';
import { toApiFailure, toErrorCode } from './types.ts';

export type SignGroup = {
  id: string;
  name: string;
  createdAt: string;
  members: PersonProfile[];
};

export type SignGroupIdInput = { groupId: string };
export type SaveSignGroupInput = { groupId: string | null; name: string; memberIds: string[] };

export type SignGroupsContext = {
  groups: SignGroup[];
  errorCode: string | null;
  groupId: string | null;
  name: string;
  memberIds: string[];
  /** Members as they were known when added (the group's own, then the connections picked). */
  members: PersonProfile[];
  query: string;
  isNameTouched: boolean;
  isMembersTouched: boolean;
  connections: PersonProfile[];
  dialogErrorCode: string | null;
  blockedIds: string[];
};

export type SignGroupsEvent =
  | { type: 'groups.reload' }
  | { type: 'group.create' }
  | { type: 'group.edit'; groupId: string }
  | { type: 'group.delete'; groupId: string }
  | { type: 'editor.nameChanged'; name: string }
  | { type: 'editor.queryChanged'; query: string }
  | { type: 'editor.memberAdded'; profileId: string }
  | { type: 'editor.memberRemoved'; profileId: string }
  | { type: 'editor.save' }
  | { type: 'editor.retry' }
  | { type: 'deletion.confirm' }
  | { type: 'dialog.close' };

/** Spec 000 §5: the member search needs more than 2 characters. */
export const MEMBER_SEARCH_MIN_LENGTH = 3;

/** Connections whose e-mail or name holds the query (case-insensitive), members left out. */
export function memberMatches(
  connections: readonly PersonProfile[],
  query: string,
  memberIds: readonly string[],
): PersonProfile[] {
  const needle = query.trim().toLowerCase();
  if (needle.length < MEMBER_SEARCH_MIN_LENGTH) return [];
  return connections.filter(
    (profile) =>
      !memberIds.includes(profile.id) &&
      (profile.emailAddress.toLowerCase().includes(needle) ||
        profile.fullName.toLowerCase().includes(needle)),
  );
}

export function isNameValid(name: string): boolean {
  return name.trim().length > 0;
}

export function canSave(context: Pick<SignGroupsContext, 'name' | 'memberIds'>): boolean {
  return isNameValid(context.name) && context.memberIds.length > 0;
}

/** The members the editor shows, in the order they were added. */
export function membersOf(context: Pick<SignGroupsContext, 'memberIds' | 'members'>): PersonProfile[] {
  return context.memberIds.flatMap((id) => context.members.filter((member) => member.id === id).slice(0, 1));
}

const groupsOfOutput = ({ event }: { event: { output: SignGroup[] } }) => ({ groups: event.output });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
const groupIdOfEvent = ({ event }: { event: { groupId: string } }) => ({ groupId: event.groupId });
const profileIdOfEvent = ({ event }: { event: { profileId: string } }) => ({ profileId: event.profileId });

type Args = { context: SignGroupsContext };

function groupIdInput({ context }: Args): SignGroupIdInput {
  if (!context.groupId) throw new Error('a sign group call needs a group id');
  return { groupId: context.groupId };
}

const saveInput = ({ context }: Args): SaveSignGroupInput => ({
  groupId: context.groupId,
  name: context.name.trim(),
  memberIds: context.memberIds,
});

const FORM_EVENTS = {
  'editor.nameChanged': {
    actions: {
      type: 'keepName',
      params: ({ event }: { event: { name: string } }) => ({ name: event.name }),
    },
  },
  'editor.queryChanged': {
    actions: {
      type: 'keepQuery',
      params: ({ event }: { event: { query: string } }) => ({ query: event.query }),
    },
  },
  'editor.memberAdded': {
    guard: { type: 'isAddableMember', params: profileIdOfEvent },
    actions: { type: 'addMember', params: profileIdOfEvent },
  },
  'editor.memberRemoved': {
    guard: { type: 'isMember', params: profileIdOfEvent },
    actions: { type: 'removeMember', params: profileIdOfEvent },
  },
  'editor.save': { guard: 'canSave', target: '#signGroups.dialog.editor.saving' },
} as const;

const BLANK_EDITOR = {
  groupId: null,
  name: '',
  memberIds: [],
  members: [],
  query: '',
  isNameTouched: false,
  isMembersTouched: false,
  dialogErrorCode: null,
  blockedIds: [],
};

export const signGroupsMachine = setup({
  types: {
    context: {} as SignGroupsContext,
    events: {} as SignGroupsEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchSignGroups: fromPromise<SignGroup[]>(async () => {
      throw new Error('fetchSignGroups not provided');
    }),
    fetchSignGroup: fromPromise<SignGroup, SignGroupIdInput>(async () => {
      throw new Error('fetchSignGroup not provided');
    }),
    fetchMemberCandidates: fromPromise<PersonProfile[]>(async () => {
      throw new Error('fetchMemberCandidates not provided');
    }),
    saveSignGroup: fromPromise<void, SaveSignGroupInput>(async () => {
      throw new Error('saveSignGroup not provided');
    }),
    deleteSignGroup: fromPromise<void, SignGroupIdInput>(async () => {
      throw new Error('deleteSignGroup not provided');
    }),
  },
  actions: {
    openModal: (_, _params: { name: ModalName }) => {},
    closeModal: () => {},
    reloadList: raise({ type: 'groups.reload' }),
    keepGroups: assign((_, params: { groups: SignGroup[] }) => ({ groups: params.groups, errorCode: null })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    blankEditor: assign(BLANK_EDITOR),
    editGroup: assign((_, params: { groupId: string }) => ({ ...BLANK_EDITOR, groupId: params.groupId })),
    keepGroup: assign((_, params: { group: SignGroup }) => ({
      name: params.group.name,
      memberIds: params.group.members.map((member) => member.id),
      members: params.group.members,
      dialogErrorCode: null,
    })),
    keepConnections: assign((_, params: { connections: PersonProfile[] }) => ({
      connections: params.connections,
      dialogErrorCode: null,
    })),
    keepName: assign((_, params: { name: string }) => ({ name: params.name, isNameTouched: true })),
    keepQuery: assign((_, params: { query: string }) => ({ query: params.query })),
    addMember: assign(({ context }, params: { profileId: string }) => {
      const profile = context.connections.find((connection) => connection.id === params.profileId);
      return {
        memberIds: [...context.memberIds, params.profileId],
        members: profile ? [...context.members.filter((m) => m.id !== profile.id), profile] : context.members,
        query: '',
        isMembersTouched: true,
      };
    }),
    removeMember: assign(({ context }, params: { profileId: string }) => ({
      memberIds: context.memberIds.filter((id) => id !== params.profileId),
      isMembersTouched: true,
    })),
    rememberDialogError: assign((_, params: { code: string }) => ({ dialogErrorCode: params.code })),
    rememberSaveError: assign((_, params: { code: string; blockedIds: string[] }) => ({
      dialogErrorCode: params.code,
      blockedIds: params.blockedIds,
    })),
    clearDialogError: assign({ dialogErrorCode: null, blockedIds: [] }),
    forgetDialog: assign(BLANK_EDITOR),
  },
  guards: {
    hasNoGroups: (_, params: { groups: SignGroup[] }) => params.groups.length === 0,
    isListedGroup: ({ context }, params: { groupId: string }) =>
      context.groups.some((group) => group.id === params.groupId),
    isAddableMember: ({ context }, params: { profileId: string }) =>
      !context.memberIds.includes(params.profileId) &&
      context.connections.some((connection) => connection.id === params.profileId),
    isMember: ({ context }, params: { profileId: string }) => context.memberIds.includes(params.profileId),
    canSave: ({ context }) => canSave(context),
  },
}).createMachine({
  id: 'signGroups',
  type: 'parallel',
  context: { groups: [], errorCode: null, connections: [], ...BLANK_EDITOR },
  states: {
    list: {
      initial: 'loading',
      on: { 'groups.reload': { target: '.loading', reenter: true } },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'fetchSignGroups',
            src: 'fetchSignGroups',
            onDone: [
              {
                guard: { type: 'hasNoGroups', params: groupsOfOutput },
                target: 'empty',
                actions: { type: 'keepGroups', params: groupsOfOutput },
              },
              { target: 'loaded', actions: { type: 'keepGroups', params: groupsOfOutput } },
            ],
            onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
          },
        },
        loaded: {},
        empty: {},
        failed: { tags: ['error'] },
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'group.create': {
              target: 'editor.populating',
              actions: ['blankEditor', { type: 'openModal', params: { name: 'signGroupEdit' } }],
            },
            'group.edit': {
              guard: { type: 'isListedGroup', params: groupIdOfEvent },
              target: 'editor.loadingGroup',
              actions: [
                { type: 'editGroup', params: groupIdOfEvent },
                { type: 'openModal', params: { name: 'signGroupEdit' } },
              ],
            },
            'group.delete': {
              guard: { type: 'isListedGroup', params: groupIdOfEvent },
              target: 'deletion.confirming',
              actions: [
                { type: 'editGroup', params: groupIdOfEvent },
                { type: 'openModal', params: { name: 'signGroupDelete' } },
              ],
            },
          },
        },
        editor: {
          initial: 'populating',
          on: { 'dialog.close': { target: 'closed', actions: ['closeModal', 'forgetDialog'] } },
          states: {
            loadingGroup: {
              tags: ['busy'],
              invoke: {
                id: 'fetchSignGroup',
                src: 'fetchSignGroup',
                input: groupIdInput,
                onDone: {
                  target: 'populating',
                  actions: { type: 'keepGroup', params: ({ event }) => ({ group: event.output }) },
                },
                onError: {
                  target: 'loadFailed',
                  actions: { type: 'rememberDialogError', params: codeOfError },
                },
              },
            },
            loadFailed: { tags: ['error'], on: { 'editor.retry': 'loadingGroup' } },
            populating: {
              tags: ['busy'],
              invoke: {
                id: 'fetchMemberCandidates',
                src: 'fetchMemberCandidates',
                onDone: {
                  target: 'form',
                  actions: {
                    type: 'keepConnections',
                    params: ({ event }) => ({ connections: event.output }),
                  },
                },
                onError: {
                  target: 'populationFailed',
                  actions: { type: 'rememberDialogError', params: codeOfError },
                },
              },
            },
            populationFailed: { tags: ['error'], on: { 'editor.retry': 'populating' } },
            form: {
              initial: 'idle',
              on: FORM_EVENTS,
              states: {
                idle: {},
                saveFailed: { tags: ['error'] },
              },
            },
            saving: {
              tags: ['busy'],
              entry: 'clearDialogError',
              invoke: {
                id: 'saveSignGroup',
                src: 'saveSignGroup',
                input: saveInput,
                onDone: {
                  target: '#signGroups.dialog.closed',
                  actions: ['closeModal', 'forgetDialog', 'reloadList'],
                },
                onError: {
                  target: 'form.saveFailed',
                  actions: {
                    type: 'rememberSaveError',
                    params: ({ event }) => {
                      const failure = toApiFailure(event.error);
                      return { code: failure.code, blockedIds: failure.blockedIds ?? [] };
                    },
                  },
                },
              },
            },
          },
        },
        deletion: {
          initial: 'confirming',
          on: { 'dialog.close': { target: 'closed', actions: ['closeModal', 'forgetDialog'] } },
          states: {
            confirming: { on: { 'deletion.confirm': 'deleting' } },
            deleting: {
              tags: ['busy'],
              entry: 'clearDialogError',
              invoke: {
                id: 'deleteSignGroup',
                src: 'deleteSignGroup',
                input: groupIdInput,
                onDone: {
                  target: '#signGroups.dialog.closed',
                  actions: ['closeModal', 'forgetDialog', 'reloadList'],
                },
                onError: {
                  target: 'failed',
                  actions: { type: 'rememberDialogError', params: codeOfError },
                },
              },
            },
            failed: { tags: ['error'], on: { 'deletion.confirm': 'deleting' } },
          },
        },
      },
    },
  },
});
