// A database that is away (restarted, failed over, a connection killed by an administrator or a network
// blip) is a passing state, not a fault of the request: every query made through Kysely on PostgreSQL
// fails with DatabaseUnavailableError then, which the API answers with 503 and which background jobs
// wait out. Only the database's own errors are classified, so a store or mail server that cannot be
// reached never passes for a database outage.
import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresPool,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`The database cannot be reached: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'DatabaseUnavailableError';
  }
}

// Socket errors of Node's net and dns modules.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server that is going away or not taking connections: class 08 (connection exception) is
// matched by prefix; 57P01 admin_shutdown (also pg_terminate_backend), 57P02 crash_shutdown,
// 57P03 cannot_connect_now (starting up, recovering) and 53300 too_many_connections.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

// What node-postgres says, without a code, when a connection ends under it or cannot be had in time.
const CLIENT_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /is not queryable/,
];

/** True for an error of node-postgres or of the socket under it that says the server is away. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08/.test(code))) {
    return true;
  }
  // A host with several addresses fails with one AggregateError holding each address's refusal.
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  return CLIENT_MESSAGES.some((pattern) => pattern.test(error.message));
}

/**
 * True for a query that failed because the database is away, wherever the DatabaseUnavailableError sits in
 * the cause chain. A bare ECONNREFUSED is not enough: the object store's or the mail server's would look
 * the same.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (current instanceof DatabaseUnavailableError) return true;
    current = current.cause;
  }
  return false;
}

function classified(error: unknown): unknown {
  return !(error instanceof DatabaseUnavailableError) && isConnectionFailure(error)
    ? new DatabaseUnavailableError(error)
    : error;
}

class GuardedConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection;

  constructor(inner: DatabaseConnection) {
    this.inner = inner;
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(compiledQuery);
    } catch (error) {
      throw classified(error);
    }
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

// The PostgreSQL driver releases a connection through a private member of its own connection object, so
// the wrapper hands that one back; everything else goes through the wrapper and is classified there.
class GuardedDriver implements Driver {
  private readonly inner: Driver;

  constructor(inner: Driver) {
    this.inner = inner;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    try {
      return new GuardedConnection(await this.inner.acquireConnection());
    } catch (error) {
      throw classified(error);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.savepoint?.(connection, name, compileQuery);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.rollbackToSavepoint?.(connection, name, compileQuery);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compileQuery: QueryCompiler['compileQuery'],
  ): Promise<void> {
    await this.inner.releaseSavepoint?.(connection, name, compileQuery);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(
      connection instanceof GuardedConnection ? connection.inner : connection,
    );
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Kysely's PostgreSQL dialect, whose queries fail with DatabaseUnavailableError while the server is away. */
export class GuardedPostgresDialect extends PostgresDialect {
  constructor(pool: PostgresPool) {
    super({ pool });
  }

  override createDriver(): Driver {
    return new GuardedDriver(super.createDriver());
  }
}

export type WhileAwayOptions = {
  /** How many times the work is tried in all before the outage's error is thrown. */
  tries: number;
  delayMs: number;
  /** Called once, at the first failure, to say what is being waited for. */
  onAway?: (error: unknown) => void;
  /** Once aborted (a shutdown), the outage's error is thrown instead of waiting on. */
  signal?: AbortSignal;
};

/**
 * Runs a write that must not be lost to a passing outage (recording that a message went out, handing a
 * claimed job back): while the database is away it is tried again, every other error is thrown at once.
 */
export async function retryWhileDatabaseAway<T>(
  work: () => Promise<T>,
  options: WhileAwayOptions,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt >= options.tries || options.signal?.aborted === true) {
        throw error;
      }
      if (attempt === 1) options.onAway?.(error);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    }
  }
}
