// The details side panel beside a document list, and the participants of the document page (spec 000
// §2, §4 "Participant states"): follows the list's selection (none, one, several), loads the selected
// document and, for a sign flow, its reviewers and signatories. Started with the selected ids as input,
// stopped with the panel; the view sends `selection.changed` whenever the list's selection changes.
import { assign, fromPromise, raise, setup, type EventObject } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode, type DocumentResource } from './types.ts';

type Schemas = components['schemas'];

export type ParticipantRole = 'reviewer' | 'signatory';

/** A reviewer or signatory as the panel lists them; dates only for signatories. */
export type Participant = {
  id: string;
  role: ParticipantRole;
  fullName: string | null;
  emailAddress: string;
  state: Schemas['SignatoryState'] | Schemas['ReviewerState'];
  signedAt: string | null;
  refusedAt: string | null;
};

/** `GET /documents/{id}/sign_flow` as the fetchSignFlow actor resolves it, each list in flow order. */
export type SignFlowParticipants = { reviewers: Participant[]; signatories: Participant[] };

export type DocumentDetailsInput = { selectedIds: string[] };

export type DocumentDetailsContext = {
  selectedIds: string[];
  document: DocumentResource | null;
  participants: SignFlowParticipants | null;
  errorCode: string | null;
  participantsErrorCode: string | null;
};

export type DocumentDetailsEvent = { type: 'selection.changed'; ids: string[] } | { type: 'details.reload' };

const idsOfEvent = ({ event }: { event: { ids: string[] } }) => ({ ids: event.ids });
const documentOfOutput = ({ event }: { event: { output: DocumentResource } }) => ({ document: event.output });
const participantsOfOutput = ({ event }: { event: { output: SignFlowParticipants } }) => ({
  participants: event.output,
});
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

function onlyId(context: DocumentDetailsContext): string {
  return context.selectedIds[0] ?? '';
}

/** The start event carries the input; the root's entry replays its ids as a first selection. */
function inputIdsOf(event: EventObject): string[] {
  const input = (event as { input?: Partial<DocumentDetailsInput> }).input;
  return Array.isArray(input?.selectedIds) ? input.selectedIds : [];
}

function sameIds(left: string[], right: string[]): boolean {
  return left.length === right.length && left.every((id, index) => right[index] === id);
}

// What a new selection leads to from every state but `none` (which has no empty selection to leave).
const SELECT = [
  { guard: { type: 'isSameSelection', params: idsOfEvent } },
  {
    guard: { type: 'isNoSelection', params: idsOfEvent },
    target: '#documentDetails.none',
    actions: { type: 'select', params: idsOfEvent },
  },
  {
    guard: { type: 'isOneSelected', params: idsOfEvent },
    target: '#documentDetails.loading',
    reenter: true,
    actions: { type: 'select', params: idsOfEvent },
  },
  { target: '#documentDetails.several', actions: { type: 'select', params: idsOfEvent } },
] as const;

export const documentDetailsMachine = setup({
  types: {
    context: {} as DocumentDetailsContext,
    events: {} as DocumentDetailsEvent,
    input: {} as DocumentDetailsInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchDocument: fromPromise<DocumentResource, { documentId: string }>(async () => {
      throw new Error('fetchDocument not provided');
    }),
    fetchSignFlow: fromPromise<SignFlowParticipants, { documentId: string }>(async () => {
      throw new Error('fetchSignFlow not provided');
    }),
  },
  actions: {
    applyInput: raise(({ event }) => ({ type: 'selection.changed' as const, ids: inputIdsOf(event) })),
    select: assign((_, params: { ids: string[] }) => ({
      selectedIds: params.ids,
      document: null,
      participants: null,
      errorCode: null,
      participantsErrorCode: null,
    })),
    keepDocument: assign((_, params: { document: DocumentResource }) => ({
      document: params.document,
      participants: null,
      errorCode: null,
      participantsErrorCode: null,
    })),
    keepParticipants: assign((_, params: { participants: SignFlowParticipants }) => ({
      participants: params.participants,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    rememberParticipantsError: assign((_, params: { code: string }) => ({
      participantsErrorCode: params.code,
    })),
  },
  guards: {
    isSameSelection: ({ context }, params: { ids: string[] }) => sameIds(context.selectedIds, params.ids),
    isNoSelection: (_, params: { ids: string[] }) => params.ids.length === 0,
    isOneSelected: (_, params: { ids: string[] }) => params.ids.length === 1,
    isSignFlow: (_, params: { document: DocumentResource }) => params.document.attributes.isSignFlow,
  },
}).createMachine({
  id: 'documentDetails',
  context: {
    selectedIds: [],
    document: null,
    participants: null,
    errorCode: null,
    participantsErrorCode: null,
  },
  // The root is entered once: its entry turns the input into the first selection (none, one or several).
  entry: 'applyInput',
  initial: 'none',
  states: {
    // Nothing is selected here, so an empty selection is the same one: only one or several lead on.
    none: {
      on: {
        'selection.changed': [
          {
            guard: { type: 'isOneSelected', params: idsOfEvent },
            target: 'loading',
            actions: { type: 'select', params: idsOfEvent },
          },
          {
            guard: { type: 'isNoSelection', params: idsOfEvent },
          },
          { target: 'several', actions: { type: 'select', params: idsOfEvent } },
        ],
      },
    },
    several: { on: { 'selection.changed': SELECT } },
    loading: {
      tags: ['busy'],
      on: { 'selection.changed': SELECT },
      invoke: {
        id: 'fetchDocument',
        src: 'fetchDocument',
        input: ({ context }) => ({ documentId: onlyId(context) }),
        onDone: [
          {
            guard: { type: 'isSignFlow', params: documentOfOutput },
            target: 'one.loadingParticipants',
            actions: { type: 'keepDocument', params: documentOfOutput },
          },
          { target: 'one', actions: { type: 'keepDocument', params: documentOfOutput } },
        ],
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    one: {
      initial: 'withoutSignFlow',
      on: { 'selection.changed': SELECT, 'details.reload': 'loading' },
      states: {
        withoutSignFlow: {},
        loadingParticipants: {
          invoke: {
            id: 'fetchSignFlow',
            src: 'fetchSignFlow',
            input: ({ context }) => ({ documentId: onlyId(context) }),
            onDone: {
              target: 'participants',
              actions: { type: 'keepParticipants', params: participantsOfOutput },
            },
            onError: {
              target: 'participantsFailed',
              actions: { type: 'rememberParticipantsError', params: codeOfError },
            },
          },
        },
        participants: {},
        participantsFailed: {},
      },
    },
    failed: {
      tags: ['error'],
      on: { 'selection.changed': SELECT, 'details.reload': 'loading' },
    },
  },
});
