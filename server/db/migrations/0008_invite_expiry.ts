// Invitation links are single-use and expire. `used_at` is when an account was created through the link
// (then it creates no other); the link expires PARAPH_INVITE_TTL_DAYS after `created_at`, a setting read
// when the link is used, so shortening it takes effect on the links already sent.
import type { Kysely, Migration } from 'kysely';

export const inviteExpiryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('invites').addColumn('used_at', 'text').execute();
  },
};
