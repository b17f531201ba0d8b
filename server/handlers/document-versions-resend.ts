// The confirmation request the identity app answers: one message to the signer with the absolute
// link of /idp/requests/{id}, sent by the sign call on the first request and by
// resendDocumentVersionNotification when the person says nothing arrived. Resending is limited to once in
// 5 s per version (the app's button is disabled that long too): the version's `notified_at` is claimed
// with one conditional update, so every instance shares the limit. The first request, sent by the sign
// call, does not count, so a resend right after it is allowed.
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { versionForSigner } from '../documents/signing-confirm.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { enqueueMail } from '../mail/queue.ts';
import type { SmartCardType } from '../signing/smart-card-type.ts';
import { sendTooManyRequests } from './connections.ts';

export const RESEND_INTERVAL_MS = 5000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notPending = (): ApiError =>
  new ApiError(409, 'version_not_pending', 'This signature request has been answered already.');

export type ConfirmationRequest = {
  to: string;
  filename: string;
  smartCardType: SmartCardType;
  location: string;
  versionId: string;
  now: Date;
};

/** Queues the request; in the sign call's transaction, so a refused call sends nothing. */
export async function sendConfirmationRequest(
  db: Kysely<Database>,
  request: ConfirmationRequest,
): Promise<void> {
  await enqueueMail(
    db,
    { email: request.to, fallbackLocale: 'en' },
    {
      kind: 'signature.confirmation',
      filename: request.filename,
      smartCardType: request.smartCardType,
      location: request.location,
      versionId: request.versionId,
    },
    request.now,
  );
}

async function resendDocumentVersionNotification(
  req: OperationRequest<'resendDocumentVersionNotification'>,
  reply: FastifyReply,
) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const id = req.params.id.toLowerCase();
  const version = UUID.test(id) ? await versionForSigner(deps, id, viewer.id) : null;
  if (version === null) throw notFound('Document version not found.');
  if (version.state !== 'pending') throw notPending();
  const now = deps.clock();
  const recently = new Date(now.getTime() - RESEND_INTERVAL_MS).toISOString();
  // One conditional update claims the send, so two instances answering a double click send once.
  const claimed = await deps.db
    .updateTable('document_versions')
    .set({ notified_at: now.toISOString() })
    .where('id', '=', id)
    .where('user_id', '=', viewer.id)
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('notified_at', 'is', null), eb('notified_at', '<=', recently)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) {
    const row = await deps.db
      .selectFrom('document_versions')
      .select(['state', 'notified_at'])
      .where('id', '=', id)
      .where('user_id', '=', viewer.id)
      .executeTakeFirst();
    if (row === undefined) throw notFound('Document version not found.');
    if (row.state !== 'pending') throw notPending();
    const sentAt = row.notified_at === null ? now.getTime() : Date.parse(row.notified_at);
    const waitMs = sentAt + RESEND_INTERVAL_MS - now.getTime();
    return sendTooManyRequests(reply, Math.max(1, Math.ceil(waitMs / 1000)));
  }
  await sendConfirmationRequest(deps.db, {
    to: viewer.email,
    filename: version.filename,
    smartCardType: version.smartCardType,
    location: version.location,
    versionId: version.id,
    now,
  });
  return reply.status(204).send();
}

export const documentVersionResendHandlers: Handlers = { resendDocumentVersionNotification };
