// The sign screen (/app/sign/{id}, spec 001 §2 "Sign screen", §4 "Signing", §5): one actor over the form,
// its placement page (/signature) and its preview (/signature-preview), started by the route and stopped
// when the user leaves it, so the sign state resets on leaving. It loads the document and the smart cards
// (a user who cannot sign is sent to the document page), keeps the form (card, location, reason, where the
// signature goes), finds the location on request, sends the sign call and then invokes the confirmation
// dialog (sign-confirmation.machine.ts). The form's rules live in signing-rules.ts.
import { assign, fromPromise, setup } from 'xstate';
import { signConfirmationMachine, type SignConfirmationOutput } from './sign-confirmation.machine.ts';
import {
  baseMessagesOf,
  isPlacementMissing,
  signBlockers,
  signRequestOf,
  type LoadSignScreenInput,
  type PagePlacement,
  type PendingSignature,
  type SignatureMode,
  type SignaturePosition,
  type SignDocumentInput,
  type SignFields,
  type SignScreenData,
} from './signing-rules.ts';
import { toErrorCode } from './types.ts';

export type SigningInput = {
  documentId: string;
  emailAddress: string;
  /** The profile's default signing location (settings), prefilled. */
  defaultLocation: string;
};

export type SigningContext = SignFields & {
  documentId: string;
  emailAddress: string;
  errorCode: string | null;
  /** `validations.base` of a refused sign call: the server's own sentences, shown joined. */
  errorMessages: string[];
  locateErrorCode: string | null;
  /** Set by a sign attempt with a field in error: the fields then show their messages. */
  isValidationShown: boolean;
  pending: PendingSignature | null;
};

export type SigningEvent =
  | { type: 'screen.retry' }
  | { type: 'card.changed'; cardId: string }
  | { type: 'location.changed'; location: string }
  | { type: 'location.locate' }
  | { type: 'reason.changed'; reason: string }
  | { type: 'mode.changed'; mode: SignatureMode }
  | { type: 'pagePosition.changed'; position: SignaturePosition }
  | { type: 'afterPage.changed'; text: string }
  | { type: 'placement.saved'; placement: PagePlacement | null }
  | { type: 'sign.submit' }
  | { type: 'form.cancel' };

// Every state of the form but `locating` takes these; there, typing a location ends the lookup.
const LOCATION_EVENTS = {
  'location.locate': 'locating',
  'location.changed': {
    actions: {
      type: 'setLocation',
      params: ({ event }: { event: { location: string } }) => event,
    },
  },
} as const;

const toError = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const signingMachine = setup({
  types: {
    context: {} as SigningContext,
    events: {} as SigningEvent,
    input: {} as SigningInput,
    tags: {} as 'busy' | 'error',
    children: {} as { confirmation: 'confirmSignature' },
  },
  actors: {
    loadSignScreen: fromPromise<SignScreenData, LoadSignScreenInput>(async () => {
      throw new Error('loadSignScreen not provided');
    }),
    locateMe: fromPromise<string>(async () => {
      throw new Error('locateMe not provided');
    }),
    signDocument: fromPromise<PendingSignature, SignDocumentInput>(async () => {
      throw new Error('signDocument not provided');
    }),
    confirmSignature: signConfirmationMachine,
  },
  actions: {
    goToDocument: () => {},
    reportLocationFailure: (_, _params: { code: string }) => {},
    populate: assign((_, params: { data: SignScreenData }) => ({
      document: params.data.document,
      smartCards: params.data.smartCards,
      cardId: params.data.smartCards[0]?.id ?? null,
      assignedPlacement: params.data.assignedPlacement,
      flowSignPageNumber: params.data.flowSignPageNumber,
      errorCode: null,
    })),
    rememberLoadError: assign((_, params: { error: unknown }) => ({ errorCode: toErrorCode(params.error) })),
    setCard: assign((_, params: { cardId: string }) => ({ cardId: params.cardId })),
    setLocation: assign((_, params: { location: string }) => ({ location: params.location })),
    setReason: assign((_, params: { reason: string }) => ({ reason: params.reason })),
    setMode: assign((_, params: { mode: SignatureMode }) => ({ signatureMode: params.mode })),
    setPagePosition: assign((_, params: { position: SignaturePosition }) => ({
      pagePosition: params.position,
    })),
    setAfterPage: assign((_, params: { text: string }) => ({ afterPageText: params.text })),
    setPlacement: assign((_, params: { placement: PagePlacement | null }) => ({
      placement: params.placement,
    })),
    showValidation: assign({ isValidationShown: true }),
    rememberLocateError: assign((_, params: { error: unknown }) => ({
      locateErrorCode: toErrorCode(params.error),
    })),
    rememberSignError: assign((_, params: { error: unknown }) => ({
      errorCode: toErrorCode(params.error),
      errorMessages: baseMessagesOf(params.error),
    })),
    clearSignError: assign({ errorCode: null, errorMessages: [] }),
    keepPending: assign((_, params: { pending: PendingSignature }) => ({ pending: params.pending })),
    forgetPending: assign({ pending: null }),
  },
  guards: {
    cannotSign: (_, params: { data: SignScreenData }) => !params.data.document.attributes.currentUserCanSign,
    canSign: ({ context }) => signBlockers(context).length === 0,
    isPlacementMissing: ({ context }) => isPlacementMissing(context),
    isCardKnown: ({ context }, params: { cardId: string }) =>
      context.smartCards.some((card) => card.id === params.cardId),
    offersPlacement: ({ context }) => context.document?.attributes.isSignFlow === false,
    endsAtDocument: (_, params: SignConfirmationOutput) =>
      params.outcome === 'confirmed' || params.outcome === 'abandoned',
  },
}).createMachine({
  id: 'signing',
  context: ({ input }) => ({
    documentId: input.documentId,
    emailAddress: input.emailAddress,
    document: null,
    smartCards: [],
    cardId: null,
    location: input.defaultLocation,
    reason: '',
    signatureMode: 'inline',
    placement: null,
    pagePosition: 'last',
    afterPageText: '',
    assignedPlacement: null,
    flowSignPageNumber: null,
    errorCode: null,
    errorMessages: [],
    locateErrorCode: null,
    isValidationShown: false,
    pending: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSignScreen',
        src: 'loadSignScreen',
        input: ({ context }) => ({ documentId: context.documentId, emailAddress: context.emailAddress }),
        onDone: [
          {
            guard: { type: 'cannotSign', params: ({ event }) => ({ data: event.output }) },
            target: 'left',
            actions: 'goToDocument',
          },
          {
            target: 'editing',
            actions: { type: 'populate', params: ({ event }) => ({ data: event.output }) },
          },
        ],
        onError: { target: 'loadFailed', actions: { type: 'rememberLoadError', params: toError } },
      },
    },
    loadFailed: {
      tags: ['error'],
      on: {
        'screen.retry': 'loading',
        'form.cancel': { target: 'left', actions: 'goToDocument' },
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'card.changed': {
          guard: { type: 'isCardKnown', params: ({ event }) => event },
          actions: { type: 'setCard', params: ({ event }) => event },
        },
        'reason.changed': { actions: { type: 'setReason', params: ({ event }) => event } },
        'mode.changed': {
          guard: 'offersPlacement',
          actions: { type: 'setMode', params: ({ event }) => event },
        },
        'pagePosition.changed': {
          guard: 'offersPlacement',
          actions: { type: 'setPagePosition', params: ({ event }) => event },
        },
        'afterPage.changed': {
          guard: 'offersPlacement',
          actions: { type: 'setAfterPage', params: ({ event }) => event },
        },
        'placement.saved': {
          guard: 'offersPlacement',
          target: '.idle',
          actions: { type: 'setPlacement', params: ({ event }) => event },
        },
        'sign.submit': [
          { guard: 'canSign', target: 'submitting' },
          { guard: 'isPlacementMissing', target: '.notPlaced', actions: 'showValidation' },
          { actions: 'showValidation' },
        ],
        'form.cancel': { target: 'left', actions: 'goToDocument' },
      },
      states: {
        idle: { on: LOCATION_EVENTS },
        notPlaced: { tags: ['error'], on: LOCATION_EVENTS },
        signFailed: { tags: ['error'], on: LOCATION_EVENTS },
        locating: {
          invoke: {
            id: 'locateMe',
            src: 'locateMe',
            onDone: {
              target: 'idle',
              actions: { type: 'setLocation', params: ({ event }) => ({ location: event.output }) },
            },
            onError: {
              target: 'locateFailed',
              actions: [
                { type: 'rememberLocateError', params: toError },
                {
                  type: 'reportLocationFailure',
                  params: ({ event }) => ({ code: toErrorCode(event.error) }),
                },
              ],
            },
          },
          on: {
            'location.changed': {
              target: 'idle',
              actions: { type: 'setLocation', params: ({ event }) => event },
            },
          },
        },
        locateFailed: { tags: ['error'], on: LOCATION_EVENTS },
      },
    },
    submitting: {
      tags: ['busy'],
      entry: 'clearSignError',
      invoke: {
        id: 'signDocument',
        src: 'signDocument',
        input: ({ context }) => ({ documentId: context.documentId, body: signRequestOf(context) }),
        onDone: {
          target: 'confirming',
          actions: { type: 'keepPending', params: ({ event }) => ({ pending: event.output }) },
        },
        onError: { target: 'editing.signFailed', actions: { type: 'rememberSignError', params: toError } },
      },
    },
    confirming: {
      invoke: {
        id: 'confirmation',
        src: 'confirmSignature',
        input: ({ context }) => ({
          versionId: context.pending?.versionId ?? '',
          confirmationUrl: context.pending?.confirmationUrl ?? '',
        }),
        onDone: [
          {
            guard: { type: 'endsAtDocument', params: ({ event }) => event.output },
            target: 'left',
            actions: 'goToDocument',
          },
          { target: 'editing', actions: 'forgetPending' },
        ],
      },
    },
    left: { type: 'final' },
  },
});
