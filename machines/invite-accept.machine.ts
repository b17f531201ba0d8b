// Accepting an invitation (spec 000 §2 "Invite accept", §8): PATCH /invites/accept, then the first
// document it opens. Any other ending goes to /app/documents with a notice saying why, never to the error
// screen. The notice follows what the server says, and a 404 says nothing more: an unknown invitation,
// someone else's and one whose document is gone all read the same. A 401 is the session's: it sends the
// person to sign in and back to this link, so the machine only stops. Started when the route mounts; it
// ends in a final state either way.
import { assign, fromPromise, setup } from 'xstate';
import { toApiFailure, type ApiFailure } from './types.ts';

export type InviteAcceptInput = { inviteId: string };

export type InviteAcceptContext = {
  inviteId: string;
  /** The document the accepted invitation opens, once known. */
  documentId: string | null;
  /** The API's error code, or the notice's when the call succeeded without a document to open. */
  errorCode: string | null;
};

/** The notices the documents list shows when no document opened. */
export const INVITE_NOT_FOUND = 'invite_not_found';
export const INVITE_FAILED = 'invite_failed';
export const INVITE_NO_DOCUMENT = 'invite_no_document';
export type InviteNotice = typeof INVITE_NOT_FOUND | typeof INVITE_FAILED | typeof INVITE_NO_DOCUMENT;

// A link whose id is not even well formed (400) is as unknown as one the server does not find. Anything
// else (offline, a server error) may pass on another try, and the link in the e-mail still works.
export function inviteNoticeOf(failure: ApiFailure): InviteNotice {
  return failure.status === 404 || failure.status === 400 ? INVITE_NOT_FOUND : INVITE_FAILED;
}

const errorOfEvent = ({ event }: { event: { error: unknown } }) => ({ error: event.error });
const documentOfOutput = ({ event }: { event: { output: string | null } }) => ({
  documentId: event.output ?? '',
});
const codeOfError = ({ event }: { event: { error: unknown } }) => ({
  code: toApiFailure(event.error).code,
});
const noticeOfError = ({ event }: { event: { error: unknown } }) => ({
  notice: inviteNoticeOf(toApiFailure(event.error)),
});

export const inviteAcceptMachine = setup({
  types: {
    context: {} as InviteAcceptContext,
    input: {} as InviteAcceptInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    // Resolves the id of the first document the invitation opens, or null when it opens none.
    acceptInvite: fromPromise<string | null, { inviteId: string }>(async () => {
      throw new Error('acceptInvite not provided');
    }),
  },
  actions: {
    openDocument: (_, _params: { documentId: string }) => {},
    goToDocuments: (_, _params: { notice: InviteNotice }) => {},
    keepDocument: assign((_, params: { documentId: string }) => ({ documentId: params.documentId })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    hasDocument: (_, params: { documentId: string }) => params.documentId !== '',
    isUnauthorized: (_, params: { error: unknown }) => toApiFailure(params.error).status === 401,
  },
}).createMachine({
  id: 'inviteAccept',
  context: ({ input }) => ({ inviteId: input.inviteId, documentId: null, errorCode: null }),
  initial: 'accepting',
  states: {
    accepting: {
      tags: ['busy'],
      invoke: {
        id: 'acceptInvite',
        src: 'acceptInvite',
        input: ({ context }) => ({ inviteId: context.inviteId }),
        onDone: [
          {
            guard: { type: 'hasDocument', params: documentOfOutput },
            target: 'opened',
            actions: [
              { type: 'keepDocument', params: documentOfOutput },
              { type: 'openDocument', params: documentOfOutput },
            ],
          },
          {
            target: 'nothingToOpen',
            actions: [
              { type: 'rememberError', params: { code: INVITE_NO_DOCUMENT } },
              { type: 'goToDocuments', params: { notice: INVITE_NO_DOCUMENT } },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'isUnauthorized', params: errorOfEvent },
            target: 'signedOut',
            actions: { type: 'rememberError', params: codeOfError },
          },
          {
            target: 'failed',
            actions: [
              { type: 'rememberError', params: codeOfError },
              { type: 'goToDocuments', params: noticeOfError },
            ],
          },
        ],
      },
    },
    opened: { type: 'final' },
    nothingToOpen: { type: 'final', tags: ['error'] },
    signedOut: { type: 'final', tags: ['error'] },
    failed: { type: 'final', tags: ['error'] },
  },
});
