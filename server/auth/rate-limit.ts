// Sign-in attempts are counted in the database, so every instance behind a load balancer sees the same
// counters: 10 failures per e-mail or per IP address within 15 minutes lock further attempts.
import type { Kysely } from 'kysely';
import { toCount } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES = 10;

export type RateLimitVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

async function verdictFor(
  db: Kysely<Database>,
  column: 'email' | 'ip',
  value: string,
  now: Date,
): Promise<RateLimitVerdict> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString();
  const row = await db
    .selectFrom('sign_in_attempts')
    .select((eb) => [eb.fn.countAll<string | number>().as('failures'), eb.fn.min('at').as('oldest')])
    .where(column, '=', value)
    .where('succeeded', '=', 0)
    .where('at', '>', since)
    .executeTakeFirst();
  const failures = toCount(row?.failures);
  if (failures < SIGN_IN_MAX_FAILURES) return { limited: false };
  // Conservative: wait until the oldest failure of the window has expired.
  const oldest = typeof row?.oldest === 'string' ? Date.parse(row.oldest) : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + SIGN_IN_WINDOW_MS - now.getTime()) / 1000));
  return { limited: true, retryAfterSeconds };
}

export async function checkSignInRateLimit(
  db: Kysely<Database>,
  email: string,
  ip: string,
  now: Date,
): Promise<RateLimitVerdict> {
  const [byEmail, byIp] = await Promise.all([
    verdictFor(db, 'email', email, now),
    verdictFor(db, 'ip', ip, now),
  ]);
  if (!byEmail.limited) return byIp;
  if (!byIp.limited) return byEmail;
  return { limited: true, retryAfterSeconds: Math.max(byEmail.retryAfterSeconds, byIp.retryAfterSeconds) };
}

export async function recordSignInAttempt(
  db: Kysely<Database>,
  attempt: { email: string; ip: string; succeeded: boolean; at: Date },
): Promise<void> {
  await db
    .insertInto('sign_in_attempts')
    .values({
      email: attempt.email,
      ip: attempt.ip,
      at: attempt.at.toISOString(),
      succeeded: attempt.succeeded ? 1 : 0,
    })
    .execute();
}
