// What the app's addConnection actor puts on the wire (spec 000 §3, §7): a found person goes as `to` plus
// that person's address, an invitation as the address alone.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { addConnection } from '../../src/services/connections';

const sent: { method: string; path: string; body: unknown }[] = [];

// The browser's fetch, answered here for this file only (setup.ts's refuses every request).
beforeAll(() => {
  vi.stubGlobal('fetch', async (input: Request) => {
    sent.push({ method: input.method, path: new URL(input.url).pathname, body: await input.json() });
    return new Response(JSON.stringify({ data: {}, included: [] }), {
      status: 201,
      headers: { 'Content-Type': 'application/json' },
    });
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

async function add(input: { to: string | null; invitationEmailAddress: string }) {
  sent.length = 0;
  await toPromise(createActor(addConnection, { input }).start());
  return sent;
}

describe('addConnection', () => {
  it('sends the profile id and that profile’s address together', async () => {
    expect(await add({ to: 'profile-grace', invitationEmailAddress: 'grace@paraph.test' })).toEqual([
      {
        method: 'POST',
        path: '/api/connection_requests',
        body: { connection_request: { to: 'profile-grace', invitation_email_address: 'grace@paraph.test' } },
      },
    ]);
  });

  it('sends only the address for an invitation to someone without an account', async () => {
    const [request] = await add({ to: null, invitationEmailAddress: 'new@example.org' });
    expect(request?.body).toEqual({ connection_request: { invitation_email_address: 'new@example.org' } });
  });
});
