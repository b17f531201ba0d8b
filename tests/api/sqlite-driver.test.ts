// The embedded database behaves the same whichever driver this Node gets (server/db/sqlite.ts): Node's
// node:sqlite on Node 24 and later, better-sqlite3 on Node 20 and 22. CI runs this file on Node 24 (npm
// test) and on Node 22 with better-sqlite3 (the PostgreSQL run).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteFile, type SqliteDriverName } from '../../server/db/sqlite.ts';
import { isUniqueViolation } from '../../server/handlers/connections.ts';

type Tables = {
  owners: { id: Generated<number>; name: string };
  items: { id: Generated<number>; owner_id: number; label: string };
};

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

let dataDir: string;
let db: Kysely<Tables>;
let driver: SqliteDriverName;

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-sqlite-'));
  const opened = await openSqliteFile(path.join(dataDir, 'test.sqlite'));
  driver = opened.driver;
  db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: opened.database }) });
  await sql`create table owners (id integer primary key, name text not null)`.execute(db);
  await sql`create table items (id integer primary key, owner_id integer not null references owners (id),
    label text not null)`.execute(db);
});

afterEach(async () => {
  await db.destroy();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('the embedded database driver', () => {
  it("is Node's own node:sqlite from Node 24 on, and better-sqlite3 on Node 20, which has none", () => {
    if (NODE_MAJOR >= 24) expect(driver).toBe('node:sqlite');
    if (NODE_MAJOR < 22) expect(driver).toBe('better-sqlite3');
    expect(['node:sqlite', 'better-sqlite3']).toContain(driver);
  });

  it('opens the file with the same settings on either driver', async () => {
    const setting = async (name: string): Promise<unknown> => {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.raw(`pragma_${name}`)}`.execute(
        db,
      );
      return Object.values(rows[0] ?? {})[0];
    };
    expect(await setting('journal_mode')).toBe('wal');
    expect(await setting('foreign_keys')).toBe(1);
    expect(await setting('busy_timeout')).toBe(5000);
    // NORMAL
    expect(await setting('synchronous')).toBe(1);
    expect(await setting('cache_size')).toBe(-16000);
  });

  it('returns the rows of a write with RETURNING, and counts what an update or a delete changed', async () => {
    const inserted = await db
      .insertInto('owners')
      .values([{ name: 'Ada' }, { name: 'Grace' }])
      .returning(['id', 'name'])
      .execute();
    expect(inserted).toEqual([
      { id: 1, name: 'Ada' },
      { id: 2, name: 'Grace' },
    ]);
    const insert = await db.insertInto('owners').values({ name: 'Linus' }).executeTakeFirstOrThrow();
    expect(insert.insertId).toBe(3n);
    const update = await db.updateTable('owners').set({ name: 'X' }).where('id', '<', 3).executeTakeFirst();
    expect(update.numUpdatedRows).toBe(2n);
    const remove = await db.deleteFrom('owners').where('name', '=', 'nobody').executeTakeFirst();
    expect(remove.numDeletedRows).toBe(0n);
  });

  it('binds parameters in order, and streams a select', async () => {
    await db
      .insertInto('owners')
      .values([1, 2, 3].map((id) => ({ id, name: `owner ${id}` })))
      .execute();
    const found = await db
      .selectFrom('owners')
      .select('name')
      .where('id', '>=', 2)
      .where('name', 'like', 'owner%')
      .orderBy('id')
      .execute();
    expect(found.map((row) => row.name)).toEqual(['owner 2', 'owner 3']);
    const streamed: number[] = [];
    for await (const row of db.selectFrom('owners').select('id').orderBy('id').stream())
      streamed.push(row.id);
    expect(streamed).toEqual([1, 2, 3]);
  });

  it("names a refusal with SQLite's code, as better-sqlite3 does, so a duplicate key is told apart", async () => {
    const failure = async (query: Promise<unknown>): Promise<{ code?: unknown }> => {
      const error: unknown = await query.then(
        () => null,
        (refused: unknown) => refused,
      );
      if (!(error instanceof Error)) throw new Error('the query was not refused');
      return error as { code?: unknown };
    };
    await db.insertInto('owners').values({ id: 1, name: 'Ada' }).execute();
    await sql`create unique index owners_name on owners (name)`.execute(db);

    const samePrimaryKey = await failure(db.insertInto('owners').values({ id: 1, name: 'Bob' }).execute());
    expect(samePrimaryKey.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(isUniqueViolation(samePrimaryKey)).toBe(true);
    const sameName = await failure(db.insertInto('owners').values({ id: 2, name: 'Ada' }).execute());
    expect(sameName.code).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(isUniqueViolation(sameName)).toBe(true);

    const orphan = await failure(db.insertInto('items').values({ owner_id: 9, label: 'orphan' }).execute());
    expect(orphan.code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(isUniqueViolation(orphan)).toBe(false);
    const typo = await failure(sql`selec 1`.execute(db));
    expect(typo.code).toBe('SQLITE_ERROR');
  });

  it('rolls a failed transaction back whole', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('owners').values({ id: 1, name: 'kept?' }).execute();
        await trx.insertInto('owners').values({ id: 1, name: 'duplicate' }).execute();
      }),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    expect(await db.selectFrom('owners').selectAll().execute()).toEqual([]);
  });
});
