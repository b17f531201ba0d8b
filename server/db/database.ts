// Opens the database: an embedded SQLite file by default, PostgreSQL when a URL is given. Both go through
// the same Kysely queries; only the connection differs.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';
import pg from 'pg';
import { errorText } from '../http/logging.ts';
import {
  DatabaseUnavailableError,
  GuardedPostgresDialect,
  isConnectionFailure,
} from './connection-errors.ts';
import type { SqlDialect } from './dialect.ts';
import { migrateToLatest } from './migrate.ts';
import { preparingPool } from './prepared-statements.ts';
import type { Database } from './schema.ts';
import { foldForSearch } from './search-fold.ts';
import { ensureSearchIndexes } from './search-index.ts';
import { RecentMap } from '../recent-map.ts';
import { openSqliteFile } from './sqlite.ts';
import { withStartLock } from './start-lock.ts';

export type OpenDatabaseOptions = {
  dataDir: string;
  databaseUrl: string | null;
  // A PostgreSQL schema to work in (created when missing); lets tests share one database.
  pgSchema?: string;
  // Where a connection the server dropped is reported (the server's log); the console without one.
  log?: DatabaseLog;
};

export type DatabaseLog = {
  warn(details: Record<string, unknown>, message: string): void;
  debug(details: Record<string, unknown>, message: string): void;
};

// The pool, on PostgreSQL: its connections come and go with the server.
export type OpenedDatabase = { db: Kysely<Database>; dialect: SqlDialect; pool: pg.Pool | null };

const CONSOLE_LOG: DatabaseLog = {
  warn: (details, message) => console.warn(message, details),
  debug: () => undefined,
};

// A request waits this long for a connection before it answers 503: a server that is down or unreachable
// refuses at once, but one behind a dropped network route would otherwise hold every request forever.
const CONNECT_TIMEOUT_MS = 5_000;

const SAFE_SCHEMA = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  if (options.databaseUrl !== null) {
    const schema = options.pgSchema;
    if (schema !== undefined && !SAFE_SCHEMA.test(schema))
      throw new Error(`Unsafe PostgreSQL schema name: ${schema}`);
    if (schema !== undefined) {
      const databaseUrl = options.databaseUrl;
      // Under the start lock: two CREATE SCHEMA IF NOT EXISTS at once can still collide on the catalog.
      await withStartLock({ databaseUrl, pgSchema: schema }, async () => {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        try {
          await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        } finally {
          await admin.end();
        }
      });
    }
    const log = options.log ?? CONSOLE_LOG;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Names this server's sessions in pg_stat_activity (and each test app's, by its schema).
      application_name: schema === undefined ? 'paraph' : `paraph ${schema}`,
      ...(schema === undefined ? {} : { options: `-c search_path="${schema}"` }),
    });
    // An idle connection that the server ends (a restart, a failover, pg_terminate_backend) is reported
    // here; with no listener, node-postgres would throw it and end the process. The pool has already let go
    // of that connection, and the next query opens a new one once the server is back.
    pool.on('error', (error) => {
      log.warn(
        { error: errorText(error) },
        'a database connection was lost; the pool opens a new one when needed',
      );
    });
    // A connection lent out when it dies (between the queries of a transaction) reports to itself, not to
    // the pool, and would end the process just the same; its query or the next one fails, and the request
    // answers 503.
    pool.on('connect', (client) => {
      client.on('error', (error) => {
        log.debug({ error: errorText(error) }, 'a database connection in use was lost');
      });
    });
    return {
      db: new Kysely<Database>({ dialect: new GuardedPostgresDialect(preparingPool(pool)) }),
      dialect: 'postgres',
      pool,
    };
  }
  const database = await openSqliteConnection(options.dataDir, options.log ?? CONSOLE_LOG);
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) }),
    dialect: 'sqlite',
    pool: null,
  };
}

/**
 * The SQLite file as every connection to it must be opened: this Node's driver (server/db/sqlite.ts), its
 * settings, and the functions its triggers call (the search's fold, migration 0014). The benchmarks open
 * their own connection through this.
 */
export async function openSqliteConnection(
  dataDir: string,
  log: DatabaseLog = CONSOLE_LOG,
): Promise<SqliteDatabase> {
  fs.mkdirSync(dataDir, { recursive: true });
  const { database } = await openSqliteFile(
    path.join(dataDir, 'paraph.sqlite'),
    (reason) => {
      log.warn(
        { error: errorText(reason), node: process.version },
        'better-sqlite3 does not load on this Node, so the database file is opened with node:sqlite, which ' +
          'Node 22 calls experimental; `npm rebuild better-sqlite3` builds it for this Node',
      );
    },
    { paraph_fold: (value: unknown) => (typeof value === 'string' ? foldForSearch(value) : value) },
  );
  return database;
}

// Kysely prepares every statement it runs; the same few hundred statements come back all the time, and
// preparing one can cost more than running it. Kysely uses one connection at a time and never iterates
// (streams), so a prepared statement is never in use twice at once.
const STATEMENT_CACHE_SIZE = 500;

function withStatementCache(database: SqliteDatabase): SqliteDatabase {
  const statements = new RecentMap<string, ReturnType<SqliteDatabase['prepare']>>(STATEMENT_CACHE_SIZE);
  return {
    close: () => database.close(),
    prepare(sqlText: string) {
      const cached = statements.get(sqlText);
      if (cached !== undefined) return cached;
      const statement = database.prepare(sqlText);
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

// The socket's or the server's own error under the wrappers (migration failed, database unavailable).
function connectionFailureIn(error: unknown): Error | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (!(current instanceof DatabaseUnavailableError) && isConnectionFailure(current)) return current;
    current = current.cause;
  }
  return null;
}

// Where the server looked, for a start-up message: the URL without its credentials.
function hostOf(databaseUrl: string): string {
  const url = URL.canParse(databaseUrl) ? new URL(databaseUrl) : null;
  return url === null ? 'DATABASE_URL' : url.host || url.searchParams.get('host') || 'localhost';
}

/** Opens the database and brings its schema up to date, under the start lock (server/db/start-lock.ts). */
export async function openMigratedDatabase(options: OpenDatabaseOptions): Promise<OpenedDatabase> {
  let opened: OpenedDatabase | null = null;
  try {
    opened = await openDatabase(options);
    const { db, dialect } = opened;
    await withStartLock(options, async () => {
      await migrateToLatest(db, dialect, options.pgSchema);
      await ensureSearchIndexes(db, dialect, options.log ?? CONSOLE_LOG);
    });
  } catch (error) {
    await opened?.db.destroy();
    // The schema and the lock are asked for outside Kysely: their errors come unclassified.
    const failure = connectionFailureIn(error);
    if (options.databaseUrl !== null && failure !== null) {
      // A host name with several addresses fails with an AggregateError whose message is empty.
      const reason = errorText(failure) || String((failure as { code?: unknown }).code ?? 'no answer');
      throw new Error(
        `The database at ${hostOf(options.databaseUrl)} cannot be reached (${reason}): check DATABASE_URL ` +
          'and that PostgreSQL is running',
        { cause: error },
      );
    }
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
