// What the document search finds (docs/decisions.md, "Document search"): a piece of the file name, of an
// owner's or a participant's name or address, anywhere in it, whatever the case and the accents; only
// among the documents the caller sees; paged and counted like any list. And what the lists remember
// between requests (a search's count, where a page starts) never outlives a change.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listDocuments } from '../../server/documents/list-query.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type ListBody = {
  data: { id: string; attributes: { originalFilename: string } }[];
  links: { first: string; prev: string | null; self: string; next: string | null; last: string };
  meta: { currentPage: number; totalPages: number };
};

const DAY = 86_400_000;

describe('document search', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let elena: TestUser;
  let adaToken: string;
  const start = new Date('2030-05-01T09:00:00.000Z');

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    elena = await t.createUser({ email: 'elena@example.test', fullName: 'Elena García' });
    adaToken = await t.signIn(ada.email);

    const mine = (originalFilename: string, days: number) =>
      insertDocument(t.deps, {
        ownerId: ada.id,
        originalFilename,
        createdAt: new Date(start.getTime() + days * DAY),
      });
    await mine('Résumé Ada.pdf', 1);
    // The same name as macOS writes it: each accent a character of its own after its letter.
    await mine('Re\u0301sume\u0301 decomposed.pdf', 2);
    await mine('resume plain.pdf', 3);
    await mine('ÉTÉ 2030.pdf', 4);
    await mine('Quarterly report.pdf', 5);
    await mine('Łódź office lease.pdf', 6);
    await mine('Договор аренды.pdf', 7);
    // Someone else's documents, which Ada must never find, whatever she types.
    await insertDocument(t.deps, { ownerId: bob.id, originalFilename: 'Résumé Bob.pdf' });
    const bobsWithElena = await insertDocument(t.deps, {
      ownerId: bob.id,
      originalFilename: 'Contrat Bob.pdf',
      state: 'awaiting_signs',
    });
    await insertSignFlow(t.deps, bobsWithElena, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: elena.email, userId: elena.id, state: 'pending' }],
    });
    // Bob's, shared with Ada and Elena: found by its participants' names and addresses.
    const shared = await insertDocument(t.deps, {
      ownerId: bob.id,
      originalFilename: 'Contract shared.pdf',
      state: 'awaiting_signs',
      createdAt: new Date(start.getTime() + 8 * DAY),
    });
    await insertSignFlow(t.deps, shared, {
      state: 'awaiting_signs',
      participants: [
        { role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' },
        { role: 'signatory', email: elena.email, userId: elena.id, state: 'pending' },
        { role: 'signatory', email: 'Jörg.Müller@Example.test', userId: null, state: 'waiting' },
      ],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  async function list(url: string, token = adaToken): Promise<ListBody> {
    const response = await t.app.inject({ url, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<ListBody>();
    expectMatchesContract('listActiveDocuments', 200, body);
    return body;
  }

  async function found(search: string): Promise<string[]> {
    const body = await list(`/api/documents/active?search=${encodeURIComponent(search)}`);
    return body.data.map((doc) => doc.attributes.originalFilename).sort();
  }

  const RESUMES = ['Re\u0301sume\u0301 decomposed.pdf', 'Résumé Ada.pdf', 'resume plain.pdf'].sort();

  it.each(['resume', 'RESUME', 'résumé', 'RÉSUMÉ', 'Re\u0301sume\u0301', 'ésu'])(
    'finds the file names with or without accents, in any case, for %j',
    async (search) => {
      expect(await found(search)).toEqual(RESUMES);
    },
  );

  it('folds letters beyond ASCII too: capitals with accents, strokes, other alphabets', async () => {
    expect(await found('été')).toEqual(['ÉTÉ 2030.pdf']);
    expect(await found('ete 20')).toEqual(['ÉTÉ 2030.pdf']);
    expect(await found('lodz')).toEqual(['Łódź office lease.pdf']);
    expect(await found('ДОГОВОР')).toEqual(['Договор аренды.pdf']);
  });

  it('matches a piece anywhere in a word, as before, also with one or two letters', async () => {
    expect(await found('port')).toEqual(['Quarterly report.pdf']);
    expect(await found('terly rep')).toEqual(['Quarterly report.pdf']);
    expect(await found('ÓD')).toEqual(['Łódź office lease.pdf']);
    expect(await found('reportx')).toEqual([]);
  });

  it("matches the participants' names and addresses the same way, and only the caller's documents", async () => {
    expect(await found('garcia')).toEqual(['Contract shared.pdf']);
    expect(await found('GARCÍA')).toEqual(['Contract shared.pdf']);
    expect(await found('elena@exa')).toEqual(['Contract shared.pdf']);
    // An invitee without an account yet: their address.
    expect(await found('jorg.muller')).toEqual(['Contract shared.pdf']);
    // The owner's name finds everything of theirs Ada sees, and nothing else of theirs.
    expect(await found('baker')).toEqual(['Contract shared.pdf']);
    expect(await found('Contrat Bob')).toEqual([]);
  });

  it('pages and counts a search like any list, and keeps it in the links', async () => {
    const bulk = `bulk-${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 23; i += 1) {
      await insertDocument(t.deps, {
        ownerId: ada.id,
        originalFilename: `Ñandú ${bulk} ${String(i).padStart(2, '0')}.pdf`,
        createdAt: new Date(start.getTime() + (100 + i) * DAY),
      });
    }
    await insertDocument(t.deps, { ownerId: bob.id, originalFilename: `Ñandú ${bulk} Bob.pdf` });
    const search = `NANDU ${bulk.toUpperCase()}`;
    const first = await list(`/api/documents/active?search=${encodeURIComponent(search)}`);
    expect(first.data).toHaveLength(20);
    expect(first.data[0]?.attributes.originalFilename).toBe(`Ñandú ${bulk} 22.pdf`);
    expect(first.meta).toMatchObject({ currentPage: 1, totalPages: 2 });
    expect(first.links.last).toBe(`/api/documents/active?${new URLSearchParams({ search, page: '2' })}`);
    const second = await list(first.links.next ?? '');
    expect(second.data.map((doc) => doc.attributes.originalFilename)).toEqual([
      `Ñandú ${bulk} 02.pdf`,
      `Ñandú ${bulk} 01.pdf`,
      `Ñandú ${bulk} 00.pdf`,
    ]);
    expect(second.links.next).toBeNull();
  });
});

describe('what the lists remember between requests', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let adaToken: string;
  const start = new Date('2030-05-01T09:00:00.000Z');

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    adaToken = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  async function list(url: string): Promise<ListBody> {
    const response = await t.app.inject({ url, headers: bearer(adaToken) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ListBody>();
  }
  const names = (body: ListBody) => body.data.map((doc) => doc.attributes.originalFilename);

  // A page of Ada's active documents for a search, read by list-query.ts itself (a walk limit of its own).
  async function searchPage(search: string, number: number, walkLimit?: number) {
    const query = {
      category: 'active' as const,
      search,
      sortColumn: 'created_at' as const,
      sortDirection: 'desc' as const,
      page: number,
    };
    const listed = await listDocuments(t.deps, ada, query, undefined, walkLimit);
    const found = listed.rows.map((row) => row.id);
    const named =
      found.length === 0
        ? []
        : await t.deps.db
            .selectFrom('documents')
            .select(['id', 'original_filename'])
            .where('id', 'in', found)
            .execute();
    const nameOf = new Map(named.map((row) => [row.id, row.original_filename]));
    return { names: found.map((id) => nameOf.get(id)), total: listed.total };
  }

  async function documents(count: number, name = (i: number) => `doc-${String(i).padStart(2, '0')}.pdf`) {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      ids.push(
        await insertDocument(t.deps, {
          ownerId: ada.id,
          originalFilename: name(i),
          createdAt: new Date(start.getTime() + i * DAY),
        }),
      );
    }
    return ids;
  }

  it('a page read twice moves when a newer document arrives or one before it goes', async () => {
    const ids = await documents(45);
    const before = await list('/api/documents/active?page=2');
    expect(names(before)[0]).toBe('doc-24.pdf');
    expect(names(await list('/api/documents/active?page=2'))).toEqual(names(before));

    await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'newest.pdf',
      createdAt: new Date(start.getTime() + 100 * DAY),
    });
    const after = await list('/api/documents/active?page=2');
    expect(names(after)[0]).toBe('doc-25.pdf');
    expect(after.meta.totalPages).toBe(3);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/documents/${ids[44] ?? ''}`,
      headers: bearer(adaToken),
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(names(await list('/api/documents/active?page=2'))[0]).toBe('doc-24.pdf');
    // From the end too: the last page holds what is left.
    expect(names(await list('/api/documents/active?page=3'))).toEqual([
      'doc-04.pdf',
      'doc-03.pdf',
      'doc-02.pdf',
      'doc-01.pdf',
      'doc-00.pdf',
    ]);
  });

  it('a deep page asked first is the page the rows in order give, in each sort, order and category', async () => {
    // Many documents over a few weeks, several at the same moment, so that a page far from both ends is
    // found from the documents per day, and within a day ties are broken by id.
    const states = ['uploaded', 'uploaded', 'signed', 'refused'] as const;
    const rows = Array.from({ length: 1_300 }, (_, i) => {
      const id: string = randomUUID();
      const createdAt = new Date(start.getTime() + (i % 41) * DAY + (i % 5) * 3_600_000).toISOString();
      return {
        id,
        owner_id: ada.id,
        original_filename: `bulk-${i}.pdf`,
        file_key: `documents/${id}/original.pdf`,
        file_size: 1,
        sha256: '0'.repeat(64),
        page_count: 1,
        state: states[i % states.length] ?? 'uploaded',
        images_state: 'ready' as const,
        created_at: createdAt,
        updated_at: createdAt,
        autodeletion_at: new Date(start.getTime() + ((i * 7) % 53) * DAY).toISOString(),
        signed_file_key: null,
      };
    });
    for (let at = 0; at < rows.length; at += 200) {
      await t.deps.db
        .insertInto('documents')
        .values(rows.slice(at, at + 200))
        .execute();
    }
    const archived = new Set(rows.filter((_, i) => i % 13 === 0).map((row) => row.id));
    for (const id of archived) {
      await t.deps.db
        .insertInto('document_archives')
        .values({ document_id: id, user_id: ada.id, archived_at: start.toISOString() })
        .execute();
    }

    type Row = (typeof rows)[number];
    const expectedPage = (
      keep: (row: Row) => boolean,
      column: 'created_at' | 'autodeletion_at',
      direction: 'asc' | 'desc',
      page: number,
    ) => {
      const sorted = rows.filter(keep).sort((a, b) => {
        const order = a[column] === b[column] ? (a.id < b.id ? -1 : 1) : a[column] < b[column] ? -1 : 1;
        return direction === 'asc' ? order : -order;
      });
      return {
        ids: sorted.slice((page - 1) * 20, page * 20).map((row) => row.id),
        pages: Math.ceil(sorted.length / 20),
      };
    };
    const current = (row: Row) => !archived.has(row.id);
    const cases = [
      { path: 'active', keep: current, column: 'created_at', direction: 'desc', page: 40 },
      { path: 'active', keep: current, column: 'created_at', direction: 'asc', page: 33 },
      { path: 'active', keep: current, column: 'autodeletion_at', direction: 'asc', page: 29 },
      { path: 'active', keep: current, column: 'autodeletion_at', direction: 'desc', page: 31 },
      {
        path: 'uploaded',
        keep: (row: Row) => current(row) && row.state === 'uploaded',
        column: 'created_at',
        direction: 'desc',
        page: 28,
      },
    ] as const;
    for (const { path, keep, column, direction, page } of cases) {
      const query = new URLSearchParams({
        'sort[column]': column,
        'sort[direction]': direction,
        page: String(page),
      });
      const body = await list(`/api/documents/${path}?${query.toString()}`);
      const expected = expectedPage(keep, column, direction, page);
      expect(
        body.data.map((doc) => doc.id),
        `${path} by ${column} ${direction}, page ${page}`,
      ).toEqual(expected.ids);
      expect(body.meta.totalPages).toBe(expected.pages);
    }

    // A newer document moves the page by one, though a start for it is remembered now.
    const createdAt = new Date(start.getTime() + 40 * DAY + 3_600_000);
    const newer = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'newer.pdf', createdAt });
    rows.push({ ...(rows[1] as Row), id: newer, created_at: createdAt.toISOString() });
    const again = await list('/api/documents/active?page=40');
    expect(again.data.map((doc) => doc.id)).toEqual(expectedPage(current, 'created_at', 'desc', 40).ids);
  });

  it('a search read whole once walks its pages when what it found had to make room for other searches', async () => {
    const ids = await documents(45, (i) =>
      i % 9 < 5 ? `lease-${String(i).padStart(2, '0')}.pdf` : `other-${i}.pdf`,
    );
    const leases = ids
      .map((_, i) => i)
      .filter((i) => i % 9 < 5)
      .reverse()
      .map((i) => `lease-${String(i).padStart(2, '0')}.pdf`);
    const page = (search: string, number: number) => searchPage(search, number);
    expect(await page('lease', 1)).toEqual({ names: leases.slice(0, 20), total: 25 });
    // More searches than the matches kept: the first one's count is still known, its matches are not.
    for (let other = 0; other < 40; other += 1) await page(`other-${other}`, 1);
    expect(await page('lease', 2)).toEqual({ names: leases.slice(20), total: 25 });
    expect(await page('lease', 1)).toEqual({ names: leases.slice(0, 20), total: 25 });
  });

  it('a search among more documents than a walk reads takes its pages from the index, and follows changes', async () => {
    // 25 leases among 45, and one of Bob's shared with Ada, which his name finds.
    const ids = await documents(45, (i) =>
      i % 9 < 5 ? `lease-${String(i).padStart(2, '0')}.pdf` : `other-${i}.pdf`,
    );
    const shared = await insertDocument(t.deps, {
      ownerId: bob.id,
      originalFilename: 'shared.pdf',
      createdAt: new Date(start.getTime() - DAY),
    });
    await insertSignFlow(t.deps, shared, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' }],
    });
    // A walk limit of 30 among Ada's 46 documents: every search of her lists asks the index; one that finds
    // up to 30 is read from it whole (pages are slices), one that finds more is counted there and walked.
    const page = (search: string, number: number) => searchPage(search, number, 30);
    const leases = ids
      .map((_, i) => i)
      .filter((i) => i % 9 < 5)
      .reverse()
      .map((i) => `lease-${String(i).padStart(2, '0')}.pdf`);
    expect(await page('LEASE', 1)).toEqual({ names: leases.slice(0, 20), total: 25 });
    expect(await page('LEASE', 2)).toEqual({ names: leases.slice(20), total: 25 });
    expect(await page('baker', 1)).toEqual({ names: ['shared.pdf'], total: 1 });
    // Two characters, which no trigram index answers: the folded text is read.
    expect(await page('E-', 2)).toEqual({ names: leases.slice(20), total: 25 });
    // More than 30: counted from the index, the page walked.
    const everything = ids
      .map((_, i) => i)
      .reverse()
      .map((i) => (i % 9 < 5 ? `lease-${String(i).padStart(2, '0')}.pdf` : `other-${i}.pdf`));
    expect(await page('.PDF', 2)).toEqual({ names: everything.slice(20, 40), total: 46 });

    // What the index found is remembered only while nothing in Ada's lists changes.
    await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'lease-new.pdf',
      createdAt: new Date(start.getTime() + 100 * DAY),
    });
    expect(await page('LEASE', 1)).toEqual({ names: ['lease-new.pdf', ...leases.slice(0, 19)], total: 26 });
    expect((await page('LEASE', 2)).names).toEqual(leases.slice(19));
    // The same pages and count as the walk through the API finds.
    const walked = await list('/api/documents/active?search=lease&page=2');
    expect(walked.meta.totalPages).toBe(2);
    expect(names(walked)).toEqual(leases.slice(19));
  });

  it("a search's count follows new matches, archiving, and a participant's name", async () => {
    await documents(3, (i) => `lease-${i}.pdf`);
    const count = async (search: string) =>
      (await list(`/api/documents/active?search=${encodeURIComponent(search)}`)).data.length;
    expect(await count('lease')).toBe(3);

    const another = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'Lease-new.pdf' });
    expect(await count('lease')).toBe(4);

    const archived = await t.app.inject({
      method: 'PATCH',
      url: `/api/documents/${another}/archive`,
      headers: bearer(adaToken),
    });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await count('lease')).toBe(3);
    expect((await list('/api/documents/archived?search=lease')).data.length).toBe(1);

    const shared = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'shared.pdf' });
    await insertSignFlow(t.deps, shared, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    expect(await count('robert')).toBe(0);
    await t.deps.db
      .updateTable('users')
      .set({ full_name: 'Robert Baker' })
      .where('id', '=', bob.id)
      .execute();
    expect(await count('robert')).toBe(1);
  });

  it("a document leaves a participant's lists and searches when they leave its flow", async () => {
    const carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    const carolToken = await t.signIn(carol.email);
    const documentId = await insertDocument(t.deps, {
      ownerId: ada.id,
      originalFilename: 'Offer letter.pdf',
    });
    const send = (method: 'POST' | 'PUT', signatories: string[]) =>
      t.app.inject({
        method,
        url: `/api/documents/${documentId}/sign_flow`,
        headers: bearer(adaToken),
        payload: {
          sign_flow: {
            type: 'standard',
            comment: '',
            reviewer_email_addresses: [],
            signatory_email_addresses: signatories,
            sign_page_number: 0,
            signature_coordinates: [],
          },
        },
      });
    const carolSees = async (url: string) =>
      (await t.app.inject({ url, headers: bearer(carolToken) })).json<ListBody>().data.map((doc) => doc.id);

    const created = await send('POST', [carol.email, bob.email]);
    expect(created.statusCode, created.body).toBe(201);
    expect(await carolSees('/api/documents/to_do')).toEqual([documentId]);
    expect(await carolSees('/api/documents/active?search=offer')).toEqual([documentId]);
    expect(names(await list('/api/documents/active?search=carol%40'))).toEqual(['Offer letter.pdf']);

    const edited = await send('PUT', [bob.email]);
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await carolSees('/api/documents/active?search=offer')).toEqual([]);
    expect(await carolSees('/api/documents/to_do')).toEqual([]);
    expect(names(await list('/api/documents/active?search=carol%40'))).toEqual([]);
  });
});
