import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  INVITE_FAILED,
  INVITE_NO_DOCUMENT,
  INVITE_NOT_FOUND,
  inviteAcceptMachine,
} from '../../machines/invite-accept.machine';
import { controlledPromise, flush } from './support';

const INVITE_ID = '5b1f0c1e-7a4e-4c1b-9d0e-2f3a4b5c6d7e';

function startInvite() {
  const acceptInvite = controlledPromise<string | null, { inviteId: string }>();
  const openDocument = vi.fn();
  const goToDocuments = vi.fn();
  const machine = inviteAcceptMachine.provide({
    actors: { acceptInvite: acceptInvite.logic },
    actions: {
      openDocument: (_, params) => openDocument(params.documentId),
      goToDocuments: (_, params) => goToDocuments(params.notice),
    },
  });
  const actor = createActor(machine, { input: { inviteId: INVITE_ID } }).start();
  return { actor, acceptInvite, openDocument, goToDocuments };
}

describe('invite accept', () => {
  it('accepts the invitation and opens the first document it gives', async () => {
    const { actor, acceptInvite, openDocument, goToDocuments } = startInvite();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(acceptInvite.last().input).toEqual({ inviteId: INVITE_ID });

    acceptInvite.last().result.resolve('d1');
    await flush();

    expect(openDocument).toHaveBeenCalledWith('d1');
    expect(goToDocuments).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('opened');
    expect(actor.getSnapshot().context).toMatchObject({ documentId: 'd1', errorCode: null });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('goes to the list with a notice when the accepted invitation opens no document', async () => {
    const { actor, acceptInvite, openDocument, goToDocuments } = startInvite();
    acceptInvite.last().result.resolve(null);
    await flush();

    expect(openDocument).not.toHaveBeenCalled();
    expect(goToDocuments).toHaveBeenCalledWith(INVITE_NO_DOCUMENT);
    expect(actor.getSnapshot().value).toBe('nothingToOpen');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
  });

  // The server answers an unknown invitation, someone else's and one whose document was deleted with the
  // same 404; a malformed id fails its schema (400). None of them says more than "not found".
  it.each([
    ['not found', { code: 'not_found', status: 404 }, 'not_found'],
    ['a malformed id', { code: 'invalid_request', status: 400 }, 'invalid_request'],
  ])('goes to the list saying the invitation was not found for %s', async (_, error, code) => {
    const { actor, acceptInvite, openDocument, goToDocuments } = startInvite();
    acceptInvite.last().result.reject(error);
    await flush();

    expect(openDocument).not.toHaveBeenCalled();
    expect(goToDocuments).toHaveBeenCalledWith(INVITE_NOT_FOUND);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe(code);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it.each([
    ['the network is down', { code: 'network', status: 0 }],
    ['the server fails', { code: 'server', status: 500 }],
    ['a conflict', { code: 'conflict', status: 409 }],
    ['something that is not an API error', new TypeError('Failed to fetch')],
  ])('goes to the list saying to try the link again when %s', async (_, error) => {
    const { acceptInvite, goToDocuments } = startInvite();
    acceptInvite.last().result.reject(error);
    await flush();

    expect(goToDocuments).toHaveBeenCalledWith(INVITE_FAILED);
  });

  it('leaves a 401 to the session, which comes back to the link after signing in', async () => {
    const { actor, acceptInvite, openDocument, goToDocuments } = startInvite();
    acceptInvite.last().result.reject({ code: 'unauthorized', status: 401 });
    await flush();

    expect(goToDocuments).not.toHaveBeenCalled();
    expect(openDocument).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toBe('signedOut');
    expect(actor.getSnapshot().status).toBe('done');
  });
});
