// Invites to a sign flow for an e-mail address ([2/6] accepts them; [4/6] creates them), and the
// participants' "delete for me" (docs/decisions.md, "Deleting and auto-deletion").
import type { Kysely, Migration } from 'kysely';

export const invitesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('document_id', 'text', (col) => col.notNull().references('documents.id').onDelete('cascade'))
      .addColumn('sign_flow_id', 'text', (col) => col.references('sign_flows.id').onDelete('set null'))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text', (col) => col.references('users.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('invites_document').on('invites').column('document_id').execute();

    // A participant who deleted a document "for themselves": it leaves their lists and details.
    await db.schema
      .createTable('document_hides')
      .addColumn('document_id', 'text', (col) => col.notNull().references('documents.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('hidden_at', 'text', (col) => col.notNull())
      .addPrimaryKeyConstraint('document_hides_pk', ['user_id', 'document_id'])
      .execute();
  },
};
