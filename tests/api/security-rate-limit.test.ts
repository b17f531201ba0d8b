// The sign-in limit holds under parallel requests, and its lock-out policy protects accounts without
// letting a stranger lock their owners out:
// - 10 failures for one account from one address stop that pair only (attempts refused meanwhile count);
// - 50 failures from one address, across accounts, stop that address (password spraying);
// - nothing a stranger does from their address stops the owner signing in from another.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addressKey,
  SIGN_IN_MAX_FAILURES,
  SIGN_IN_MAX_FAILURES_PER_ADDRESS,
} from '../../server/auth/rate-limit.ts';
import { toCount } from '../../server/db/database.ts';
import { buildTestApp, type TestApp, type TestUser } from './helpers.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the sign-in rate limit', () => {
  let t: TestApp;
  let ada: TestUser;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test' });
  });
  afterEach(async () => {
    await t.close();
  });

  function signIn(email: string, password: string, remoteAddress = '203.0.113.9') {
    return t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: FORM,
      remoteAddress,
      payload: new URLSearchParams({ email, password }).toString(),
    });
  }

  async function failuresRecorded(): Promise<number> {
    const row = await t.deps.db
      .selectFrom('sign_in_attempts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('succeeded', '=', 0)
      .executeTakeFirst();
    return toCount(row?.n);
  }

  it('lets no more than the limit through 200 parallel attempts, and refuses the right password after them', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => signIn(ada.email, `wrong-${index}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    // Only attempts that got as far as the password check can be wrong (401); all others wait (429).
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // Every attempt counts, the refused ones too: the pair stays limited while they go on.
    expect(await failuresRecorded()).toBe(200);

    const right = await signIn(ada.email, ada.password);
    expect(right.statusCode).toBe(429);
    expect(right.headers['set-cookie']).toBeUndefined();
  });

  it('holds the per-address limit under parallel attempts on many accounts', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => signIn(`guess-${index}@example.test`, 'password1')),
    );
    const wrong = answers.filter((answer) => answer.statusCode === 401).length;
    expect(wrong).toBeLessThanOrEqual(SIGN_IN_MAX_FAILURES_PER_ADDRESS);
    expect((await signIn(ada.email, ada.password)).statusCode).toBe(429);
  });

  it("does not stop the owner, from another address, after a stranger's failures on their account", async () => {
    for (let attempt = 0; attempt < SIGN_IN_MAX_FAILURES + 5; attempt += 1) {
      await signIn(ada.email, `guess-${attempt}`, '198.51.100.66');
    }
    expect((await signIn(ada.email, ada.password, '198.51.100.66')).statusCode).toBe(429);
    const owner = await signIn(ada.email, ada.password, '192.0.2.10');
    expect(owner.statusCode).toBe(303);
  });

  it('does not stop other accounts from an address after ten failures on one of them', async () => {
    const bob = await t.createUser({ email: 'bob@example.test' });
    for (let attempt = 0; attempt < SIGN_IN_MAX_FAILURES; attempt += 1) {
      expect((await signIn(ada.email, `typo-${attempt}`, '192.0.2.20')).statusCode).toBe(401);
    }
    expect((await signIn(bob.email, bob.password, '192.0.2.20')).statusCode).toBe(303);
  });

  it('stops password spraying: many accounts tried from one address', async () => {
    for (let attempt = 0; attempt < SIGN_IN_MAX_FAILURES_PER_ADDRESS; attempt += 1) {
      expect((await signIn(`person-${attempt}@example.test`, 'Summer2030!')).statusCode).toBe(401);
    }
    const next = await signIn(ada.email, 'Summer2030!');
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
    // Only that address.
    expect((await signIn(ada.email, ada.password, '192.0.2.30')).statusCode).toBe(303);
  });

  it('counts an IPv6 client by its /64, so changing the address inside it does not reset the count', async () => {
    for (let attempt = 0; attempt < SIGN_IN_MAX_FAILURES; attempt += 1) {
      await signIn(ada.email, `guess-${attempt}`, `2001:db8:1:2::${(attempt + 1).toString(16)}`);
    }
    expect((await signIn(ada.email, ada.password, '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await signIn(ada.email, ada.password, '2001:db8:1:3::1')).statusCode).toBe(303);
  });
});

describe('addressKey', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2::5', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s -> %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
