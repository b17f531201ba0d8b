// The one way a message is sent: queued in the transaction of the change that causes it, so a change that
// rolls back sends nothing and a committed one is never forgotten (the sender job, ./sender.ts, sends it
// later, also after a restart).
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { toMailLocale, type MailLocale, type MailMessage } from './messages.ts';

type Db = Kysely<Database> | Transaction<Database>;

export type MailRecipient = {
  email: string;
  /** The recipient's language when known (their profile's); otherwise read from their account, if any. */
  locale?: string | null;
  /** For someone without an account: the language of whoever caused the message. */
  fallbackLocale: string;
};

/** The recipient's profile language, or the fallback (the sender's) for an address with no account. */
export async function recipientLocale(db: Db, email: string, fallback: string): Promise<MailLocale> {
  const user = await db
    .selectFrom('users')
    .select('locale')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  return toMailLocale(user?.locale ?? fallback);
}

export async function enqueueMail(
  db: Db,
  recipient: MailRecipient,
  message: MailMessage,
  now: Date,
): Promise<void> {
  const locale =
    recipient.locale === undefined || recipient.locale === null
      ? await recipientLocale(db, recipient.email, recipient.fallbackLocale)
      : toMailLocale(recipient.locale);
  const { kind, ...params } = message;
  const at = now.toISOString();
  await db
    .insertInto('mail_queue')
    .values({
      id: randomUUID(),
      to_email: recipient.email,
      kind,
      locale,
      params: JSON.stringify(params),
      state: 'queued',
      attempts: 0,
      run_after: at,
      locked_until: null,
      last_error: null,
      created_at: at,
      sent_at: null,
    })
    .execute();
}
