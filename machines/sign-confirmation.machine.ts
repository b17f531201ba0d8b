// The sign confirmation dialog (spec 000 §4 "Document version polling", §8, §9; spec 001 §2): invoked by the
// signing machine once the sign call answered a pending document version. While the user confirms in the
// identity app it polls the version every 5 s (`pollInterval`), and backs off (`retryBackoff`, growing,
// capped) while the network fails instead of giving up; it pauses while the tab is hidden and checks at
// once when it is shown again (the `watchVisibility` actor reports both). 'Resend Confirmation' is
// disabled for 5 s after use (`resendCooldown`). The version ends signed (confirmed), refused by the plan or
// by the PDF (failed), or denied / cancelled; the user closes the dialog, and the output tells the signing
// machine what to do next.
import { assign, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import type { DocumentVersionState } from './signing-rules';
import { toApiFailure, toErrorCode } from './types.ts';

export type SignConfirmationInput = { versionId: string; confirmationUrl: string };
export type FetchVersionInput = { versionId: string };

/** How the dialog ended: closing while still pending is `abandoned` (the identity app may still confirm). */
export type ConfirmationOutcome = 'confirmed' | 'failed' | 'cancelled' | 'abandoned';
export type SignConfirmationOutput = { outcome: ConfirmationOutcome };

export type SignConfirmationContext = SignConfirmationInput & {
  /** Polls that failed in a row on the network; sets the backoff, capped at RETRY_BACKOFF_MS.length. */
  failures: number;
  errorCode: string | null;
  resendErrorCode: string | null;
  outcome: ConfirmationOutcome;
};

export type SignConfirmationEvent =
  | { type: 'visibility.hidden' }
  | { type: 'visibility.visible' }
  | { type: 'resend.request' }
  | { type: 'dialog.close' };

/** Spec 000 §9: the confirmation poll every 5 s, and the resend button disabled 5 s after use. */
export const POLL_INTERVAL_MS = 5_000;
export const RESEND_COOLDOWN_MS = 5_000;
/** Waits after 1, 2, 3, 4 and 5 or more network failures in a row. */
export const RETRY_BACKOFF_MS = [5_000, 10_000, 20_000, 40_000, 60_000] as const;

export function retryDelayOf(failures: number): number {
  const index = Math.min(Math.max(failures, 1), RETRY_BACKOFF_MS.length) - 1;
  return RETRY_BACKOFF_MS[index] ?? POLL_INTERVAL_MS;
}

/** A poll that never reached the API, or a server error: worth trying again later. */
export function isTransientFailure(error: unknown): boolean {
  const failure = toApiFailure(error);
  return failure.code === 'network' || failure.code === 'server' || (failure.status ?? 0) >= 500;
}

const stateIs =
  (...states: DocumentVersionState[]) =>
  (_: unknown, params: { state: DocumentVersionState }) =>
    states.includes(params.state);

const versionState = ({ event }: { event: { output: DocumentVersionState } }) => ({ state: event.output });

export const signConfirmationMachine = setup({
  types: {
    context: {} as SignConfirmationContext,
    events: {} as SignConfirmationEvent,
    input: {} as SignConfirmationInput,
    output: {} as SignConfirmationOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    fetchVersion: fromPromise<DocumentVersionState, FetchVersionInput>(async () => {
      throw new Error('fetchVersion not provided');
    }),
    resendNotification: fromPromise<void, FetchVersionInput>(async () => {
      throw new Error('resendNotification not provided');
    }),
    watchVisibility: fromCallback<EventObject>(() => {
      throw new Error('watchVisibility not provided');
    }),
  },
  actions: {
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    countFailure: assign(({ context }) => ({
      failures: Math.min(context.failures + 1, RETRY_BACKOFF_MS.length),
    })),
    resetFailures: assign({ failures: 0 }),
    rememberResendError: assign((_, params: { code: string }) => ({ resendErrorCode: params.code })),
    clearResendError: assign({ resendErrorCode: null }),
    setOutcome: assign((_, params: { outcome: ConfirmationOutcome }) => ({ outcome: params.outcome })),
  },
  guards: {
    isSigned: stateIs('signed'),
    isOverPlanLimit: stateIs('sign_limit_exceeded'),
    isPresignError: stateIs('presign_error'),
    isCancelled: stateIs('denied', 'cancelled'),
    isTransient: (_, params: { error: unknown }) => isTransientFailure(params.error),
    isTooSoon: (_, params: { error: unknown }) => toApiFailure(params.error).status === 429,
  },
  delays: {
    pollInterval: POLL_INTERVAL_MS,
    retryBackoff: ({ context }) => retryDelayOf(context.failures),
    resendCooldown: RESEND_COOLDOWN_MS,
  },
}).createMachine({
  id: 'signConfirmation',
  context: ({ input }) => ({
    versionId: input.versionId,
    confirmationUrl: input.confirmationUrl,
    failures: 0,
    errorCode: null,
    resendErrorCode: null,
    outcome: 'abandoned',
  }),
  initial: 'waiting',
  output: ({ context }) => ({ outcome: context.outcome }),
  states: {
    waiting: {
      type: 'parallel',
      invoke: { id: 'watchVisibility', src: 'watchVisibility' },
      states: {
        poll: {
          // The first check runs at once: the dialog learns the version's state without waiting 5 s.
          initial: 'checking',
          on: {
            'dialog.close': {
              target: '#signConfirmation.closed',
              actions: { type: 'setOutcome', params: { outcome: 'abandoned' } },
            },
          },
          states: {
            scheduled: {
              after: { pollInterval: 'checking' },
              on: { 'visibility.hidden': 'paused' },
            },
            checking: {
              invoke: {
                id: 'fetchVersion',
                src: 'fetchVersion',
                input: ({ context }) => ({ versionId: context.versionId }),
                onDone: [
                  {
                    guard: { type: 'isSigned', params: versionState },
                    target: '#signConfirmation.confirmed',
                  },
                  {
                    guard: { type: 'isOverPlanLimit', params: versionState },
                    target: '#signConfirmation.failed',
                    actions: { type: 'rememberError', params: { code: 'sign_limit_exceeded' } },
                  },
                  {
                    guard: { type: 'isPresignError', params: versionState },
                    target: '#signConfirmation.failed',
                    actions: { type: 'rememberError', params: { code: 'presign_error' } },
                  },
                  {
                    guard: { type: 'isCancelled', params: versionState },
                    target: '#signConfirmation.cancelled',
                  },
                  { target: 'scheduled', actions: 'resetFailures' },
                ],
                onError: [
                  {
                    guard: { type: 'isTransient', params: ({ event }) => ({ error: event.error }) },
                    target: 'backingOff',
                    actions: 'countFailure',
                  },
                  {
                    target: '#signConfirmation.failed',
                    actions: {
                      type: 'rememberError',
                      params: ({ event }) => ({ code: toErrorCode(event.error) }),
                    },
                  },
                ],
              },
              on: { 'visibility.hidden': 'paused' },
            },
            backingOff: {
              after: { retryBackoff: 'checking' },
              on: { 'visibility.hidden': 'paused' },
            },
            paused: {
              on: { 'visibility.visible': 'checking' },
            },
          },
        },
        resend: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'resend.request': 'sending' },
            },
            sending: {
              tags: ['busy'],
              entry: 'clearResendError',
              invoke: {
                id: 'resendNotification',
                src: 'resendNotification',
                input: ({ context }) => ({ versionId: context.versionId }),
                onDone: 'coolingDown',
                onError: [
                  {
                    guard: { type: 'isTooSoon', params: ({ event }) => ({ error: event.error }) },
                    target: 'coolingDown',
                  },
                  {
                    target: 'idle',
                    actions: {
                      type: 'rememberResendError',
                      params: ({ event }) => ({ code: toErrorCode(event.error) }),
                    },
                  },
                ],
              },
            },
            coolingDown: {
              after: { resendCooldown: 'idle' },
            },
          },
        },
      },
    },
    confirmed: {
      on: {
        'dialog.close': {
          target: 'closed',
          actions: { type: 'setOutcome', params: { outcome: 'confirmed' } },
        },
      },
    },
    failed: {
      tags: ['error'],
      on: {
        'dialog.close': { target: 'closed', actions: { type: 'setOutcome', params: { outcome: 'failed' } } },
      },
    },
    cancelled: {
      on: {
        'dialog.close': {
          target: 'closed',
          actions: { type: 'setOutcome', params: { outcome: 'cancelled' } },
        },
      },
    },
    closed: { type: 'final' },
  },
});
