// The monthly sign limit of an account's plan (docs/decisions.md "Signing on the server"): the user's
// `document.signed` audit entries since the start of the calendar month (UTC). The audit trail outlives
// deleted documents, so deleting what one signed gives no signatures back.
import type { Kysely } from 'kysely';
import type { SignLimits } from '../config.ts';
import { toCount } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

export const SIGNED_ACTION = 'document.signed';

export type Plan = keyof SignLimits;

/** basic, qualified or advanced; anything else is read as the free plan. */
export function planOf(plan: string): Plan {
  return plan === 'qualified' || plan === 'advanced' ? plan : 'basic';
}

export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function signaturesThisMonth(db: Kysely<Database>, userId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('actor_id', '=', userId)
    .where('action', '=', SIGNED_ACTION)
    .where('at', '>=', monthStart(now).toISOString())
    .executeTakeFirst();
  return toCount(row?.n);
}

/** Whether the user has used up the month's signatures of their plan. */
export async function isSignLimitReached(
  db: Kysely<Database>,
  limits: SignLimits,
  userId: string,
  now: Date,
): Promise<boolean> {
  const user = await db.selectFrom('users').select('plan').where('id', '=', userId).executeTakeFirst();
  const limit = limits[planOf(user?.plan ?? 'basic')];
  if (limit === null) return false;
  return (await signaturesThisMonth(db, userId, now)) >= limit;
}
