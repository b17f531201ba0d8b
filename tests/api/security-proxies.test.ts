// Per-address limits and logs count the client's real address: X-Forwarded-For is believed only when the
// connection comes from a proxy listed in PARAPH_TRUST_PROXY, never from anyone else.
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.ts';

describe('trusted proxies', () => {
  let t: TestApp | null = null;
  afterEach(async () => {
    await t?.close();
    t = null;
  });

  async function reportedAddress(app: TestApp, remoteAddress: string, forwardedFor: string) {
    const response = await app.app.inject({
      method: 'POST',
      url: '/api/error_reports',
      payload: { message: `from ${remoteAddress}`, url: '/app/' },
      headers: { 'x-forwarded-for': forwardedFor },
      remoteAddress,
    });
    expect(response.statusCode, response.body).toBe(202);
    const row = await app.deps.db
      .selectFrom('error_reports')
      .select('ip')
      .where('message', '=', `from ${remoteAddress}`)
      .executeTakeFirstOrThrow();
    return row.ip;
  }

  it('takes the forwarded address from a listed proxy and ignores it from any other client', async () => {
    t = await buildTestApp({ env: { PARAPH_TRUST_PROXY: '10.0.0.0/8, 192.0.2.10' } });
    expect(await reportedAddress(t, '10.20.30.40', '198.51.100.7')).toBe('198.51.100.7');
    expect(await reportedAddress(t, '192.0.2.10', '198.51.100.8')).toBe('198.51.100.8');
    // A client outside the list cannot choose the address the limits count.
    expect(await reportedAddress(t, '203.0.113.9', '198.51.100.9')).toBe('203.0.113.9');
    expect(await reportedAddress(t, '192.0.2.11', '198.51.100.10')).toBe('192.0.2.11');
  });

  it('believes no forwarded address without a list', async () => {
    t = await buildTestApp();
    expect(await reportedAddress(t, '10.20.30.40', '198.51.100.7')).toBe('10.20.30.40');
  });
});
