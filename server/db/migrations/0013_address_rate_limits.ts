// Limits per client address for what anyone may call without an account (signature verifications): one
// row per call let through, pruned as new ones come. Kept in the database like every other limit, so the
// instances behind a load balancer share the counts. The id is a sequence: calls are ranked by it.
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.ts';

export function addressRateLimitsMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('address_rate_limit_events')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
          dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('address', 'text', (col) => col.notNull())
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('address_rate_limit_events_address_action_at')
        .on('address_rate_limit_events')
        .columns(['address', 'action', 'at'])
        .execute();
      // Pruning takes every address's old rows of an action at once.
      await db.schema
        .createIndex('address_rate_limit_events_action_at')
        .on('address_rate_limit_events')
        .columns(['action', 'at'])
        .execute();
    },
  };
}
