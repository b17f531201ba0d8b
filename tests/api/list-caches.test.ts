// What a list keeps between requests: each document's resource as last sent to a person (until the
// document, the names or the person's archive of it change) and the page as sent (until anything in the
// person's lists changes), neither for longer than its oldest storage link allows. That the kept resources
// follow every kind of change is the list tables' property test (document-lists-sync.test.ts); here, what
// is reused and for how long.
import type { Kysely, QueryResult } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/schema.ts';
import { bearer, buildTestApp, insertDocument, type TestApp } from './helpers.ts';

// The text of every statement the app runs, as its driver is given it (some of the lists' statements are
// compiled once and reach the executor already compiled).
class StatementLog {
  readonly texts: string[] = [];

  attach(db: Kysely<Database>): void {
    const executor = db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    executor.executeQuery = async <R>(compiled: Parameters<typeof execute>[0]): Promise<QueryResult<R>> => {
      this.texts.push(compiled.sql);
      return execute<R>(compiled);
    };
  }
}

// "report 24.pdf" down to "report 5.pdf": the list shows the newest first.
const reports = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, at) => `report ${from - at}.pdf`);

type Listed = { id: string; attributes: { originalFilename: string; pdfUrl: string | null } };

const START = new Date('2026-03-02T09:00:00.000Z');

describe('what the document lists keep between requests', () => {
  let t: TestApp | undefined;
  let now = START;
  const at = (seconds: number) => {
    now = new Date(START.getTime() + seconds * 1000);
  };

  afterEach(async () => {
    await t?.close();
    t = undefined;
    now = START;
  });

  async function setUp(env: Record<string, string>, log?: StatementLog) {
    const app = await buildTestApp({ clock: () => now, env });
    t = app;
    log?.attach(app.deps.db);
    const ada = await app.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    const token = await app.signIn(ada.email);
    const add = (name: string) => insertDocument(app.deps, { ownerId: ada.id, originalFilename: name });
    const list = async (query = '') => {
      const response = await app.app.inject({ url: `/api/documents/active${query}`, headers: bearer(token) });
      expect(response.statusCode, response.body).toBe(200);
      const listed = response.json<{ data: Listed[] }>().data;
      return {
        body: response.body,
        names: listed.map((doc) => doc.attributes.originalFilename),
        byId: new Map(listed.map((doc) => [doc.id, doc.attributes])),
      };
    };
    const rename = (id: string, name: string) =>
      app.deps.db.updateTable('documents').set({ original_filename: name }).where('id', '=', id).execute();
    return { app, ada, add, list, rename };
  }

  it('writes again only the document that changed, and no link older than a minute', async () => {
    const { add, list, rename } = await setUp({ PARAPH_LIST_CACHE_MB: '0' });
    const changed = await add('draft.pdf');
    const same = await add('lease.pdf');
    const first = await list();

    // Past the link cache's half minute: the changed document is read and its links signed again, the other
    // is sent as it was written.
    at(35);
    await rename(changed, 'final.pdf');
    const second = await list();
    expect(second.byId.get(changed)?.originalFilename).toBe('final.pdf');
    expect(second.byId.get(changed)?.pdfUrl).not.toBe(first.byId.get(changed)?.pdfUrl);
    expect(second.byId.get(same)).toEqual(first.byId.get(same));

    // A minute after its links were signed, it is written again with new ones.
    at(61);
    const third = await list();
    expect(third.byId.get(same)?.originalFilename).toBe('lease.pdf');
    expect(third.byId.get(same)?.pdfUrl).not.toBe(first.byId.get(same)?.pdfUrl);
  });

  it('without the document cache, writes every document of a page anew', async () => {
    const { add, list } = await setUp({ PARAPH_LIST_CACHE_MB: '0', PARAPH_DOCUMENT_CACHE_MB: '0' });
    const id = await add('lease.pdf');
    const first = await list();
    at(35);
    const second = await list();
    expect(second.byId.get(id)?.originalFilename).toBe('lease.pdf');
    expect(second.byId.get(id)?.pdfUrl).not.toBe(first.byId.get(id)?.pdfUrl);
  });

  it('reads a first page that was not sent before with its count, in one statement', async () => {
    const log = new StatementLog();
    const { add, list, rename } = await setUp({ PARAPH_LIST_CACHE_MB: '0' }, log);
    const id = await add('lease.pdf');
    await add('invoice.pdf');
    await list();
    const listStatements = () =>
      log.texts.filter((text) => /document_list_counts|document_viewers/.test(text)).length;

    const before = listStatements();
    expect((await list()).byId.size).toBe(2);
    expect(listStatements() - before).toBe(1);

    // The same after a change: the changed document is read again, the page and its count still together.
    await rename(id, 'lease-2026.pdf');
    const afterChange = listStatements();
    expect((await list()).byId.get(id)?.originalFilename).toBe('lease-2026.pdf');
    expect(listStatements() - afterChange).toBe(1);
  });

  it("reads a search's next page, and a page whose start it remembers, with their count, in one statement", async () => {
    const log = new StatementLog();
    const { add, list, rename } = await setUp({ PARAPH_LIST_CACHE_MB: '0' }, log);
    // Oldest first: the list shows the newest first, so report 44 opens page 1.
    const ids: string[] = [];
    for (let index = 0; index < 45; index += 1) {
      at(index);
      ids.push(await add(`report ${index}.pdf`));
    }
    at(45);
    await add('lease.pdf');
    const listStatements = () =>
      log.texts.filter((text) => /document_list_counts|document_viewers/.test(text)).length;
    const statementsOf = async (query: string) => {
      const before = listStatements();
      const { names } = await list(query);
      return { names, statements: listStatements() - before };
    };

    // The first request of a search counts its matches; its next pages are slices of them.
    await list('?search=report');
    const searched = await statementsOf('?search=report&page=2');
    expect(searched.names).toEqual(reports(24, 5));
    expect(searched.statements).toBe(1);
    expect((await statementsOf('?search=report&page=3')).statements).toBe(1);

    // Page 1 tells where page 2 starts, and page 2 where page 3 does: each is read from there.
    await list();
    const second = await statementsOf('?page=2');
    expect(second.names[0]).toBe('report 25.pdf');
    expect(second.statements).toBe(1);
    const third = await statementsOf('?page=3');
    expect(third.names).toEqual(reports(5, 0));
    expect(third.statements).toBe(1);

    // After a change, what was remembered is not: the page read with the old plan is read again.
    await rename(ids[40] ?? '', 'lease 40.pdf');
    const changed = await statementsOf('?search=report&page=2');
    expect(changed.names).toEqual(reports(23, 4));
    at(50);
    await add('new.pdf');
    const moved = await statementsOf('?page=3');
    expect(moved.names).toEqual(reports(6, 0));
  });

  it('reads a page of a search in the archive as archived, from the matches it remembers', async () => {
    const log = new StatementLog();
    const { app, ada, add, list } = await setUp({ PARAPH_LIST_CACHE_MB: '0' }, log);
    for (let index = 0; index < 25; index += 1) {
      at(index);
      const id = await add(`report ${index}.pdf`);
      await app.deps.db
        .insertInto('document_archives')
        .values({ document_id: id, user_id: ada.id, archived_at: now.toISOString() })
        .execute();
    }
    const token = await app.signIn(ada.email);
    const archivedList = async (query: string) => {
      const response = await app.app.inject({
        url: `/api/documents/archived${query}`,
        headers: bearer(token),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response
        .json<{ data: { attributes: { originalFilename: string; currentUserArchived: boolean } }[] }>()
        .data.map(({ attributes }) => [attributes.originalFilename, attributes.currentUserArchived]);
    };
    const expected = reports(4, 0).map((name) => [name, true]);
    await archivedList('?search=report');
    expect(await archivedList('?search=report&page=2')).toEqual(expected);
    // The second time each document is sent as it was written: it is not read again.
    const documentsRead = () => log.texts.filter((text) => text.includes('owner_full_name')).length;
    const before = documentsRead();
    expect(await archivedList('?search=report&page=2')).toEqual(expected);
    expect(documentsRead() - before).toBe(0);
    expect((await list('?search=report')).names).toEqual([]);
  });

  it("reads a deep page that starts on its day's first row from there the second time", async () => {
    const log = new StatementLog();
    const { app, ada, list } = await setUp({ PARAPH_LIST_CACHE_MB: '0' }, log);
    // 40 days of 30 documents: page 31 (the newest first) starts with the first row of a day, and is too far
    // from both ends to walk to, so it is found from the days.
    const rows = Array.from({ length: 1_200 }, (_, at) => {
      const createdAt = new Date(START.getTime() + Math.floor(at / 30) * 86_400_000 + (at % 30) * 60_000);
      const id = `doc-${String(at).padStart(4, '0')}`;
      return {
        id,
        owner_id: ada.id,
        original_filename: `${id}.pdf`,
        file_key: `documents/${id}/original.pdf`,
        file_size: 1,
        sha256: '0'.repeat(64),
        page_count: 1,
        state: 'uploaded' as const,
        images_state: 'ready' as const,
        created_at: createdAt.toISOString(),
        updated_at: createdAt.toISOString(),
        autodeletion_at: new Date(createdAt.getTime() + 365 * 86_400_000).toISOString(),
        signed_file_key: null,
      };
    });
    for (let at = 0; at < rows.length; at += 200) {
      await app.deps.db
        .insertInto('documents')
        .values(rows.slice(at, at + 200))
        .execute();
    }
    const daysRead = () => log.texts.filter((text) => text.includes('document_list_days')).length;
    const expected = (page: number) =>
      Array.from(
        { length: 20 },
        (_, at) => `doc-${String(1_199 - (page - 1) * 20 - at).padStart(4, '0')}.pdf`,
      );

    const first = daysRead();
    expect((await list('?page=31')).names).toEqual(expected(31));
    expect(daysRead() - first).toBe(1);
    const before = daysRead();
    expect((await list('?page=31')).names).toEqual(expected(31));
    expect((await list('?page=32')).names).toEqual(expected(32));
    expect(daysRead() - before).toBe(0);
  });

  it('sends a page again until its oldest link is a minute old, or anything on it changes', async () => {
    const { add, list, rename } = await setUp({});
    const id = await add('lease.pdf');
    const first = await list();
    at(45);
    expect((await list()).body).toBe(first.body);
    // Read anew after a change, the page keeps the other document's links of the first request: it is
    // reused only until they are a minute old, not a minute from now.
    const other = await add('invoice.pdf');
    await rename(other, 'invoice-2026.pdf');
    const changed = await list();
    expect(changed.byId.get(other)?.originalFilename).toBe('invoice-2026.pdf');
    expect(changed.byId.get(id)?.pdfUrl).toBe(first.byId.get(id)?.pdfUrl);
    at(59);
    expect((await list()).body).toBe(changed.body);
    at(60);
    const renewed = await list();
    expect(renewed.byId.get(id)?.originalFilename).toBe('lease.pdf');
    expect(renewed.byId.get(id)?.pdfUrl).not.toBe(first.byId.get(id)?.pdfUrl);
  });
});
