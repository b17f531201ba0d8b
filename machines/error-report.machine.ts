// The error screen's "Send report" (spec 001 §2): the caught error goes to the server once the person asks.
// After it is sent the screen thanks them and the button stays disabled; a failed send says so and the
// same button tries again. The send is an injected actor, which adds the route and the version.
import { assign, fromPromise, setup } from 'xstate';
import { toErrorCode } from './types.ts';

export type CaughtError = { message: string; stack: string | null };

export type ErrorReportInput = { error: CaughtError };

export type ErrorReportContext = { error: CaughtError; errorCode: string | null };

export type ErrorReportEvent = { type: 'report.send' };

export const errorReportMachine = setup({
  types: {
    context: {} as ErrorReportContext,
    events: {} as ErrorReportEvent,
    input: {} as ErrorReportInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    sendErrorReport: fromPromise<void, CaughtError>(async () => {
      throw new Error('sendErrorReport not provided');
    }),
  },
  actions: {
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
  },
}).createMachine({
  id: 'errorReport',
  context: ({ input }) => ({ error: input.error, errorCode: null }),
  initial: 'idle',
  states: {
    idle: { on: { 'report.send': 'sending' } },
    sending: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendErrorReport',
        src: 'sendErrorReport',
        input: ({ context }) => context.error,
        onDone: 'sent',
        onError: {
          target: 'failed',
          actions: { type: 'rememberError', params: ({ event }) => ({ code: toErrorCode(event.error) }) },
        },
      },
    },
    failed: { tags: ['error'], on: { 'report.send': 'sending' } },
    sent: { type: 'final' },
  },
});
