// Connection requests, sign groups and the per-user rate limits of [3/6] (docs/decisions.md,
// "Connections and sign groups").
import type { Kysely, Migration } from 'kysely';

export const connectionsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // Only pending requests are stored: accept, refuse and cancel delete the row. `pair_key` is the two
    // user ids in sorted order (or the sender and the invited address), so a unique index refuses a second
    // pending request between the same two, whichever way round and however concurrently they are sent.
    await db.schema
      .createTable('connection_requests')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('from_user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('to_user_id', 'text', (col) => col.references('users.id').onDelete('cascade'))
      .addColumn('invitation_email', 'text')
      .addColumn('pair_key', 'text', (col) => col.notNull().unique())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('connection_requests_from')
      .on('connection_requests')
      .column('from_user_id')
      .execute();
    await db.schema
      .createIndex('connection_requests_to')
      .on('connection_requests')
      .column('to_user_id')
      .execute();
    await db.schema
      .createIndex('connection_requests_invitation')
      .on('connection_requests')
      .column('invitation_email')
      .execute();

    await db.schema
      .createTable('sign_groups')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('sign_groups_owner').on('sign_groups').column('owner_id').execute();

    await db.schema
      .createTable('sign_group_members')
      .addColumn('group_id', 'text', (col) => col.notNull().references('sign_groups.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('position', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint('sign_group_members_pk', ['group_id', 'user_id'])
      .execute();

    // One row per counted call (profile search, connection request); old rows are pruned as new ones come.
    await db.schema
      .createTable('rate_limit_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limit_events_user_action_at')
      .on('rate_limit_events')
      .columns(['user_id', 'action', 'at'])
      .execute();
  },
};
