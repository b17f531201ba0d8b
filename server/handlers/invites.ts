// Accepting an invite: the caller (signed in with the invited address) is linked to the participant rows
// of that address, and gets the documents it opens.
import { recordAudit } from '../audit.ts';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import { actionDb, baseDb } from '../documents/access.ts';
import { serializeDocuments } from '../documents/serialize.ts';
import { notFound } from '../http/errors.ts';
import { actionMeta } from './document-actions.ts';

async function acceptInvite(req: OperationRequest<'acceptInvite'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const { invite_id: inviteId } = req.body;
  const accepted = await deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    const invite = await db.selectFrom('invites').selectAll().where('id', '=', inviteId).executeTakeFirst();
    // Someone else's invite answers like one that does not exist.
    if (invite === undefined || invite.email.toLowerCase() !== viewer.email.toLowerCase()) {
      throw notFound('Invite not found.');
    }
    const flows = db.selectFrom('sign_flows').select('id').where('document_id', '=', invite.document_id);
    await db
      .updateTable('sign_flow_participants')
      .set({ user_id: viewer.id })
      .where('email', '=', invite.email.toLowerCase())
      .where('user_id', 'is', null)
      .where('sign_flow_id', 'in', flows)
      .execute();
    if (invite.accepted_at !== null)
      return { id: invite.id, acceptedAt: invite.accepted_at, documentId: invite.document_id };
    const acceptedAt = meta.now.toISOString();
    await db
      .updateTable('invites')
      .set({ accepted_at: acceptedAt, accepted_by: viewer.id })
      .where('id', '=', invite.id)
      .execute();
    await recordAudit(baseDb(db), {
      documentId: invite.document_id,
      actorId: viewer.id,
      action: 'invite.accepted',
      ip: meta.ip,
      userAgent: meta.userAgent,
      at: meta.now,
      details: { inviteId: invite.id },
    });
    return { id: invite.id, acceptedAt, documentId: invite.document_id };
  });
  const rows = await deps.db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', accepted.documentId)
    .execute();
  return {
    data: { id: accepted.id, type: 'invites' as const, attributes: { acceptedAt: accepted.acceptedAt } },
    included: await serializeDocuments(deps, rows, viewer),
  };
}

export const inviteHandlers: Handlers = { acceptInvite };
