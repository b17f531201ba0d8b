// Mail that leaves Paraph. A message is queued as data (what to say, to whom, in which language) in the
// same transaction as the change that causes it, and rendered when it is sent, with links built from the
// configured public origin. The sender job claims each message with one conditional update, so several
// instances send it once; a refused send is tried again later, and a message that keeps failing is marked
// failed. Without an SMTP server the same job keeps messages for /dev/outbox instead of sending them.
// The old `outbox` table's rows (never sent) move here as kept text. Participants learn when their turn
// came (`due_at`) and when they were last reminded (`reminded_at`), for the reminders.
import { sql, type Kysely, type Migration } from 'kysely';

export const mailQueueMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('mail_queue')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('to_email', 'text', (col) => col.notNull())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('locale', 'text', (col) => col.notNull())
      .addColumn('params', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('run_after', 'text', (col) => col.notNull())
      .addColumn('locked_until', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema.createIndex('mail_queue_due').on('mail_queue').columns(['state', 'run_after']).execute();
    await db.schema.createIndex('mail_queue_recipient').on('mail_queue').column('to_email').execute();
    await sql`
      INSERT INTO mail_queue (id, to_email, kind, locale, params, state, attempts, run_after, created_at)
      SELECT id, to_email, 'text', 'en', '{}', 'kept', 0, created_at, created_at FROM outbox
    `.execute(db);
    // The text of the moved rows, as JSON built in SQL would differ between the dialects: copied row by row.
    const rows = await sql<{ id: string; subject: string; body: string }>`
      SELECT id, subject, body FROM outbox
    `.execute(db);
    for (const row of rows.rows) {
      await sql`UPDATE mail_queue SET params = ${JSON.stringify({ subject: row.subject, body: row.body })}
        WHERE id = ${row.id}`.execute(db);
    }
    await db.schema.dropTable('outbox').execute();

    await db.schema.alterTable('sign_flow_participants').addColumn('due_at', 'text').execute();
    await db.schema.alterTable('sign_flow_participants').addColumn('reminded_at', 'text').execute();
    // Whoever waits today has waited since their flow last changed, at the latest.
    await sql`
      UPDATE sign_flow_participants SET due_at = (
        SELECT updated_at FROM sign_flows WHERE sign_flows.id = sign_flow_participants.sign_flow_id
      ) WHERE state = 'pending'
    `.execute(db);
  },
};
