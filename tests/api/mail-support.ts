// The mail queue as a mailbox would show it: each queued message rendered the way the sender job renders
// it (its text version as `body`), for tests that check what a change says to whom.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { renderQueuedMail } from '../../server/mail/messages.ts';

export type QueuedMessage = {
  to_email: string;
  kind: string;
  locale: string;
  state: string;
  subject: string;
  body: string;
  html: string;
  created_at: string;
};

export async function queuedMessages(
  db: Kysely<Database>,
  options: { to?: string; origin?: string } = {},
): Promise<QueuedMessage[]> {
  let query = db.selectFrom('mail_queue').selectAll().orderBy('created_at');
  if (options.to !== undefined) query = query.where('to_email', '=', options.to);
  const rows = await query.execute();
  return rows.map((row) => {
    const rendered = renderQueuedMail(row, options.origin ?? 'http://localhost:8080');
    if (rendered === null) throw new Error(`unreadable queued message ${row.id} (${row.kind})`);
    return {
      to_email: row.to_email,
      kind: row.kind,
      locale: row.locale,
      state: row.state,
      subject: rendered.subject,
      body: rendered.text,
      html: rendered.html,
      created_at: row.created_at,
    };
  });
}

/** A message kept as plain text, as the queue holds those written before it existed. */
export async function keepTextMessage(
  db: Kysely<Database>,
  message: { to: string; subject: string; body: string; at?: Date },
): Promise<void> {
  const now = (message.at ?? new Date()).toISOString();
  await db
    .insertInto('mail_queue')
    .values({
      id: randomUUID(),
      to_email: message.to,
      kind: 'text',
      locale: 'en',
      params: JSON.stringify({ subject: message.subject, body: message.body }),
      state: 'kept',
      attempts: 0,
      run_after: now,
      locked_until: null,
      last_error: null,
      created_at: now,
      sent_at: null,
    })
    .execute();
}
