// Smart cards and document versions (docs/decisions.md "Signing on the server"). A document
// version is one request to sign: it waits for the signer's confirmation in the identity app, and on
// confirmation holds the signed file's key and the hashes before and after. Every account that exists
// when this runs gets one personal_level2 card, so every user can sign.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';

export const signingMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('smart_cards')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('smart_card_type', 'text', (col) => col.notNull())
      .addColumn('description', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('smart_cards_user')
      .on('smart_cards')
      .columns(['user_id', 'created_at'])
      .execute();

    // `participant_id` is null for an owner's own signature of a document without a flow. It has no
    // foreign key: an edit may remove the participant, and the confirmation then finds the version no
    // longer allowed (cancelled) rather than losing its row. The placement columns are the request's.
    await db.schema
      .createTable('document_versions')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('document_id', 'text', (col) => col.notNull().references('documents.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('participant_id', 'text')
      .addColumn('smart_card_id', 'text', (col) => col.notNull())
      .addColumn('smart_card_type', 'text', (col) => col.notNull())
      .addColumn('location', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull().defaultTo(''))
      .addColumn('sign_page_number', 'integer')
      .addColumn('page_number', 'integer')
      .addColumn('top_fraction', 'text')
      .addColumn('left_fraction', 'text')
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('file_key', 'text')
      .addColumn('sha256_before', 'text')
      .addColumn('sha256_after', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('answered_at', 'text')
      .addColumn('expires_at', 'text', (col) => col.notNull())
      // When the confirmation request was last sent to the signer (the resend route's 5 s limit).
      .addColumn('notified_at', 'text')
      .execute();
    await db.schema
      .createIndex('document_versions_document')
      .on('document_versions')
      .columns(['document_id', 'state'])
      .execute();
    await db.schema
      .createIndex('document_versions_user')
      .on('document_versions')
      .columns(['user_id', 'state'])
      .execute();
    // The monthly sign limit counts the user's `document.signed` entries, which outlive the documents.
    await db.schema
      .createIndex('audit_events_actor_action')
      .on('audit_events')
      .columns(['actor_id', 'action', 'at'])
      .execute();

    const users = await sql<{ id: string }>`select id from users`.execute(db);
    const now = new Date().toISOString();
    for (const user of users.rows) {
      await sql`insert into smart_cards (id, user_id, smart_card_type, description, created_at)
        values (${randomUUID()}, ${user.id}, 'personal_level2', 'Paraph ID', ${now})`.execute(db);
    }
  },
};
