// The database going away in the middle of a render (a PostgreSQL restart) never leaves the job claimed:
// the worker waits the outage out and carries on, so the document's pages are not held back until the
// claim's lock expires. The outage is made by failing the next queries the way the PostgreSQL dialect
// fails them while the server is away.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  RootOperationNode,
} from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../server/db/connection-errors.ts';
import { queueRenderPages, runPendingImageJobs } from '../../server/images/worker.ts';
import type { ObjectStore } from '../../server/storage/object-store.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { buildTestApp, insertDocument, type TestApp } from './helpers.ts';

let t: TestApp | null = null;

afterEach(async () => {
  await t?.close();
  t = null;
});

// Fails the next `away` queries before they reach the database; or, with startAfter, the `queries` queries
// that follow the first one it matches.
class Outage implements KyselyPlugin {
  away = 0;
  failed = 0;
  startAfter: ((node: RootOperationNode) => boolean) | null = null;
  queries = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.away > 0) {
      this.away -= 1;
      this.failed += 1;
      throw new DatabaseUnavailableError(new Error('Connection terminated unexpectedly'));
    }
    if (this.startAfter?.(args.node) === true) {
      this.startAfter = null;
      this.away = this.queries;
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<PluginTransformResultArgs['result']> {
    return args.result;
  }
}

async function setUp(pageCount: number): Promise<{ app: TestApp; id: string }> {
  t = await buildTestApp();
  const owner = await t.createUser({ email: 'ada@example.test' });
  const id = await insertDocument(t.deps, { ownerId: owner.id, imagesState: 'pending', pageCount });
  await t.deps.store.put(
    `documents/${id}/original.pdf`,
    Buffer.from(await makePdf({ pages: pageCount })),
    'application/pdf',
  );
  await queueRenderPages(t.deps.db, id, t.deps.clock());
  return { app: t, id };
}

// A store that starts the outage once the image of the given page is written, before the worker records it.
function storeStartingOutage(
  store: ObjectStore,
  outage: Outage,
  pageNumber: number,
  queries: number,
): ObjectStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'put') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<ObjectStore['put']>) => {
        await target.put(...args);
        if (args[0].endsWith(`/pages/${pageNumber}.png`)) outage.away = queries;
      };
    },
  });
}

async function jobAndDocument(app: TestApp, id: string) {
  const job = await app.deps.db
    .selectFrom('jobs')
    .select(['state', 'locked_until'])
    .where('document_id', '=', id)
    .executeTakeFirstOrThrow();
  const document = await app.deps.db
    .selectFrom('documents')
    .select(['images_state', 'unavailable_pages'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const pages = await app.deps.db
    .selectFrom('document_pages')
    .select('page_number')
    .where('document_id', '=', id)
    .orderBy('page_number')
    .execute();
  return { job, document, pages: pages.map((row) => row.page_number) };
}

describe('a render through a database outage', () => {
  it('waits out the outage while recording a page, then finishes the document', async () => {
    const { app, id } = await setUp(3);
    const outage = new Outage();
    const deps = {
      ...app.deps,
      db: app.deps.db.withPlugin(outage),
      store: storeStartingOutage(app.deps.store, outage, 2, 2),
    };

    expect(await runPendingImageJobs(deps)).toBe(1);

    expect(outage.failed).toBe(2);
    expect(await jobAndDocument(app, id)).toEqual({
      job: { state: 'done', locked_until: null },
      document: { images_state: 'ready', unavailable_pages: '[]' },
      pages: [1, 2, 3],
    });
    expect(app.logs()).toMatch(/the database is away while recording a page; trying again shortly/);
  });

  it('hands the claim back, due at once and its attempt not counted, when the outage hits a read right after the claim', async () => {
    const { app, id } = await setUp(2);
    const outage = new Outage();
    // The claim is the round's first update; the document is read right after it.
    outage.startAfter = (node) => node.kind === 'UpdateQueryNode';
    outage.queries = 2;

    // Nothing ended: the round stops with the claim handed back.
    expect(await runPendingImageJobs({ ...app.deps, db: app.deps.db.withPlugin(outage) })).toBe(0);

    expect(outage.failed).toBe(2);
    // Not left `running` under a five-minute lock, nor counted as one of the document's three attempts:
    // restarts in a row would otherwise mark its pages failed.
    const { job, document } = await jobAndDocument(app, id);
    expect(job).toEqual({ state: 'queued', locked_until: null });
    expect(document.images_state).toBe('pending');
    const attempts = await app.deps.db
      .selectFrom('jobs')
      .select(['attempts', 'last_error', 'run_after'])
      .where('document_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(attempts).toMatchObject({ attempts: 0, last_error: null });
    expect(Date.parse(attempts.run_after)).toBeLessThanOrEqual(app.deps.clock().getTime());
    expect(app.logs()).toMatch(/the database went away during a render; handing it back/);

    // Due at once: the next round renders the document.
    expect(await runPendingImageJobs(app.deps)).toBe(1);
    expect(await jobAndDocument(app, id)).toEqual({
      job: { state: 'done', locked_until: null },
      document: { images_state: 'ready', unavailable_pages: '[]' },
      pages: [1, 2],
    });
  });
});
