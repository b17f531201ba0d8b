// Document versions: one request to sign, answered in the identity app. Shared by the API
// (server/handlers/signing.ts), the confirmation (signing-confirm.ts) and the expiry job.
import type { Kysely } from 'kysely';
import type { components } from '../../openapi/schema';
import type { Database, DocumentVersionRow, DocumentVersionState } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';

/** A request not confirmed within this time is cancelled. */
export const VERSION_TTL_MS = 10 * 60 * 1000;

type ContractVersion = components['schemas']['DocumentVersion'];
export type ContractVersionState = components['schemas']['DocumentVersionState'];

export const versionNotFound = (): ApiError => new ApiError(404, 'not_found', 'Document version not found.');

/** The states a request can end in; `pending` and `signing` are still open. */
export const ANSWERED_STATES: readonly DocumentVersionState[] = [
  'signed',
  'sign_limit_exceeded',
  'presign_error',
  'denied',
  'cancelled',
];

// The app keeps polling while the signature is applied: to it, `signing` is still pending.
export function apiStateOf(state: DocumentVersionState): ContractVersionState {
  return state === 'signing' ? 'pending' : state;
}

export function confirmationPath(versionId: string): string {
  return `/idp/requests/${versionId}`;
}

// `origin` is the configured public origin (config.publicOrigin), never the request's Host.
export function serializeVersion(version: DocumentVersionRow, origin: string): ContractVersion {
  return {
    id: version.id,
    type: 'documentVersions',
    attributes: {
      state: apiStateOf(version.state),
      documentId: version.document_id,
      confirmationUrl: `${origin}${confirmationPath(version.id)}`,
      createdAt: version.created_at,
    },
  };
}

/**
 * Cancels the pending requests whose time is up (of one user, or all). Every read runs it first, so a
 * request is never seen pending after it expired, whether or not the periodic job has run.
 */
export async function expirePendingVersions(db: Kysely<Database>, now: Date, userId?: string): Promise<void> {
  let query = db
    .updateTable('document_versions')
    .set({ state: 'cancelled', answered_at: now.toISOString() })
    .where('state', '=', 'pending')
    .where('expires_at', '<=', now.toISOString());
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  await query.execute();
}

/** The user's own version, or null (anyone else's is as unknown as a made-up id). */
export async function ownVersion(
  db: Kysely<Database>,
  versionId: string,
  userId: string,
): Promise<DocumentVersionRow | null> {
  const row = await db
    .selectFrom('document_versions')
    .selectAll()
    .where('id', '=', versionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}
