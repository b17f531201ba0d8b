// Error reports sent from the app's error screen. The route is a path only (no query string, so
// no token or search term is ever kept); `user_id` is null for a report sent before sign-in or with a
// token that is no longer valid, and becomes null if the account is deleted. `ip` is kept for the
// per-address limit, which counts this table's own rows.
import type { Kysely, Migration } from 'kysely';

export const errorReportsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('error_reports')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('message', 'text', (col) => col.notNull())
      .addColumn('stack', 'text')
      .addColumn('route', 'text', (col) => col.notNull())
      .addColumn('version', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('error_reports_ip_at')
      .on('error_reports')
      .columns(['ip', 'created_at'])
      .execute();
  },
};
