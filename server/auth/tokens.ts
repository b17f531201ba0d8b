// Opaque secrets (access tokens, session cookies) are 256-bit random values; only their SHA-256 is stored,
// so a copy of the database cannot be replayed as a credential.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuthUser } from '../context.ts';
import type { Database } from '../db/schema.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 12 * 60 * 60;
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
export const SESSION_COOKIE = 'paraph_session';
const LAST_SEEN_RESOLUTION_MS = 60_000;

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export async function createSession(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<{ cookieValue: string; expiresAt: Date }> {
  const cookieValue = newSecret();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
  await db
    .insertInto('sessions')
    .values({
      id: sha256Hex(cookieValue),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      revoked_at: null,
    })
    .execute();
  return { cookieValue, expiresAt };
}

export async function findSession(
  db: Kysely<Database>,
  cookieValue: string,
  now: Date,
): Promise<{ id: string; userId: string } | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['id', 'user_id'])
    .where('id', '=', sha256Hex(cookieValue))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row === undefined ? null : { id: row.id, userId: row.user_id };
}

export async function issueAccessToken(
  db: Kysely<Database>,
  userId: string,
  sessionId: string | null,
  now: Date,
): Promise<{ token: string; expiresInSeconds: number }> {
  const token = newSecret();
  await db
    .insertInto('access_tokens')
    .values({
      token_hash: sha256Hex(token),
      user_id: userId,
      session_id: sessionId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { token, expiresInSeconds: ACCESS_TOKEN_TTL_SECONDS };
}

export async function userForAccessToken(
  db: Kysely<Database>,
  token: string,
  now: Date,
): Promise<AuthUser | null> {
  const row = await db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .select(['users.id', 'users.email', 'users.full_name', 'users.last_seen_at'])
    .where('access_tokens.token_hash', '=', sha256Hex(token))
    .where('access_tokens.revoked_at', 'is', null)
    .where('access_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (row === undefined) return null;
  const lastSeen = row.last_seen_at === null ? 0 : Date.parse(row.last_seen_at);
  // Written at most once a minute so that a busy client does not turn every read into a write.
  if (now.getTime() - lastSeen >= LAST_SEEN_RESOLUTION_MS) {
    await db.updateTable('users').set({ last_seen_at: now.toISOString() }).where('id', '=', row.id).execute();
  }
  return { id: row.id, email: row.email, fullName: row.full_name };
}

export async function revokeAccessToken(db: Kysely<Database>, token: string, now: Date): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('token_hash', '=', sha256Hex(token))
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeSession(db: Kysely<Database>, sessionId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sessions')
      .set({ revoked_at: at })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .updateTable('access_tokens')
      .set({ revoked_at: at })
      .where('session_id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  });
}

export function bearerToken(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(authorization);
  return match?.[1] ?? null;
}
