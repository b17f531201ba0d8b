// The list tables of migration 0014 are written by triggers only. Whatever happens to documents, flows,
// participants, archives, hides, page images, signatures and people, in any order, they must say what the
// rule says: `visibleToViewer` for who sees what, the to_do rule for `must_act`, the folded text for the
// search, and the counts of what is there. And a list page the server sent before, which it keeps while
// nothing it shows has changed, must still be what is there. Random sequences of changes, checked after
// every one.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentState, ParticipantRole, ParticipantState } from '../../server/db/schema.ts';
import { foldForSearch } from '../../server/db/search-fold.ts';
import { visibleToViewer } from '../../server/documents/list-query.ts';
import { documentPermissions } from '../../server/documents/permissions.ts';
import { sha256Hex } from '../../server/auth/tokens.ts';
import { bearer, buildTestApp, type TestApp } from './helpers.ts';

// The two states in which someone must act come up most.
const STATES: DocumentState[] = ['in_review', 'awaiting_signs', 'in_review', 'awaiting_signs', 'uploaded', 'signed'];
const PARTICIPANT_STATES: ParticipantState[] = ['pending', 'approved', 'signed', 'waiting'];
const ROLES: ParticipantRole[] = ['reviewer', 'signatory'];
const NAMES = ['Zoë Quinn', 'Åsa Berg', 'Noël Dupré', 'Ivan Petrov'];

type Invitee = { who: number; linked: boolean; role: number; state: number };
type Op =
  | { kind: 'document'; owner: number; state: number; name: number; day: number; invitees: Invitee[] }
  | { kind: 'state'; document: number; state: number }
  | { kind: 'rename'; document: number; name: number }
  | { kind: 'redate'; document: number; day: number }
  | { kind: 'flow'; document: number }
  | { kind: 'deleteFlow'; document: number }
  | ({ kind: 'participant'; document: number } & Invitee)
  | { kind: 'participantState'; participant: number; state: number }
  | { kind: 'link'; participant: number; linked: boolean }
  | { kind: 'removeParticipant'; participant: number }
  | { kind: 'archive'; user: number; document: number; on: boolean }
  | { kind: 'hide'; user: number; document: number; on: boolean }
  | { kind: 'deleteDocument'; document: number }
  | { kind: 'account'; who: number }
  | { kind: 'email'; user: number; who: number }
  | { kind: 'userName'; user: number; name: number }
  | { kind: 'deleteUser'; user: number }
  | { kind: 'render'; document: number; pages: number; ready: boolean }
  | { kind: 'flowType'; document: number }
  | { kind: 'signature'; document: number; card: number };

// Unbiased: fast-check favours small numbers, which would keep choosing the first row of everything.
const index = fc.noBias(fc.nat({ max: 1_000 }));
const INVITEE = fc.record({ who: index, linked: fc.boolean(), role: index, state: index });
const OPS: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('document'),
      owner: index,
      state: index,
      name: index,
      day: index,
      // Most documents come with a flow and a few people in it.
      invitees: fc.array(INVITEE, { maxLength: 3 }),
    }),
    weight: 5,
  },
  fc.record({ kind: fc.constant('state'), document: index, state: index }),
  fc.record({ kind: fc.constant('rename'), document: index, name: index }),
  fc.record({ kind: fc.constant('redate'), document: index, day: index }),
  { arbitrary: fc.record({ kind: fc.constant('flow'), document: index }), weight: 3 },
  fc.record({ kind: fc.constant('deleteFlow'), document: index }),
  {
    arbitrary: fc.record({
      kind: fc.constant('participant'),
      document: index,
      who: index,
      linked: fc.boolean(),
      role: index,
      state: index,
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('participantState'), participant: index, state: index }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('link'), participant: index, linked: fc.boolean() }), weight: 2 },
  fc.record({ kind: fc.constant('removeParticipant'), participant: index }),
  { arbitrary: fc.record({ kind: fc.constant('archive'), user: index, document: index, on: fc.boolean() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('hide'), user: index, document: index, on: fc.boolean() }), weight: 3 },
  fc.record({ kind: fc.constant('deleteDocument'), document: index }),
  fc.record({ kind: fc.constant('account'), who: index }),
  fc.record({ kind: fc.constant('email'), user: index, who: index }),
  fc.record({ kind: fc.constant('userName'), user: index, name: index }),
  fc.record({ kind: fc.constant('deleteUser'), user: index }),
  fc.record({ kind: fc.constant('render'), document: index, pages: fc.nat({ max: 3 }), ready: fc.boolean() }),
  fc.record({ kind: fc.constant('flowType'), document: index }),
  fc.record({ kind: fc.constant('signature'), document: index, card: index }),
);
const CARDS = ['personal_level0', 'personal_level1', 'personal_level2'];

describe('the list tables follow every change', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.deps.db;
  const pick = <T>(list: readonly T[], at: number): T | undefined => list[at % Math.max(list.length, 1)];

  // A few days, a few times a day: the lists count documents per day of each sort column.
  const dayOf = (at: number) =>
    new Date(Date.UTC(2030, 0, 1 + (at % 3), 9 + (at % 2) * 14, 30)).toISOString();

  // Addresses people are invited under; an account with one of them may exist or come later.
  let addresses: string[] = [];

  async function users() {
    return db().selectFrom('users').select(['id', 'email', 'full_name']).orderBy('email').execute();
  }
  async function documents() {
    return db().selectFrom('documents').select(['id', 'owner_id']).orderBy('id').execute();
  }
  async function participants() {
    return db()
      .selectFrom('sign_flow_participants as p')
      .innerJoin('sign_flows as f', 'f.id', 'p.sign_flow_id')
      .select(['p.id', 'p.email', 'p.user_id', 'f.document_id'])
      .orderBy('p.id')
      .execute();
  }

  // Each person's access token, made in the database (they have no password to sign in with).
  const tokens = new Map<string, string>();

  async function addUser(email: string, fullName: string): Promise<void> {
    const id = randomUUID();
    const token = randomUUID();
    tokens.set(id, token);
    await db()
      .insertInto('users')
      .values({
        id,
        email,
        full_name: fullName,
        initials: 'XX',
        password_hash: 'x',
        locale: 'en',
        country_code: 'nl',
        location: '',
        welcome_screen_watched: 0,
        plan: 'basic',
        created_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    await db()
      .insertInto('access_tokens')
      .values({
        token_hash: sha256Hex(token),
        user_id: id,
        session_id: null,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        revoked_at: null,
      })
      .execute();
  }

  // The document's flow (made if it has none).
  async function addFlow(documentId: string): Promise<string> {
    const now = new Date().toISOString();
    await db()
      .insertInto('sign_flows')
      .values({
        id: randomUUID(),
        document_id: documentId,
        type: 'standard',
        comment: '',
        minimum_required_signs: 0,
        sign_page_number: 0,
        state: 'awaiting_signs',
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('document_id').doNothing())
      .execute();
    const flow = await db()
      .selectFrom('sign_flows')
      .select('id')
      .where('document_id', '=', documentId)
      .executeTakeFirstOrThrow();
    return flow.id;
  }

  async function addParticipant(flowId: string, invitee: Invitee): Promise<void> {
    const email = pick(addresses, invitee.who);
    if (email === undefined) return;
    const account = (await users()).find((user) => user.email === email);
    // After the flow's others, as the server orders them: with equal positions two queries could list
    // them in different orders, and the permissions read the order.
    const last = await db()
      .selectFrom('sign_flow_participants')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('sign_flow_id', '=', flowId)
      .executeTakeFirst();
    await db()
      .insertInto('sign_flow_participants')
      .values({
        id: randomUUID(),
        sign_flow_id: flowId,
        role: pick(ROLES, invitee.role) ?? 'signatory',
        position: Number(last?.position ?? 0) + 1,
        email,
        user_id: invitee.linked && account !== undefined ? account.id : null,
        state: pick(PARTICIPANT_STATES, invitee.state) ?? 'pending',
        signed_at: null,
        refused_at: null,
        approved_at: null,
        rejected_at: null,
        refuse_reason: null,
      })
      .execute();
  }

  async function apply(op: Op): Promise<void> {
    const now = new Date().toISOString();
    switch (op.kind) {
      case 'document': {
        const owner = pick(await users(), op.owner);
        if (owner === undefined) return;
        const id = randomUUID();
        await db()
          .insertInto('documents')
          .values({
            id,
            owner_id: owner.id,
            original_filename: `${pick(NAMES, op.name)} ${id.slice(0, 4)}.pdf`,
            file_key: `documents/${id}/original.pdf`,
            file_size: 1,
            sha256: '0'.repeat(64),
            page_count: 1,
            state: pick(STATES, op.state) ?? 'uploaded',
            images_state: 'ready',
            created_at: dayOf(op.day),
            updated_at: now,
            autodeletion_at: dayOf(op.day + 1),
            signed_file_key: null,
          })
          .execute();
        if (op.invitees.length === 0) return;
        const flowId = await addFlow(id);
        for (const invitee of op.invitees) await addParticipant(flowId, invitee);
        return;
      }
      case 'state': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db()
          .updateTable('documents')
          .set({ state: pick(STATES, op.state) ?? 'uploaded' })
          .where('id', '=', document.id)
          .execute();
        return;
      }
      case 'rename': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db()
          .updateTable('documents')
          .set({ original_filename: `${pick(NAMES, op.name)}.pdf` })
          .where('id', '=', document.id)
          .execute();
        return;
      }
      case 'redate': {
        // Auto-deletion moved to another day (the lists sort by it).
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db()
          .updateTable('documents')
          .set({ autodeletion_at: dayOf(op.day) })
          .where('id', '=', document.id)
          .execute();
        return;
      }
      case 'flow': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await addFlow(document.id);
        return;
      }
      case 'deleteFlow': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db().deleteFrom('sign_flows').where('document_id', '=', document.id).execute();
        return;
      }
      case 'participant': {
        const flows = await db().selectFrom('sign_flows').select(['id']).orderBy('id').execute();
        const flow = pick(flows, op.document);
        if (flow === undefined) return;
        await addParticipant(flow.id, op);
        return;
      }
      case 'participantState': {
        const participant = pick(await participants(), op.participant);
        if (participant === undefined) return;
        await db()
          .updateTable('sign_flow_participants')
          .set({ state: pick(PARTICIPANT_STATES, op.state) ?? 'pending' })
          .where('id', '=', participant.id)
          .execute();
        return;
      }
      case 'link': {
        const participant = pick(await participants(), op.participant);
        if (participant === undefined) return;
        const account = (await users()).find((user) => user.email === participant.email);
        await db()
          .updateTable('sign_flow_participants')
          .set({ user_id: op.linked && account !== undefined ? account.id : null })
          .where('id', '=', participant.id)
          .execute();
        return;
      }
      case 'removeParticipant': {
        const participant = pick(await participants(), op.participant);
        if (participant === undefined) return;
        await db().deleteFrom('sign_flow_participants').where('id', '=', participant.id).execute();
        return;
      }
      case 'archive': {
        if (op.on) {
          // Someone who sees the document archives it.
          const row = pick(await expectedViewers(), op.user + op.document);
          if (row === undefined) return;
          await db()
            .insertInto('document_archives')
            .values({ document_id: row.document_id, user_id: row.user_id, archived_at: now })
            .onConflict((conflict) => conflict.doNothing())
            .execute();
        } else {
          const archives = await db().selectFrom('document_archives').selectAll().orderBy('document_id').execute();
          const row = pick(archives, op.document);
          if (row === undefined) return;
          await db()
            .deleteFrom('document_archives')
            .where('document_id', '=', row.document_id)
            .where('user_id', '=', row.user_id)
            .execute();
        }
        return;
      }
      case 'hide': {
        if (op.on) {
          // A participant with an account deletes it for themselves.
          const people = await users();
          const participant = pick(await participants(), op.document);
          const user = people.find((person) =>
            participant?.user_id === null ? person.email === participant.email : person.id === participant?.user_id,
          );
          if (participant === undefined || user === undefined) return;
          await db()
            .insertInto('document_hides')
            .values({ document_id: participant.document_id, user_id: user.id, hidden_at: now })
            .onConflict((conflict) => conflict.doNothing())
            .execute();
        } else {
          const hides = await db().selectFrom('document_hides').selectAll().orderBy('document_id').execute();
          const row = pick(hides, op.document);
          if (row === undefined) return;
          await db()
            .deleteFrom('document_hides')
            .where('document_id', '=', row.document_id)
            .where('user_id', '=', row.user_id)
            .execute();
        }
        return;
      }
      case 'deleteDocument': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db().deleteFrom('documents').where('id', '=', document.id).execute();
        return;
      }
      case 'account': {
        const email = pick(addresses, op.who);
        if (email === undefined || (await users()).some((user) => user.email === email)) return;
        await addUser(email, pick(NAMES, op.who) ?? 'Someone');
        return;
      }
      case 'email': {
        const user = pick(await users(), op.user);
        const email = pick(addresses, op.who);
        if (user === undefined || email === undefined) return;
        if ((await users()).some((other) => other.email === email)) return;
        await db().updateTable('users').set({ email }).where('id', '=', user.id).execute();
        return;
      }
      case 'userName': {
        const user = pick(await users(), op.user);
        if (user === undefined) return;
        await db()
          .updateTable('users')
          .set({ full_name: pick(NAMES, op.name) ?? 'Someone' })
          .where('id', '=', user.id)
          .execute();
        return;
      }
      case 'render': {
        // The image worker's doing: the pages that are there, and whether they are all there.
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db().deleteFrom('document_pages').where('document_id', '=', document.id).execute();
        for (let page = 1; page <= op.pages; page += 1) {
          await db()
            .insertInto('document_pages')
            .values({
              document_id: document.id,
              page_number: page,
              image_key: `documents/${document.id}/pages/${page}.png`,
              width: 10,
              height: 10,
            })
            .execute();
        }
        await db()
          .updateTable('documents')
          .set({ images_state: op.ready ? 'ready' : 'pending', page_count: Math.max(op.pages, 1) })
          .where('id', '=', document.id)
          .execute();
        return;
      }
      case 'flowType': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        const flow = await db()
          .selectFrom('sign_flows')
          .select(['id', 'type'])
          .where('document_id', '=', document.id)
          .executeTakeFirst();
        if (flow === undefined) return;
        await db()
          .updateTable('sign_flows')
          .set({ type: flow.type === 'ordered' ? 'standard' : 'ordered' })
          .where('id', '=', flow.id)
          .execute();
        return;
      }
      case 'signature': {
        const document = pick(await documents(), op.document);
        if (document === undefined) return;
        await db()
          .insertInto('document_versions')
          .values({
            id: randomUUID(),
            document_id: document.id,
            user_id: document.owner_id,
            participant_id: null,
            smart_card_id: 'card',
            smart_card_type: pick(CARDS, op.card) ?? 'personal_level0',
            location: '',
            reason: '',
            sign_page_number: null,
            page_number: null,
            top_fraction: null,
            left_fraction: null,
            state: 'signed',
            file_key: null,
            sha256_before: null,
            sha256_after: null,
            created_at: now,
            answered_at: now,
            expires_at: now,
            notified_at: null,
          })
          .execute();
        return;
      }
      case 'deleteUser': {
        const list = await users();
        // Someone always stays, so that the sequence goes on making documents.
        if (list.length <= 1) return;
        const user = pick(list, op.user);
        if (user === undefined) return;
        await db().deleteFrom('users').where('id', '=', user.id).execute();
        return;
      }
    }
  }

  type ViewerRow = { user_id: string; document_id: string; archived: number; must_act: number; state: string };
  const key = (row: ViewerRow) =>
    `${row.user_id} ${row.document_id} archived=${Number(row.archived)} must_act=${Number(row.must_act)} ${row.state}`;

  // The rule, from the base tables.
  async function expectedViewers(): Promise<ViewerRow[]> {
    const [people, docs, flows, parts, archives, hides] = await Promise.all([
      users(),
      db().selectFrom('documents').select(['id', 'owner_id', 'state']).execute(),
      db().selectFrom('sign_flows').select(['id', 'document_id']).execute(),
      db().selectFrom('sign_flow_participants').select(['sign_flow_id', 'user_id', 'email', 'role', 'state']).execute(),
      db().selectFrom('document_archives').select(['document_id', 'user_id']).execute(),
      db().selectFrom('document_hides').select(['document_id', 'user_id']).execute(),
    ]);
    const rows: ViewerRow[] = [];
    for (const document of docs) {
      const flowIds = new Set(flows.filter((flow) => flow.document_id === document.id).map((flow) => flow.id));
      const mine = (user: { id: string; email: string }) =>
        parts.filter(
          (part) =>
            flowIds.has(part.sign_flow_id) &&
            (part.user_id === user.id || (part.user_id === null && part.email === user.email)),
        );
      for (const user of people) {
        const hidden = hides.some((hide) => hide.document_id === document.id && hide.user_id === user.id);
        const visible = document.owner_id === user.id || (mine(user).length > 0 && !hidden);
        if (!visible) continue;
        rows.push({
          user_id: user.id,
          document_id: document.id,
          state: document.state,
          archived: archives.some((row) => row.document_id === document.id && row.user_id === user.id) ? 1 : 0,
          must_act: mine(user).some(
            (part) =>
              part.state === 'pending' &&
              ((part.role === 'reviewer' && document.state === 'in_review') ||
                (part.role === 'signatory' && document.state === 'awaiting_signs')),
          )
            ? 1
            : 0,
        });
      }
    }
    return rows;
  }

  async function check(): Promise<void> {
    const actual = await db()
      .selectFrom('document_viewers')
      .select(['user_id', 'document_id', 'archived', 'must_act', 'state'])
      .execute();
    const expected = await expectedViewers();
    expect(actual.map(key).sort()).toEqual(expected.map(key).sort());

    // The same people see the same documents by the rule a single document is opened with.
    for (const user of await users()) {
      const visible = await db()
        .selectFrom('documents')
        .select('documents.id')
        .where((eb) => visibleToViewer(eb, { id: user.id, email: user.email, fullName: user.full_name }))
        .execute();
      expect(visible.map((row) => row.id).sort()).toEqual(
        expected.filter((row) => row.user_id === user.id).map((row) => row.document_id).sort(),
      );
    }

    const counts = await db()
      .selectFrom('document_list_counts')
      .select(['user_id', 'archived', 'state', 'must_act', 'documents'])
      .where('user_id', '<>', '*')
      .execute();
    expect(counts.every((row) => Number(row.documents) >= 0)).toBe(true);
    const ids = new Set((await users()).map((user) => user.id));
    expect(counts.filter((row) => !ids.has(row.user_id))).toEqual([]);
    const counted = new Map<string, number>();
    for (const row of expected) {
      const group = `${row.user_id} ${row.archived} ${row.state} ${row.must_act}`;
      counted.set(group, (counted.get(group) ?? 0) + 1);
    }
    expect(
      Object.fromEntries(
        counts
          .filter((row) => Number(row.documents) > 0)
          .map((row) => [`${row.user_id} ${Number(row.archived)} ${row.state} ${Number(row.must_act)}`, Number(row.documents)]),
      ),
    ).toEqual(Object.fromEntries(counted));

    // The days of each sort column hold the same rows, each on the day its sort value falls.
    const dated = new Map(
      (await db().selectFrom('documents').select(['id', 'created_at', 'autodeletion_at']).execute()).map(
        (row) => [row.id, row],
      ),
    );
    const expectedDays = new Map<string, number>();
    for (const row of expected) {
      const document = dated.get(row.document_id);
      for (const column of ['created_at', 'autodeletion_at'] as const) {
        const group = `${row.user_id} ${column} ${row.archived} ${document?.[column].slice(0, 10)} ${row.state} ${row.must_act}`;
        expectedDays.set(group, (expectedDays.get(group) ?? 0) + 1);
      }
    }
    const days = await db()
      .selectFrom('document_list_days')
      .select(['user_id', 'sorted_by', 'archived', 'day', 'state', 'must_act', 'documents'])
      .execute();
    expect(days.every((row) => Number(row.documents) >= 0 && ids.has(row.user_id))).toBe(true);
    expect(
      Object.fromEntries(
        days
          .filter((row) => Number(row.documents) > 0)
          .map((row) => [
            `${row.user_id} ${row.sorted_by} ${Number(row.archived)} ${row.day} ${row.state} ${Number(row.must_act)}`,
            Number(row.documents),
          ]),
      ),
    ).toEqual(Object.fromEntries(expectedDays));

    const texts = await db()
      .selectFrom('document_search as s')
      .innerJoin('documents as d', 'd.id', 's.document_id')
      .select(['s.document_id', 's.folded', 'd.original_filename'])
      .execute();
    expect(texts).toHaveLength((await documents()).length);
    const emails = await participants();
    for (const text of texts) {
      const [name, ...addressed] = text.folded.split('\n');
      expect(name).toBe(foldForSearch(text.original_filename));
      expect(addressed.sort()).toEqual(
        emails
          .filter((part) => part.document_id === text.document_id)
          .map((part) => foldForSearch(part.email))
          .sort(),
      );
    }
    const people = await db()
      .selectFrom('user_search as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.folded', 'u.full_name', 'u.email'])
      .execute();
    expect(people).toHaveLength((await users()).length);
    for (const person of people) expect(person.folded).toBe(foldForSearch(`${person.full_name}\n${person.email}`));
    await checkListPages(expected);
    if (t.config.databaseUrl === null) {
      // FTS5 compares its index with the rows it indexes (rank 1: the rows of its external content
      // table too), and throws when they differ.
      await sql`INSERT INTO document_search_fts(document_search_fts, rank) VALUES ('integrity-check', 1)`.execute(
        db(),
      );
      await sql`INSERT INTO user_search_fts(user_search_fts, rank) VALUES ('integrity-check', 1)`.execute(db());
    }
  }

  type Listed = {
    id: string;
    attributes: {
      originalFilename: string;
      state: string;
      pageCount: number;
      processing: boolean;
      publicImagesFileUrls: string[];
      isSignFlow: boolean;
      signatoryCount: number;
      creatorFullName: string;
      currentUserArchived: boolean;
      smartCardType: string | null;
    };
  };

  // What each person's first page of all documents shows, read through the API (and so through what the
  // server keeps of pages it sent), against the tables.
  async function checkListPages(expected: ViewerRow[]): Promise<void> {
    const [docs, flows, parts, pages, versions, people] = await Promise.all([
      db().selectFrom('documents').selectAll().execute(),
      db().selectFrom('sign_flows').select(['id', 'document_id', 'type', 'state']).execute(),
      db()
        .selectFrom('sign_flow_participants')
        .select(['sign_flow_id', 'role', 'state', 'user_id', 'email'])
        .orderBy('position')
        .execute(),
      db().selectFrom('document_pages').select(['document_id', 'page_number']).execute(),
      db()
        .selectFrom('document_versions')
        .select(['document_id', 'smart_card_type'])
        .orderBy('answered_at')
        .orderBy('id')
        .execute(),
      users(),
    ]);
    for (const user of people) {
      const response = await t.app.inject({
        url: '/api/documents/active',
        headers: bearer(tokens.get(user.id) ?? ''),
      });
      expect(response.statusCode, response.body).toBe(200);
      const listed = response.json<{ data: Listed[] }>().data;
      const mine = expected
        .filter((row) => row.user_id === user.id && row.archived === 0)
        .map((row) => docs.find((doc) => doc.id === row.document_id))
        .filter((doc) => doc !== undefined)
        .sort((a, b) =>
          a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
        )
        .slice(0, 20);
      expect(listed.map((doc) => doc.id)).toEqual(mine.map((doc) => doc.id));
      for (const [at, doc] of mine.entries()) {
        const flow = flows.find((row) => row.document_id === doc.id);
        const ready = doc.images_state === 'ready';
        const pageNumbers = pages.filter((row) => row.document_id === doc.id).map((row) => row.page_number);
        const cards = versions.filter((row) => row.document_id === doc.id).map((row) => row.smart_card_type);
        expect(listed[at]?.attributes).toMatchObject({
          originalFilename: doc.original_filename,
          state: doc.state,
          pageCount: doc.page_count,
          processing: doc.images_state === 'pending',
          isSignFlow: flow !== undefined,
          signatoryCount: parts.filter((row) => row.sign_flow_id === flow?.id && row.role === 'signatory').length,
          creatorFullName: people.find((person) => person.id === doc.owner_id)?.full_name,
          currentUserArchived: false,
          smartCardType: doc.state === 'signed' ? (cards[cards.length - 1] ?? null) : null,
        });
        // The flags as the server decides them, from what is in the tables now.
        const flowParticipants = parts.filter((row) => row.sign_flow_id === flow?.id);
        expect(listed[at]?.attributes).toMatchObject(
          documentPermissions({
            document: { ownerId: doc.owner_id, state: doc.state },
            signFlow: flow === undefined ? null : { type: flow.type, state: flow.state },
            participants: flowParticipants.map((row) => ({
              role: row.role,
              state: row.state,
              userId: row.user_id,
              email: row.email,
            })),
            viewer: { id: user.id, email: user.email },
            archivedByViewer: false,
          }),
        );
        expect(listed[at]?.attributes.publicImagesFileUrls).toHaveLength(
          ready ? Math.max(0, ...pageNumbers) : 0,
        );
      }
    }
  }

  it('after every change of a random sequence', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OPS, { minLength: 10, maxLength: 25 }), async (ops) => {
        await db().deleteFrom('documents').execute();
        await db().deleteFrom('users').execute();
        tokens.clear();
        const run = randomUUID().slice(0, 6);
        addresses = ['ana', 'bea', 'cai', 'dov', 'eli'].map((name) => `${name}.${run}@example.test`);
        // Three of the five have an account at first; the others are only invited, until they sign up.
        for (const [at, email] of addresses.slice(0, 3).entries()) await addUser(email, NAMES[at] ?? 'Someone');
        for (const op of ops) {
          await apply(op);
          await check();
        }
      }),
      { numRuns: 60 },
    );
  }, 600_000);
});
