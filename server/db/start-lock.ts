// Instances started together on one fresh PostgreSQL database would each migrate it and each seed the demo
// data, and all but one would fail on a duplicate key. What runs once per deployment at start runs under
// one session-level advisory lock instead: the first instance does the work, the others wait for it and
// then find nothing left to do.
//
// SQLite needs nothing of the kind: its file lives in one instance's data folder (several instances mean
// PostgreSQL), the SQLite driver holds the file's write lock for each transaction, and the migrator runs its
// migrations in one transaction.
import pg from 'pg';

export type StartLockOptions = {
  databaseUrl: string | null;
  // Test apps each work in a schema of their own: each schema has a lock of its own, so they never wait
  // for one another.
  pgSchema?: string;
};

// "Para" in ASCII: the advisory lock's class, so that it cannot meet another application's lock on a shared
// server by chance.
const LOCK_CLASS = 0x50617261;

// FNV-1a, folded into PostgreSQL's int4.
function lockId(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/**
 * Runs `work` while holding the deployment's start lock. On PostgreSQL the lock belongs to a connection of
 * its own, outside the pool: the work's queries may use any pooled connection, and should this process die,
 * the server ends the session and the lock with it.
 */
export async function withStartLock<T>(options: StartLockOptions, work: () => Promise<T>): Promise<T> {
  if (options.databaseUrl === null) return work();
  const client = new pg.Client({
    connectionString: options.databaseUrl,
    application_name: 'paraph start lock',
  });
  // A connection dropped while waiting or working rejects the query under way; the event itself must not
  // end the process.
  client.on('error', () => undefined);
  await client.connect();
  const id = lockId(options.pgSchema ?? '');
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS, id]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS, id]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
