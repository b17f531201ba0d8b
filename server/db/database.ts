// Opens the database: an embedded SQLite file by default, PostgreSQL when a URL is given. Both go through
// the same Kysely queries; only the connection differs.
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { SqlDialect } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import type { Database } from './schema.ts';

export type OpenDatabaseOptions = {
  dataDir: string;
  databaseUrl: string | null;
  // A PostgreSQL schema to work in (created when missing); lets tests share one database.
  pgSchema?: string;
};

export type OpenedDatabase = { db: Kysely<Database>; dialect: SqlDialect };

const SAFE_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl !== null) {
    const schema = options.pgSchema;
    if (schema !== undefined && !SAFE_SCHEMA.test(schema))
      throw new Error(`Unsafe PostgreSQL schema name: ${schema}`);
    if (schema !== undefined) {
      const admin = new pg.Client({ connectionString: options.databaseUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        await admin.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(options.dataDir, 'paraph.sqlite'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  file.pragma('synchronous = NORMAL');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), dialect: 'sqlite' };
}

export async function openMigratedDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  const opened = await openDatabase(options);
  try {
    await migrateToLatest(opened.db, opened.dialect, options.pgSchema);
  } catch (error) {
    await opened.db.destroy();
    throw error;
  }
  return opened;
}

// Counts come back as numbers from SQLite and as strings (bigint) from PostgreSQL.
export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

export async function dropPgSchema(databaseUrl: string, schema: string): Promise<void> {
  if (!SAFE_SCHEMA.test(schema)) throw new Error(`Unsafe PostgreSQL schema name: ${schema}`);
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}
