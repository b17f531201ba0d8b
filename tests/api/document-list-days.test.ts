// Migration 0015 counts, for a database that already has documents, how many each person's lists hold per
// day of each sort column, and from then on its triggers keep the counts. Deep pages start from those days,
// so a day counted wrong by the migration would shift every page after it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { dropPgSchema, openDatabase } from '../../server/db/database.ts';
import { migrationsFor } from '../../server/db/migrate.ts';
import type { Database } from '../../server/db/schema.ts';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function databaseAt(migration: string) {
  const databaseUrl = process.env.TEST_DATABASE_URL?.trim() || null;
  const pgSchema = databaseUrl === null ? undefined : `t_${randomUUID().replaceAll('-', '')}`;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-list-days-'));
  const { db, dialect } = await openDatabase({
    dataDir,
    databaseUrl,
    ...(pgSchema === undefined ? {} : { pgSchema }),
  });
  cleanups.push(async () => {
    await db.destroy();
    if (databaseUrl !== null && pgSchema !== undefined) await dropPgSchema(databaseUrl, pgSchema);
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrationsFor(dialect) },
    ...(pgSchema === undefined ? {} : { migrationTableSchema: pgSchema }),
  });
  expect((await migrator.migrateTo(migration)).error).toBeUndefined();
  return { db, migrator };
}

async function addUser(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id,
      email: `${id}@paraph.test`,
      full_name: id,
      initials: id.slice(0, 2).toUpperCase(),
      password_hash: 'x',
      locale: 'en',
      country_code: 'FR',
      location: '',
      welcome_screen_watched: 0,
      plan: 'free',
      created_at: '2030-01-01T00:00:00.000Z',
      last_seen_at: null,
    })
    .execute();
}

async function addDocument(
  db: Kysely<Database>,
  ownerId: string,
  createdAt: string,
  autodeletionAt: string,
  state: 'uploaded' | 'awaiting_signs' = 'uploaded',
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('documents')
    .values({
      id,
      owner_id: ownerId,
      original_filename: `${id}.pdf`,
      file_key: `documents/${id}/original.pdf`,
      file_size: 1,
      sha256: '0'.repeat(64),
      page_count: 1,
      state,
      images_state: 'ready',
      created_at: createdAt,
      updated_at: createdAt,
      autodeletion_at: autodeletionAt,
      signed_file_key: null,
    })
    .execute();
  return id;
}

// "who column archived day state must_act" → documents, leaving out days counted down to nothing.
async function days(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('document_list_days').selectAll().execute();
  return Object.fromEntries(
    rows
      .filter((row) => Number(row.documents) !== 0)
      .map((row) => [
        `${row.user_id} ${row.sorted_by} ${Number(row.archived)} ${row.day} ${row.state} ${Number(row.must_act)}`,
        Number(row.documents),
      ]),
  );
}

describe('migration 0015, the documents per day', () => {
  it('counts the documents that were there before it, and its triggers count the ones after', async () => {
    const { db, migrator } = await databaseAt('0014_document_lists');
    await addUser(db, 'ada');
    await addUser(db, 'bob');
    // Two on one day, an hour before midnight and just after it; one archived.
    await addDocument(db, 'ada', '2030-05-01T00:10:00.000Z', '2031-05-01T09:00:00.000Z');
    await addDocument(db, 'ada', '2030-05-01T23:50:00.000Z', '2031-05-02T09:00:00.000Z');
    const archived = await addDocument(db, 'ada', '2030-05-03T12:00:00.000Z', '2031-05-02T10:00:00.000Z');
    await db
      .insertInto('document_archives')
      .values({ document_id: archived, user_id: 'ada', archived_at: '2030-06-01T00:00:00.000Z' })
      .execute();
    // Bob's, in which Ada must sign.
    const shared = await addDocument(
      db,
      'bob',
      '2030-05-02T08:00:00.000Z',
      '2031-05-01T08:00:00.000Z',
      'awaiting_signs',
    );
    const flow = randomUUID();
    await db
      .insertInto('sign_flows')
      .values({
        id: flow,
        document_id: shared,
        type: 'standard',
        comment: '',
        minimum_required_signs: 0,
        sign_page_number: 0,
        state: 'awaiting_signs',
        created_at: '2030-05-02T08:00:00.000Z',
        updated_at: '2030-05-02T08:00:00.000Z',
      })
      .execute();
    await db
      .insertInto('sign_flow_participants')
      .values({
        id: randomUUID(),
        sign_flow_id: flow,
        role: 'signatory',
        position: 1,
        email: 'ada@paraph.test',
        user_id: 'ada',
        state: 'pending',
        signed_at: null,
        refused_at: null,
        approved_at: null,
        rejected_at: null,
        refuse_reason: null,
      })
      .execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await days(db)).toEqual({
      'ada created_at 0 2030-05-01 uploaded 0': 2,
      'ada created_at 0 2030-05-02 awaiting_signs 1': 1,
      'ada created_at 1 2030-05-03 uploaded 0': 1,
      'ada autodeletion_at 0 2031-05-01 uploaded 0': 1,
      'ada autodeletion_at 0 2031-05-02 uploaded 0': 1,
      'ada autodeletion_at 0 2031-05-01 awaiting_signs 1': 1,
      'ada autodeletion_at 1 2031-05-02 uploaded 0': 1,
      'bob created_at 0 2030-05-02 awaiting_signs 0': 1,
      'bob autodeletion_at 0 2031-05-01 awaiting_signs 0': 1,
    });

    // After it, its triggers: a new document, one unarchived, and Bob's account gone.
    await addDocument(db, 'ada', '2030-05-01T12:00:00.000Z', '2031-05-01T12:00:00.000Z');
    await db.deleteFrom('document_archives').where('document_id', '=', archived).execute();
    await db.deleteFrom('sign_flow_participants').where('sign_flow_id', '=', flow).execute();
    await db.deleteFrom('sign_flows').where('id', '=', flow).execute();
    await db.deleteFrom('documents').where('owner_id', '=', 'bob').execute();
    await db.deleteFrom('users').where('id', '=', 'bob').execute();
    expect(await days(db)).toEqual({
      'ada created_at 0 2030-05-01 uploaded 0': 3,
      'ada created_at 0 2030-05-03 uploaded 0': 1,
      'ada autodeletion_at 0 2031-05-01 uploaded 0': 2,
      'ada autodeletion_at 0 2031-05-02 uploaded 0': 2,
    });
    expect(
      await db.selectFrom('document_list_days').select('user_id').where('user_id', '=', 'bob').execute(),
    ).toEqual([]);
  });
});
