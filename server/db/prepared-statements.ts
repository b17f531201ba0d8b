// Statements that every list request runs, and whose plan does not depend on the values bound to them,
// are marked `prepared(...)`. PostgreSQL then parses and plans each of them once per connection (a named
// prepared statement, whose plan it keeps once it sees that one plan serves every value) instead of at every
// execution: planning a list's page cost PostgreSQL as much as running it. SQLite needs nothing of this:
// its connection keeps every statement prepared (database.ts).
//
// The mark is a comment at the start of the statement's text, so it travels with the text through Kysely
// to the pool below, which hands marked statements to node-postgres under a name made from their text. A
// statement whose text differs (another category, sort or limit) is another prepared statement; the few
// shapes of a list's page are all there is. Connection poolers that share one server connection between
// clients must keep named statements apart (PgBouncer 1.21 and later with max_prepared_statements set).
import { createHash } from 'node:crypto';
import {
  sql,
  type PostgresCursor,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type RawBuilder,
} from 'kysely';
import type pg from 'pg';

const MARK = '/* prepared */';

/** The query, marked for PostgreSQL to keep its plan (see above). */
export function prepared<T>(query: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(MARK)} ${query}`;
}

// The name of each marked text: the same text gets the same name on every connection. node-postgres keeps a
// named statement on its connection for as long as the connection lives, and PostgreSQL its plan with it,
// so only the first NAMES texts a process sees are named; any other runs as an ordinary statement. The
// texts of a list's pages without a search are a few hundred (category, sort, direction, limit); what
// varies more (how many people a search's name matched) then plans at each request as before.
const NAMES = 500;
const names = new Map<string, string>();

function nameOf(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= NAMES) return null;
    name = `paraph_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

class PreparingClient implements PostgresPoolClient {
  private readonly client: pg.PoolClient;

  constructor(client: pg.PoolClient) {
    this.client = client;
  }

  query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    statement: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    // Kysely streams through a cursor only when given one to stream with, which this server never is.
    if (typeof statement !== 'string') throw new Error('cursors are not used with this pool');
    const values = [...parameters];
    const name = statement.startsWith(MARK) ? nameOf(statement) : null;
    const result =
      name === null
        ? this.client.query(statement, values)
        : this.client.query({ name, text: statement, values });
    return result as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}

/** The pool as Kysely uses it, with marked statements prepared. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  // One wrapper per connection, so Kysely sees the same client each time it is lent out.
  const clients = new WeakMap<pg.PoolClient, PreparingClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (wrapped === undefined) {
        wrapped = new PreparingClient(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
