// Reading a sign flow and the simple flow actions: approve, reject, refuse, cancel. Each checks its flag
// from permissions.ts inside one transaction on the locked document; [4/6] replaces the transitions with
// the document-lifecycle machine.
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '../audit.ts';
import { currentUser } from '../auth/current-user.ts';
import type { Handlers } from '../context.ts';
import {
  actionDb,
  baseDb,
  actionNotAllowed,
  documentNotFound,
  isPostgres,
  loadDocumentContext,
  type ActionDb,
  type DocumentContext,
} from '../documents/access.ts';
import { endFlow, pendingOf, type ActionMeta } from '../documents/actions.ts';
import { serializeDocument } from '../documents/serialize.ts';
import { serializeSignFlow } from '../documents/sign-flow-serialize.ts';
import { ApiError } from '../http/errors.ts';
import { actionMeta } from './document-actions.ts';

function pathId(req: FastifyRequest): string {
  return (req.params as { id: string }).id;
}

// Runs one flow action on the locked document, then answers the document as the caller now sees it.
async function flowAction(
  req: FastifyRequest,
  act: (db: ActionDb, context: DocumentContext, meta: ActionMeta) => Promise<void>,
) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const id = pathId(req);
  await deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    const context = await loadDocumentContext(db, id, viewer, { lock: isPostgres(deps) });
    if (context === null) throw documentNotFound();
    await act(db, context, meta);
  });
  const row = await deps.db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { data: await serializeDocument(deps, row, viewer) };
}

async function approve(db: ActionDb, context: DocumentContext, meta: ActionMeta): Promise<void> {
  const { flow, row } = context;
  const mine = pendingOf(context.mine, 'reviewer');
  if (!context.permissions.currentUserCanReview || flow === null || mine.length === 0)
    throw actionNotAllowed();
  const now = meta.now.toISOString();
  await db
    .updateTable('sign_flow_participants')
    .set({ state: 'approved', approved_at: now })
    .where(
      'id',
      'in',
      mine.map((participant) => participant.id),
    )
    .execute();
  const myIds = new Set(mine.map((participant) => participant.id));
  const reviewComplete = context.participants
    .filter((participant) => participant.role === 'reviewer' && !myIds.has(participant.id))
    .every((participant) => participant.state === 'approved');
  if (reviewComplete) {
    // Every reviewer approved: signatures are collected, in order for an ordered flow.
    const waiting = context.participants.filter(
      (participant) => participant.role === 'signatory' && participant.state === 'waiting',
    );
    const invited = flow.type === 'ordered' ? waiting.slice(0, 1) : waiting;
    if (invited.length > 0) {
      await db
        .updateTable('sign_flow_participants')
        .set({ state: 'pending' })
        .where(
          'id',
          'in',
          invited.map((participant) => participant.id),
        )
        .execute();
    }
    await db
      .updateTable('sign_flows')
      .set({ state: 'awaiting_signs', updated_at: now })
      .where('id', '=', flow.id)
      .execute();
    await db
      .updateTable('documents')
      .set({ state: 'awaiting_signs', updated_at: now })
      .where('id', '=', row.id)
      .execute();
  }
  await recordAudit(baseDb(db), {
    documentId: row.id,
    actorId: meta.actorId,
    action: 'sign_flow.approved',
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: meta.now,
    details: { signFlowId: flow.id, reviewComplete },
  });
}

async function reject(db: ActionDb, context: DocumentContext, meta: ActionMeta): Promise<void> {
  const mine = pendingOf(context.mine, 'reviewer');
  if (!context.permissions.currentUserCanReview || mine.length === 0) throw actionNotAllowed();
  await db
    .updateTable('sign_flow_participants')
    .set({ state: 'rejected', rejected_at: meta.now.toISOString() })
    .where(
      'id',
      'in',
      mine.map((participant) => participant.id),
    )
    .execute();
  await endFlow(db, context, meta, 'rejected', 'sign_flow.rejected');
}

function refuseWith(reason: string | null) {
  return async (db: ActionDb, context: DocumentContext, meta: ActionMeta): Promise<void> => {
    const mine = pendingOf(context.mine, 'signatory');
    if (!context.permissions.currentUserCanRefuse || mine.length === 0) throw actionNotAllowed();
    await db
      .updateTable('sign_flow_participants')
      .set({ state: 'refused', refused_at: meta.now.toISOString(), refuse_reason: reason })
      .where(
        'id',
        'in',
        mine.map((participant) => participant.id),
      )
      .execute();
    await endFlow(db, context, meta, 'refused', 'sign_flow.refused', { reason });
  };
}

async function cancel(db: ActionDb, context: DocumentContext, meta: ActionMeta): Promise<void> {
  const { permissions, row } = context;
  if (permissions.isOwner && row.state === 'signed') {
    throw new ApiError(409, 'document_already_signed', 'The document is already signed.');
  }
  if (!permissions.currentUserCanCancel || context.flow === null) throw actionNotAllowed();
  await endFlow(db, context, meta, 'cancelled', 'sign_flow.cancelled');
}

export const signFlowHandlers: Handlers = {
  getSignFlow: async (req) => {
    const viewer = currentUser(req);
    const db = actionDb(req.server.deps.db);
    const context = await loadDocumentContext(db, pathId(req), viewer, { lock: false });
    if (context === null) throw documentNotFound();
    if (context.flow === null) throw new ApiError(404, 'no_sign_flow', 'The document has no sign flow.');
    return serializeSignFlow(db, context.flow, context.participants);
  },
  approveDocument: (req) => flowAction(req, approve),
  rejectDocument: (req) => flowAction(req, reject),
  refuseSignFlow: (req) => {
    const reason = (req.body as { reason?: string } | undefined)?.reason?.trim() ?? '';
    return flowAction(req, refuseWith(reason === '' ? null : reason));
  },
  cancelSignFlow: (req) => flowAction(req, cancel),
};
