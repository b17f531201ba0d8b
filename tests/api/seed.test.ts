import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toCount } from '../../server/db/database.ts';
import { runPendingImageJobs } from '../../server/images/worker.ts';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';

type ListBody = {
  data: {
    attributes: {
      originalFilename: string;
      state: string;
      processing: boolean;
      publicImagesFileUrls: string[];
    };
  }[];
};

// Seeding signs the demo's documents for real: beside other suites on two cores it has taken over 30 s.
describe('demo data', { timeout: 120_000 }, () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  async function count(table: 'users' | 'documents' | 'connections' | 'jobs'): Promise<number> {
    const row = await t.deps.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return toCount(row.n);
  }

  it('creates three connected accounts, two who know nobody, and eight real documents, once', async () => {
    const first = await seedDemo(t.deps);
    expect(first.seeded).toBe(true);
    expect(first.accounts.map((account) => account.email)).toEqual([
      'ada@paraph.test',
      'bob@paraph.test',
      'carol@paraph.test',
      'erin@paraph.test',
      'frank@paraph.test',
    ]);
    expect(await count('users')).toBe(5);
    expect(await count('connections')).toBe(3);
    expect(await count('documents')).toBe(8);
    expect(await count('jobs')).toBe(8);

    const second = await seedDemo(t.deps);
    expect(second.seeded).toBe(false);
    expect(await count('users')).toBe(5);
    expect(await count('documents')).toBe(8);

    const token = await t.signIn('ada@paraph.test', DEMO_PASSWORD);
    const before = (
      await t.app.inject({ url: '/api/documents/active', headers: bearer(token) })
    ).json<ListBody>();
    expectMatchesContract('listActiveDocuments', 200, before);
    expect(new Set(before.data.map((doc) => doc.attributes.state))).toEqual(
      new Set(['uploaded', 'in_review', 'awaiting_signs', 'signed', 'refused']),
    );
    expect(before.data.every((doc) => doc.attributes.processing)).toBe(true);

    // The files are real PDFs: the page worker renders every one of them.
    expect(await runPendingImageJobs(t.deps)).toBe(8);
    const after = (
      await t.app.inject({ url: '/api/documents/active', headers: bearer(token) })
    ).json<ListBody>();
    expectMatchesContract('listActiveDocuments', 200, after);
    expect(
      after.data.every((doc) => !doc.attributes.processing && doc.attributes.publicImagesFileUrls.length > 0),
    ).toBe(true);

    const connections = await t.app.inject({ url: '/api/connections', headers: bearer(token) });
    expectMatchesContract('listConnections', 200, connections.json());
    expect(connections.json<{ data: unknown[] }>().data).toHaveLength(2);
  });
});
