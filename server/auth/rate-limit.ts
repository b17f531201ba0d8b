// Sign-in (and sign-up) attempts are counted in the database, so every instance behind a load balancer
// sees the same counters. The policy, within a sliding 15-minute window:
// - 10 failures for one account from one address stop that account's attempts from that address. The
//   owner, from any other address, is not stopped: a stranger cannot lock anyone out.
// - 50 failures from one address, whatever the accounts, stop every attempt from it (password spraying).
//   Only that address is affected.
// There is no lock-out of an account from everywhere: slow, distributed guessing is left to the cost of
// scrypt and to the passwords' length.
// An IPv6 address counts by its /64, the block one host usually gets, so that it cannot change address
// for every attempt.
//
// An attempt refused for the limit counts as a failure too: whoever keeps trying while limited keeps
// their own pair (or their own address) limited, and nobody else's.
//
// Parallel requests: each attempt is written (autocommitted) BEFORE its password is checked, and the
// window is counted after, including it. A request then sees at least every attempt that was written
// before its own, so of N parallel attempts no more than the limit get through to the password check.
import { isIPv6 } from 'node:net';
import type { Kysely } from 'kysely';
import { toCount } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failures for one account from one address. */
export const SIGN_IN_MAX_FAILURES = 10;
/** Failures from one address across all accounts. */
export const SIGN_IN_MAX_FAILURES_PER_ADDRESS = 50;

export type RateLimitVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

export type SignInAttempt = { id: number; verdict: RateLimitVerdict };

/** How the attempt ended: only `failed` attempts count against the limits. */
export type AttemptOutcome = 'succeeded' | 'failed' | 'not_counted';

function expandIpv6(ip: string): string[] | null {
  const [head = '', tail] = ip.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  if (tail === undefined) return left.length === 8 ? left : null;
  const missing = 8 - left.length - right.length;
  if (missing < 1) return null;
  return [...left, ...Array<string>(missing).fill('0'), ...right];
}

/** The address an attempt is counted under: IPv4 as is, IPv6 by its /64. */
export function addressKey(ip: string): string {
  const lower = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(\.\d{1,3}){3})$/.exec(lower);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(lower) || lower.includes('.')) return lower;
  const groups = expandIpv6(lower.split('%')[0] ?? lower);
  if (groups === null) return lower;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

type Key = { email: string | null; ip: string };

async function verdictFor(db: Kysely<Database>, key: Key, max: number, now: Date): Promise<RateLimitVerdict> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString();
  let failures = db
    .selectFrom('sign_in_attempts')
    .where('ip', '=', key.ip)
    .where('succeeded', '=', 0)
    .where('at', '>', since);
  if (key.email !== null) failures = failures.where('email', '=', key.email);
  const row = await failures
    .select((eb) => eb.fn.countAll<string | number>().as('failures'))
    .executeTakeFirst();
  // The count includes this attempt's own row.
  const count = toCount(row?.failures);
  if (count <= max) return { limited: false };
  // Attempts can resume once enough of the oldest failures (this one included) have left the window to
  // leave room for one more: the (count - max + 1)th oldest.
  const freeing = await failures
    .select('at')
    .orderBy('at', 'asc')
    .offset(count - max)
    .limit(1)
    .executeTakeFirst();
  const freedAt = freeing === undefined ? now.getTime() : Date.parse(freeing.at) + SIGN_IN_WINDOW_MS;
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((freedAt - now.getTime()) / 1000)) };
}

/**
 * Records an attempt for `email` from `ip` and says whether it may go on. A limited attempt stays
 * recorded as a failure; otherwise call finishSignInAttempt with its outcome.
 */
export async function beginSignInAttempt(
  db: Kysely<Database>,
  attempt: { email: string; ip: string; at: Date },
): Promise<SignInAttempt> {
  const ip = addressKey(attempt.ip);
  const inserted = await db
    .insertInto('sign_in_attempts')
    .values({ email: attempt.email, ip, at: attempt.at.toISOString(), succeeded: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const [byAccount, byAddress] = await Promise.all([
    verdictFor(db, { email: attempt.email, ip }, SIGN_IN_MAX_FAILURES, attempt.at),
    verdictFor(db, { email: null, ip }, SIGN_IN_MAX_FAILURES_PER_ADDRESS, attempt.at),
  ]);
  const verdict: RateLimitVerdict = !byAccount.limited
    ? byAddress
    : !byAddress.limited
      ? byAccount
      : {
          limited: true,
          retryAfterSeconds: Math.max(byAccount.retryAfterSeconds, byAddress.retryAfterSeconds),
        };
  return { id, verdict };
}

export async function finishSignInAttempt(
  db: Kysely<Database>,
  id: number,
  outcome: AttemptOutcome,
): Promise<void> {
  if (outcome === 'failed') return;
  if (outcome === 'succeeded') {
    await db.updateTable('sign_in_attempts').set({ succeeded: 1 }).where('id', '=', id).execute();
    return;
  }
  await db.deleteFrom('sign_in_attempts').where('id', '=', id).execute();
}
