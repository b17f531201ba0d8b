// Limits per client address for calls that need no account (signature verifications), counted in the
// database like the sign-in and per-user limits, so every instance shares them. An address counts as the
// sign-in limit counts it (addressKey: IPv4 as is, IPv6 by its /64), within a sliding window.
//
// Parallel calls: each call writes its row first, then counts the rows of its address in the window that
// came before it (by the rows' sequence), and goes through only if fewer than the limit did. A call
// refused takes its row back, so refused calls do not count: a client that waits the Retry-After it was
// given gets in. Rows written before a call are visible to it, so of N parallel calls exactly the limit
// go through (PostgreSQL may commit two sequence numbers out of order, which can let one more through).
import type { AppDeps } from '../context.ts';
import { toCount } from '../db/database.ts';
import { addressKey, type RateLimitVerdict } from './rate-limit.ts';

export type AddressRateLimit = { action: string; max: number; windowMs: number };

export async function consumeAddressRateLimit(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  ip: string,
  limit: AddressRateLimit,
): Promise<RateLimitVerdict> {
  const { db } = deps;
  const now = deps.clock();
  const since = new Date(now.getTime() - limit.windowMs).toISOString();
  const address = addressKey(ip);
  await db
    .deleteFrom('address_rate_limit_events')
    .where('action', '=', limit.action)
    .where('at', '<=', since)
    .execute();
  const inserted = await db
    .insertInto('address_rate_limit_events')
    .values({ address, action: limit.action, at: now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const earlier = db
    .selectFrom('address_rate_limit_events')
    .where('address', '=', address)
    .where('action', '=', limit.action)
    .where('at', '>', since)
    .where('id', '<', id);
  const row = await earlier.select((eb) => eb.fn.countAll<string | number>().as('calls')).executeTakeFirst();
  const before = toCount(row?.calls);
  if (before < limit.max) return { limited: false };

  await db.deleteFrom('address_rate_limit_events').where('id', '=', id).execute();
  // One more call fits once enough of the oldest calls let through have left the window.
  const freeing = await earlier
    .select('at')
    .orderBy('at', 'asc')
    .offset(before - limit.max)
    .limit(1)
    .executeTakeFirst();
  const freedAt = freeing === undefined ? now.getTime() : Date.parse(freeing.at) + limit.windowMs;
  // A parallel call's row may be stamped a moment after this call's clock: never more than the window.
  const waitMs = Math.min(limit.windowMs, freedAt - now.getTime());
  return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
