// The error boundary's screen, with the real service and API client over a stubbed fetch: what a crash
// sends (the error, the route as a path only, the version; the token only as a header), the thanks and
// the disabled button afterwards, and a failed send that says so and can be tried again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../src/app/error-boundary';
import { APP_VERSION } from '../../src/app/version';
import { renderView } from './render';

type Call = {
  method: string;
  url: string;
  authorization: string | null;
  bodyText: string;
  answer: (status: number) => void;
};
const network = { calls: [] as Call[] };

// The browser's fetch, answered here for this file only (setup.ts's refuses every request): each request
// waits for its test to answer it.
beforeAll(() => {
  vi.stubGlobal('fetch', async (input: Request) => {
    const bodyText = await input.text();
    return new Promise<Response>((resolve) => {
      network.calls.push({
        method: input.method,
        url: input.url,
        authorization: input.headers.get('authorization'),
        bodyText,
        answer: (status) =>
          resolve(
            status === 202
              ? new Response(null, { status })
              : new Response(JSON.stringify({ code: 'internal_error', message: 'Something went wrong.' }), {
                  status,
                  headers: { 'Content-Type': 'application/json' },
                }),
          ),
      });
    });
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

function Crashing({ error }: { error: unknown }): never {
  throw error;
}

const CRASH = new Error('Cannot read properties of undefined (reading "signatories")');

/** The screen's code loads after the crash (src/app/error-boundary.tsx): ready once its alert shows. */
async function renderCrash(error: unknown = CRASH) {
  renderView(
    <ErrorBoundary>
      <Crashing error={error} />
    </ErrorBoundary>,
  );
  return screen.findByRole('alert');
}

async function nextCall() {
  await waitFor(() => expect(network.calls.length).toBeGreaterThan(0));
  const call = network.calls.shift();
  if (call === undefined) throw new Error('no request was sent');
  return call;
}

const sendButton = () => screen.getByRole('button', { name: 'Send report' });

describe('the error screen', () => {
  beforeEach(() => {
    // React reports every caught render error on the console; the boundary logs it too.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    window.history.replaceState(null, '', '/app/documents/to-do?search=confidential#section');
    window.localStorage.setItem('access_token', 'secret-token');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    network.calls.length = 0;
  });

  it('replaces the crashed screen with an alert: a heading, the message, Send report and Reload', async () => {
    const alert = await renderCrash();
    expect(within(alert).getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
    expect(alert.textContent).toContain('An error has occurred. Please try again in a few moments.');
    expect(within(alert).getByRole('button', { name: 'Send report' }).getAttribute('aria-disabled')).not.toBe(
      'true',
    );
    expect(within(alert).getByRole('button', { name: 'Reload the page' })).toBeEnabled();
    expect(network.calls).toEqual([]);
  });

  it('sends the error, the route as a path and the version, with the token only as a header', async () => {
    const user = userEvent.setup();
    await renderCrash();
    await user.click(sendButton());
    const call = await nextCall();
    expect(call.method).toBe('POST');
    expect(new URL(call.url).pathname).toBe('/api/error_reports');
    expect(call.authorization).toBe('Bearer secret-token');
    const body = JSON.parse(call.bodyText) as Record<string, unknown>;
    expect(body).toEqual({
      message: CRASH.message,
      stack: CRASH.stack,
      url: '/app/documents/to-do',
      version: APP_VERSION,
    });
    expect(call.bodyText).not.toContain('secret-token');
    expect(call.bodyText).not.toContain('confidential');
    expect(call.bodyText).not.toContain('section');
    expect(call.url).not.toContain('secret-token');
  });

  it('is busy while sending, then thanks the person and keeps the button disabled', async () => {
    const user = userEvent.setup();
    await renderCrash();
    await user.click(sendButton());
    const call = await nextCall();
    const busy = await screen.findByRole('button', { name: 'Sending the report…' });
    expect(busy.getAttribute('aria-disabled')).toBe('true');
    expect(busy.getAttribute('aria-busy')).toBe('true');

    call.answer(202);
    expect(await screen.findByText('Thank you. The report has been sent.')).toBeVisible();
    expect(sendButton().getAttribute('aria-disabled')).toBe('true');
    await user.click(sendButton());
    expect(network.calls).toEqual([]);
    expect(screen.queryByText('The report could not be sent. Please try again.')).toBeNull();
  });

  it('says when sending failed, and the same button tries again', async () => {
    const user = userEvent.setup();
    await renderCrash();
    await user.click(sendButton());
    (await nextCall()).answer(500);
    expect(await screen.findByText('The report could not be sent. Please try again.')).toBeVisible();
    expect(sendButton().getAttribute('aria-disabled')).not.toBe('true');
    expect(screen.queryByText('Thank you. The report has been sent.')).toBeNull();

    await user.click(sendButton());
    const retry = await nextCall();
    expect((JSON.parse(retry.bodyText) as { message: string }).message).toBe(CRASH.message);
    await waitFor(() =>
      expect(screen.queryByText('The report could not be sent. Please try again.')).toBeNull(),
    );
    retry.answer(202);
    expect(await screen.findByText('Thank you. The report has been sent.')).toBeVisible();
    expect(sendButton().getAttribute('aria-disabled')).toBe('true');
  });

  it('reports something thrown that is not an Error by its text, without a stack', async () => {
    const user = userEvent.setup();
    window.localStorage.removeItem('access_token');
    await renderCrash('the chunk failed to load');
    await user.click(sendButton());
    const call = await nextCall();
    expect(call.authorization).toBeNull();
    expect(JSON.parse(call.bodyText)).toEqual({
      message: 'the chunk failed to load',
      url: '/app/documents/to-do',
      version: APP_VERSION,
    });
  });
});
