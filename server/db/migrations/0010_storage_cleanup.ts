// Stored files that must go, written in the same transaction as the change that made them garbage (a
// document's delete), so that a crash between the commit and the removal leaves a row for the cleanup job
// rather than files nobody knows about. Also the indexes the upload grant limit and the cleanup of old
// upload requests read by.
import type { Kysely, Migration } from 'kysely';

export const storageCleanupMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // `object_key` is one key, or with `is_prefix` = 1 a folder such as `documents/<id>/` (ending in `/`)
    // whose every object goes. Nothing is removed before `not_before`: a guard written before a file is
    // stored must not remove it while the transaction that keeps it is still running.
    await db.schema
      .createTable('pending_deletions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('object_key', 'text', (col) => col.notNull())
      .addColumn('is_prefix', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('not_before', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('pending_deletions_not_before')
      .on('pending_deletions')
      .column('not_before')
      .execute();
    await db.schema
      .createIndex('upload_requests_user_created')
      .on('upload_requests')
      .columns(['user_id', 'created_at'])
      .execute();
    await db.schema
      .createIndex('upload_requests_expires')
      .on('upload_requests')
      .column('expires_at')
      .execute();
  },
};
