// Runs a migration's statements as one change. Kysely runs a PostgreSQL migration in a transaction of its
// own, not a SQLite one (its adapter declares no transactional DDL), so there the statements get theirs.
import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../dialect.ts';

export async function runAllOrNothing(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  statements: readonly string[],
): Promise<void> {
  const run = async () => {
    for (const statement of statements) await sql.raw(statement).execute(db);
  };
  if (dialect === 'postgres') {
    await run();
    return;
  }
  await sql`BEGIN IMMEDIATE`.execute(db);
  try {
    await run();
    await sql`COMMIT`.execute(db);
  } catch (error) {
    await sql`ROLLBACK`.execute(db);
    throw error;
  }
}
