// Upload grants (the presigned POST fields of createUploadRequest) are limited per person, counted from
// upload_requests itself so that every instance sharing the database shares the limit. The grant is
// written, then the person's grants of the last minute are counted, in one transaction that holds the
// person's row (PostgreSQL; SQLite runs one transaction at a time): parallel requests are counted one after
// another, so exactly the limit get through, never more.
import type { Insertable } from 'kysely';
import type { AppDeps } from '../context.ts';
import type { UploadRequestsTable } from '../db/schema.ts';
import { isPostgres } from '../documents/access.ts';

export const UPLOAD_GRANT_WINDOW_MS = 60 * 1000;

export type UploadGrantVerdict = { granted: true } | { granted: false; retryAfterSeconds: number };

class GrantRefused extends Error {
  retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super('Too many upload grants');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export async function insertUploadGrant(
  deps: AppDeps,
  grant: Insertable<UploadRequestsTable>,
  maxPerMinute: number,
): Promise<UploadGrantVerdict> {
  const now = new Date(grant.created_at);
  const since = new Date(now.getTime() - UPLOAD_GRANT_WINDOW_MS).toISOString();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (isPostgres(deps)) {
        // NO KEY UPDATE queues grant transactions of one person behind each other without blocking the
        // inserts elsewhere that only reference the person's row.
        await trx.selectFrom('users').select('id').where('id', '=', grant.user_id).forNoKeyUpdate().execute();
      }
      await trx.insertInto('upload_requests').values(grant).execute();
      const counted = await trx
        .selectFrom('upload_requests')
        .select((eb) => [
          eb.fn.countAll<string | number>().as('grants'),
          eb.fn.min('created_at').as('oldest'),
        ])
        .where('user_id', '=', grant.user_id)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(counted.grants) <= maxPerMinute) return;
      const oldest = typeof counted.oldest === 'string' ? Date.parse(counted.oldest) : now.getTime();
      // Throwing rolls the grant back: a refused request leaves no row to count against later ones.
      throw new GrantRefused(
        Math.max(1, Math.ceil((oldest + UPLOAD_GRANT_WINDOW_MS - now.getTime()) / 1000)),
      );
    });
  } catch (error) {
    if (error instanceof GrantRefused) return { granted: false, retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
  return { granted: true };
}
