// Upload grants are limited per person (PARAPH_UPLOAD_GRANTS_PER_MINUTE, 30 by default), counted in the
// database so that instances share the limit, and held under parallel requests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';

type ErrorBody = components['schemas']['Error'];

describe('upload grant limit', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let clockOffsetMs = 0;

  beforeEach(async () => {
    clockOffsetMs = 0;
    t = await buildTestApp({ clock: () => new Date(Date.now() + clockOffsetMs) });
    ada = await t.createUser({ email: 'ada@example.test' });
    adaToken = await t.signIn(ada.email);
  });

  afterEach(async () => {
    await t.close();
  });

  function grant(token = adaToken) {
    return t.app.inject({ method: 'POST', url: '/api/upload_requests', headers: bearer(token) });
  }

  async function grantRows(userId: string): Promise<number> {
    const rows = await t.deps.db
      .selectFrom('upload_requests')
      .select('id')
      .where('user_id', '=', userId)
      .execute();
    return rows.length;
  }

  it('gives exactly 30 of 31 parallel grants, and a 429 with a code and Retry-After', async () => {
    expect(t.config.uploadGrantsPerMinute).toBe(30);

    const answers = await Promise.all(Array.from({ length: 31 }, () => grant()));

    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(30);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(1);
    const [limited] = refused;
    expectMatchesContract('createUploadRequest', 429, limited?.json());
    expect(limited?.json<ErrorBody>().code).toBe('too_many_requests');
    const retryAfter = Number(limited?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The refused grant left no row: it neither counts later nor waits for the cleanup job.
    expect(await grantRows(ada.id)).toBe(30);
  });

  it('counts per person, and grants again once the minute has passed', async () => {
    const bob = await t.createUser({ email: 'bob@example.test' });
    const bobToken = await t.signIn(bob.email);
    for (let index = 0; index < 30; index += 1) expect((await grant()).statusCode).toBe(201);
    expect((await grant()).statusCode).toBe(429);

    expect((await grant(bobToken)).statusCode).toBe(201);
    clockOffsetMs = 61_000;
    expect((await grant()).statusCode).toBe(201);
  });

  it('takes its limit from PARAPH_UPLOAD_GRANTS_PER_MINUTE', async () => {
    const limited = await buildTestApp({ env: { PARAPH_UPLOAD_GRANTS_PER_MINUTE: '2' } });
    try {
      const user = await limited.createUser();
      const token = await limited.signIn(user.email);
      const answers: number[] = [];
      for (let index = 0; index < 3; index += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/upload_requests',
          headers: bearer(token),
        });
        answers.push(response.statusCode);
      }
      expect(answers).toEqual([201, 201, 429]);
    } finally {
      await limited.close();
    }
  });
});
