// The invitation link as the person meets it, with the real composition (service, API client, navigation,
// notice) over a stubbed fetch: an accepted invitation opens its document; one the server does not find,
// or cannot accept, lands on /app/documents with a notice saying why, never on the error screen.
import type { ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { composeInviteAccept } from '../../src/app/compose-invite';
import { ErrorBoundary } from '../../src/app/error-boundary';
import { BaseProviders } from '../../src/app/providers';
import en from '../../src/i18n/en.json';
import { ListNotice } from '../../src/views/documents/list-notice';
import { InvitePage, type InviteAcceptLogic } from '../../src/views/signflow/invite-page';
import { sampleDocument } from '../samples';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

const network = {
  answer: (): Response => new Response(null, { status: 500 }),
  calls: [] as { method: string; path: string; body: string }[],
};

// The browser's fetch, answered here for this file only (setup.ts's refuses every request).
beforeAll(() => {
  vi.stubGlobal('fetch', async (input: Request) => {
    network.calls.push({ method: input.method, path: new URL(input.url).pathname, body: await input.text() });
    return network.answer();
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const INVITE_ID = '5b1f0c1e-7a4e-4c1b-9d0e-2f3a4b5c6d7e';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * The app's frame around the invitation route: its shell (which keeps the list's notice), base, error
 * boundary, and the two places it leads.
 */
function renderInviteLink(
  path = `/app/signflowmember/invite/${INVITE_ID}`,
  shell: TestShell = createTestShell(),
  logic: InviteAcceptLogic = composeInviteAccept(shell),
) {
  window.history.replaceState(null, '', path);
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value="invite-">
      <BaseProviders locale="en" messages={en}>
        <ShellHarness shell={shell}>
          <Router base="/app">{children}</Router>
        </ShellHarness>
      </BaseProviders>
    </IdPrefixProvider>
  );
  render(
    <ErrorBoundary>
      <Switch>
        <Route path="/signflowmember/invite/:inviteId">
          {(params) => <InvitePage inviteId={params.inviteId} logic={logic} />}
        </Route>
        <Route path="/documents">
          <h1>All documents</h1>
          <ListNotice />
        </Route>
        <Route path="/document/:id">{(params) => <h1>Document {params.id}</h1>}</Route>
      </Switch>
    </ErrorBoundary>,
    { wrapper: Wrapper },
  );
}

const NOT_FOUND = en['documents.notice.invite_not_found'];

/** The list's notice, once the link has led to the list (the waiting screen is a status too). */
async function listNotice(): Promise<string | null> {
  await screen.findByRole('heading', { name: 'All documents' });
  return screen.getByRole('status').textContent;
}

describe('the invitation link', () => {
  beforeEach(() => {
    window.localStorage.setItem('access_token', 'token');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    network.calls.length = 0;
  });

  it('accepts the invitation and opens its first document in place of the link', async () => {
    network.answer = () =>
      json(200, {
        data: { id: INVITE_ID, type: 'invites', attributes: { acceptedAt: '2030-01-01T09:00:00.000Z' } },
        included: [sampleDocument('d1')],
      });
    renderInviteLink();
    const entries = window.history.length;

    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Document d1');
    expect(window.location.pathname).toBe('/app/document/d1');
    expect(window.history.length).toBe(entries);
    expect(network.calls).toEqual([
      { method: 'PATCH', path: '/api/invites/accept', body: JSON.stringify({ invite_id: INVITE_ID }) },
    ]);
  });

  // The server answers an unknown invitation and someone else's with the same 404 (and one already
  // accepted by its own addressee with 200 again): the notice cannot, and does not, tell them apart.
  it('goes to the documents with a notice when the server does not find the invitation', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    network.answer = () => json(404, { code: 'not_found', message: 'Invite not found.' });
    renderInviteLink();

    expect(await listNotice()).toBe(NOT_FOUND);
    expect(window.location.pathname).toBe('/app/documents');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(console.error).not.toHaveBeenCalled();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the same for a link whose id is not even well formed', async () => {
    network.answer = () => json(400, { code: 'invalid_request', message: 'invite_id must be a UUID.' });
    renderInviteLink('/app/signflowmember/invite/not-an-id');

    expect(await listNotice()).toBe(NOT_FOUND);
    expect(window.location.pathname).toBe('/app/documents');
  });

  it('asks to open the link again later when the server fails', async () => {
    network.answer = () => json(500, { code: 'internal_error', message: 'Something went wrong.' });
    renderInviteLink();

    expect(await listNotice()).toBe(en['documents.notice.invite_failed']);
    expect(window.location.pathname).toBe('/app/documents');
  });

  it('says so when the accepted invitation has no document left to open', async () => {
    network.answer = () =>
      json(200, {
        data: { id: INVITE_ID, type: 'invites', attributes: { acceptedAt: '2030-01-01T09:00:00.000Z' } },
        included: [],
      });
    renderInviteLink();

    expect(await listNotice()).toBe(en['documents.notice.invite_no_document']);
    expect(window.location.pathname).toBe('/app/documents');
  });

  it('stays on the link when the session has ended, for the session to sign in and come back', async () => {
    network.answer = () => json(401, { code: 'unauthorized', message: 'Sign in again.' });
    // Every ending records its error code in the same step as its navigation: once it is recorded, a
    // navigation would have happened.
    const rememberError = vi.fn();
    const shell = createTestShell();
    renderInviteLink(
      `/app/signflowmember/invite/${INVITE_ID}`,
      shell,
      composeInviteAccept(shell).provide({ actions: { rememberError } }),
    );

    await waitFor(() => expect(rememberError).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe(`/app/signflowmember/invite/${INVITE_ID}`);
    expect(shell.getSnapshot().context.notice).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
