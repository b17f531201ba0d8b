// The embedded SQLite file's driver, behind Kysely's SqliteDialect either way, so every query is the same;
// only the connection object differs (docs/decisions.md, "Node versions": "The SQLite driver").
// - Node 24 and later: Node's own node:sqlite. Nothing to compile, so an install there does not depend on
//   a native build, and Node no longer calls it experimental.
// - Node 20 and 22: better-sqlite3. Node 20 has no node:sqlite, and Node 22 warns that its own is
//   experimental. Should better-sqlite3 not load on Node 22 (not built, or built for another Node), its
//   node:sqlite serves instead.
import type { SqliteDatabase, SqliteStatement } from 'kysely';

export type SqliteDriverName = 'node:sqlite' | 'better-sqlite3';

export type OpenedSqliteFile = { database: SqliteDatabase; driver: SqliteDriverName };

/** A deterministic scalar SQL function of one value, which queries and triggers may call. */
export type SqliteFunction = (value: unknown) => unknown;
export type SqliteFunctions = Record<string, SqliteFunction>;

// What is used of node:sqlite. Its types are not in @types/node 20, kept at the oldest supported Node so
// that the type checker refuses APIs Node 20 lacks.
type NodeSqliteStatement = {
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): IterableIterator<unknown>;
  columns(): unknown[];
};
type NodeSqliteDatabase = {
  exec(sql: string): void;
  function(name: string, options: { deterministic: boolean }, fn: SqliteFunction): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
};
type NodeSqliteModule = {
  DatabaseSync: new (file: string, options?: Record<string, unknown>) => NodeSqliteDatabase;
  StatementSync: { prototype: Partial<NodeSqliteStatement> };
};

// The same settings on both drivers. busy_timeout: another process's write lock (a backup tool, the sqlite3
// shell) is waited for rather than failing at once. cache_size: better-sqlite3's built-in default, which
// node:sqlite does not share. mmap_size: the file is read through memory the system maps (as much of it as
// the build allows, 2 GiB for better-sqlite3) rather than a read call per page: a database of a million
// documents outgrows the page cache, and a search or a count that reads pages all over the file took
// several times longer through read calls.
const PRAGMAS = [
  'journal_mode = WAL',
  'foreign_keys = ON',
  'busy_timeout = 5000',
  'synchronous = NORMAL',
  'cache_size = -16000',
  'mmap_size = 17179869184',
];

/**
 * node:sqlite, when this Node has a version of it that can stand in for better-sqlite3: `columns()` (Node
 * 22.16, 23.11) tells a statement that returns rows from one that does not, as better-sqlite3's `reader`
 * does. Node 22.5 to 22.12 have node:sqlite behind a flag only, Node 20 not at all.
 */
function nodeSqlite(): NodeSqliteModule | null {
  const loaded = withoutExperimentalWarning(
    () => process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined,
  );
  if (loaded === undefined || typeof loaded.StatementSync?.prototype.columns !== 'function') return null;
  return loaded;
}

// Node 22 prints a warning of its own, as a line of plain text, the first time node:sqlite is loaded. It
// is loaded there only when better-sqlite3 cannot be, and the server then says so itself in its log
// (whose every line is JSON).
function withoutExperimentalWarning<T>(load: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.startsWith('SQLite is an experimental feature')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emitWarning;
  }
}

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * Opens the file with this Node's driver. `onFallback` hears why better-sqlite3 did not load when
 * node:sqlite serves in its place (Node 22).
 */
export async function openSqliteFile(
  file: string,
  onFallback: (reason: Error) => void = () => undefined,
  functions: SqliteFunctions = {},
): Promise<OpenedSqliteFile> {
  const preferred = NODE_MAJOR >= 24 ? nodeSqlite() : null;
  if (preferred !== null)
    return { database: openWithNodeSqlite(preferred, file, functions), driver: 'node:sqlite' };
  const opened = await openWithBetterSqlite3(file, functions);
  if (!(opened instanceof Error)) return { database: opened, driver: 'better-sqlite3' };
  const fallback = NODE_MAJOR >= 24 ? null : nodeSqlite();
  if (fallback !== null) {
    onFallback(opened);
    return { database: openWithNodeSqlite(fallback, file, functions), driver: 'node:sqlite' };
  }
  throw new Error(
    `The embedded database needs better-sqlite3 built for this Node (${process.version}): run ` +
      '`npm rebuild better-sqlite3`, use Node 24, or set DATABASE_URL to use PostgreSQL',
    { cause: opened },
  );
}

function openWithNodeSqlite(
  sqlite: NodeSqliteModule,
  file: string,
  functions: SqliteFunctions,
): SqliteDatabase {
  const database = new sqlite.DatabaseSync(file);
  for (const pragma of PRAGMAS) database.exec(`PRAGMA ${pragma}`);
  for (const [name, fn] of Object.entries(functions)) database.function(name, { deterministic: true }, fn);
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const statement = coded(() => database.prepare(sql));
      // Kysely hands the parameters over as one array, which better-sqlite3 takes as they are; node:sqlite
      // wants them one by one.
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => coded(() => statement.all(...parameters)),
        run: (parameters) => coded(() => statement.run(...parameters)),
        iterate: (parameters) => codedRows(coded(() => statement.iterate(...parameters))),
      };
    },
  };
}

// node:sqlite's errors all say ERR_SQLITE_ERROR, with SQLite's result code as a number (`errcode`);
// better-sqlite3's say SQLite's name for it (SQLITE_CONSTRAINT_UNIQUE), which is what the server looks for
// (a duplicate key is a 409, not a 500). node:sqlite's errors get that name too.
function coded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw withSqliteCode(error);
  }
}

function* codedRows(rows: IterableIterator<unknown>): IterableIterator<unknown> {
  try {
    yield* rows;
  } catch (error) {
    throw withSqliteCode(error);
  }
}

function withSqliteCode(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (error instanceof Error && typeof errcode === 'number') {
    (error as Error & { code: string }).code = sqliteCodeName(errcode);
  }
  return error;
}

// SQLite's primary result codes by number, and the extended codes the server may meet (the low byte is
// the primary code). Others are named by their primary code.
const PRIMARY_CODES = (
  'OK ERROR INTERNAL PERM ABORT BUSY LOCKED NOMEM READONLY INTERRUPT IOERR CORRUPT NOTFOUND FULL CANTOPEN ' +
  'PROTOCOL EMPTY SCHEMA TOOBIG CONSTRAINT MISMATCH MISUSE NOLFS AUTH FORMAT RANGE NOTADB NOTICE WARNING'
).split(' ');
const EXTENDED_CODES: Record<string, string[]> = {
  BUSY: ' RECOVERY SNAPSHOT TIMEOUT'.split(' '),
  LOCKED: ' SHAREDCACHE VTAB'.split(' '),
  READONLY: ' RECOVERY CANTLOCK ROLLBACK DBMOVED CANTINIT DIRECTORY'.split(' '),
  CONSTRAINT:
    ' CHECK COMMITHOOK FOREIGNKEY FUNCTION NOTNULL PRIMARYKEY TRIGGER UNIQUE VTAB ROWID PINNED DATATYPE'.split(
      ' ',
    ),
};

export function sqliteCodeName(errcode: number): string {
  const primary = PRIMARY_CODES[errcode & 0xff];
  if (primary === undefined) return 'SQLITE_ERROR';
  const extended = EXTENDED_CODES[primary]?.[errcode >> 8];
  return extended ? `SQLITE_${primary}_${extended}` : `SQLITE_${primary}`;
}

// The open file, or why better-sqlite3 cannot load: missing (an optional dependency whose build failed)
// or built for another Node's ABI, which shows only when its first database is opened. Any other error
// (a file that cannot be opened) is thrown.
async function openWithBetterSqlite3(
  file: string,
  functions: SqliteFunctions,
): Promise<SqliteDatabase | Error> {
  let database: import('better-sqlite3').Database;
  try {
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    database = new BetterSqlite3(file);
  } catch (error) {
    if (error instanceof Error && isModuleLoadFailure(error)) return error;
    throw error;
  }
  for (const pragma of PRAGMAS) database.pragma(pragma);
  for (const [name, fn] of Object.entries(functions)) database.function(name, { deterministic: true }, fn);
  return database;
}

function isModuleLoadFailure(error: Error): boolean {
  const { code } = error as { code?: unknown };
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_DLOPEN_FAILED')
    return true;
  // A binary built for another Node's ABI, or none built at all (the `bindings` package's message).
  return /NODE_MODULE_VERSION|Could not locate the bindings file/.test(error.message);
}
