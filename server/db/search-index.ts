// The index behind a PostgreSQL search: pg_trgm's GIN operator class over the folded text of migration
// 0014, so `folded LIKE '%term%'` reads the index instead of every row. pg_trgm ships with PostgreSQL
// (Debian's postgresql package, every managed service) and is a trusted extension: any role that may
// create objects in the database may install it. When it is not there and cannot be installed, the
// search still answers the same, by reading the table, and every start says so in the log; once a
// database administrator runs `CREATE EXTENSION pg_trgm`, the next start builds the indexes. SQLite
// needs none of this: its index is FTS5's, made by the migration.
import { sql, type Kysely } from 'kysely';
import type { DatabaseLog } from './database.ts';
import type { SqlDialect } from './dialect.ts';
import type { Database } from './schema.ts';

export const TRIGRAM_INDEXES = [
  { name: 'document_search_trigram', table: 'document_search' },
  { name: 'user_search_trigram', table: 'user_search' },
] as const;

// The schema holding pg_trgm's operator class, wherever it was installed (often `public`, which a
// deployment's own schema may not have on its search path).
async function trigramSchema(db: Kysely<Database>): Promise<string | null> {
  const found = await sql<{ schema: string }>`
    SELECT n.nspname AS schema
    FROM pg_opclass c
    JOIN pg_am a ON a.oid = c.opcmethod
    JOIN pg_namespace n ON n.oid = c.opcnamespace
    WHERE c.opcname = 'gin_trgm_ops' AND a.amname = 'gin'
    LIMIT 1`.execute(db);
  return found.rows[0]?.schema ?? null;
}

/** Builds the trigram indexes if they are missing and pg_trgm can be had. Run after the migrations. */
export async function ensureSearchIndexes(
  db: Kysely<Database>,
  dialect: SqlDialect,
  log: DatabaseLog,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const present = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'i' AND n.nspname = current_schema()
      AND c.relname IN (${sql.join(TRIGRAM_INDEXES.map((index) => index.name))})`.execute(db);
  const missing = TRIGRAM_INDEXES.filter((index) => !present.rows.some((row) => row.name === index.name));
  if (missing.length === 0) return;
  let schema = await trigramSchema(db);
  if (schema === null) {
    try {
      await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    } catch (error) {
      log.debug({ error: error instanceof Error ? error.message : String(error) }, 'pg_trgm not installed');
    }
    schema = await trigramSchema(db);
  }
  if (schema === null) {
    log.warn(
      { indexes: missing.map((index) => index.name) },
      'document search runs without its index: the pg_trgm extension is missing and this role may not ' +
        'create it; searches read every row until a database administrator runs CREATE EXTENSION pg_trgm ' +
        'and the server is started again',
    );
    return;
  }
  for (const index of missing) {
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(index.name)} ON ${sql.id(index.table)}
      USING gin (folded ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}
