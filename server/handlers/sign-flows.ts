// The sign flow: create, edit, read, and the flow actions (approve, reject, refuse, cancel). Every state
// change is an event of the document-lifecycle machine (server/documents/sign-flow-lifecycle.ts), applied
// inside one transaction on the document row, which is locked on PostgreSQL (SELECT ... FOR UPDATE) and
// serialised by SQLite: two actions on one document run one after the other and the second sees the
// first's result.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordAudit } from '../audit.ts';
import { currentUser } from '../auth/current-user.ts';
import type { AuthUser, Handlers, OperationRequest } from '../context.ts';
import type { RequestWithId } from '../http/typed-handler.ts';
import type { ParticipantRole, ParticipantRow } from '../db/schema.ts';
import {
  actionDb,
  actionNotAllowed,
  baseDb,
  documentNotFound,
  isPostgres,
  loadDocumentContext,
  type ActionDb,
  type DocumentContext,
} from '../documents/access.ts';
import type { ActionMeta } from '../documents/actions.ts';
import { serializeDocument } from '../documents/serialize.ts';
import {
  checkAgainstDocument,
  checkEdit,
  checkOverlaps,
  parseSignFlowBody,
  type SignFlowInput,
} from '../documents/sign-flow-input.ts';
import {
  newlyDue,
  persistTransition,
  recordOf,
  transition,
  type LifecycleEvent,
  type Transition,
} from '../documents/sign-flow-lifecycle.ts';
import { flowMessageContext, inviteNewcomers, notifyDue } from '../documents/sign-flow-notify.ts';
import { serializeSignFlow } from '../documents/sign-flow-serialize.ts';
import { ApiError } from '../http/errors.ts';
import { actionMeta } from './document-actions.ts';

function pathId(req: RequestWithId): string {
  return req.params.id;
}

function audit(db: ActionDb, meta: ActionMeta, documentId: string, action: string, details: object) {
  return recordAudit(baseDb(db), {
    documentId,
    actorId: meta.actorId,
    action,
    ip: meta.ip,
    userAgent: meta.userAgent,
    at: meta.now,
    details: { ...details },
  });
}

async function loadLocked(db: ActionDb, req: RequestWithId, viewer: AuthUser): Promise<DocumentContext> {
  const context = await loadDocumentContext(db, pathId(req), viewer, { lock: isPostgres(req.server.deps) });
  if (context === null) throw documentNotFound();
  return context;
}

async function participantsOf(db: ActionDb, flowId: string): Promise<ParticipantRow[]> {
  return db
    .selectFrom('sign_flow_participants')
    .selectAll()
    .where('sign_flow_id', '=', flowId)
    .orderBy('position')
    .execute();
}

// ------------------------------------------------------------------ create and edit

type Planned = { id: string; role: ParticipantRole; position: number; email: string; existing: boolean };

// Signatories first, in the order sent (the signing order of an ordered flow), then reviewers. An edit
// keeps the id of everyone who stays in the same role, so their state (approved, signed) stays theirs.
function plan(input: SignFlowInput, existing: readonly ParticipantRow[]): Planned[] {
  const keep = new Map(existing.map((row) => [`${row.role}:${row.email.toLowerCase()}`, row.id]));
  const listed: { role: ParticipantRole; email: string }[] = [
    ...input.signatories.map((email) => ({ role: 'signatory' as const, email })),
    ...input.reviewers.map((email) => ({ role: 'reviewer' as const, email })),
  ];
  return listed.map(({ role, email }, index) => {
    const id = keep.get(`${role}:${email}`);
    return { id: id ?? randomUUID(), role, position: index + 1, email, existing: id !== undefined };
  });
}

/** Height over width of each rendered page, as the placement editor measured it from the same images. */
async function pageRatios(db: ActionDb, documentId: string): Promise<Map<number, number>> {
  const pages = await db
    .selectFrom('document_pages')
    .select(['page_number', 'width', 'height'])
    .where('document_id', '=', documentId)
    .execute();
  return new Map(
    pages
      .filter((page) => page.width > 0 && page.height > 0)
      .map((page) => [page.page_number, page.height / page.width]),
  );
}

async function accountsByEmail(db: ActionDb, emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const users = await db.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute();
  return new Map(users.map((user) => [user.email.toLowerCase(), user.id]));
}

async function saveSignFlow(
  req: OperationRequest<'createSignFlow' | 'updateSignFlow'>,
  mode: 'create' | 'edit',
): Promise<{ flowId: string }> {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const input = parseSignFlowBody(req.body);
  return deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    const context = await loadLocked(db, req, viewer);
    // Only the owner starts or edits a flow; a participant sees the document, so the answer is a 409.
    if (!context.permissions.isOwner) throw actionNotAllowed();
    checkAgainstDocument(input, context.row.page_count);
    const oldFlow = context.flow;
    const placementsBefore =
      oldFlow === null
        ? []
        : await db
            .selectFrom('signature_placements')
            .selectAll()
            .where('sign_flow_id', '=', oldFlow.id)
            .execute();
    if (mode === 'edit') {
      if (oldFlow === null) throw new ApiError(404, 'no_sign_flow', 'The document has no sign flow.');
      checkEdit(input, oldFlow, context.participants, placementsBefore);
    }
    if (input.placements.length > 1) {
      // Only an edit keeps who has signed; a new flow starts everyone afresh.
      const signed = new Set(
        mode === 'edit'
          ? context.participants
              .filter((row) => row.role === 'signatory' && row.state === 'signed')
              .map((row) => row.email.toLowerCase())
          : [],
      );
      checkOverlaps(input, await pageRatios(db, context.row.id), signed);
    }
    // A new flow (also after a cancelled, refused or rejected one) gets new participants; an edit keeps
    // whoever stays.
    const planned = plan(input, mode === 'edit' ? context.participants : []);
    const flowSpec = { type: input.type, minimumRequiredSigns: input.minimumRequiredSigns };
    const event: LifecycleEvent = {
      type: mode === 'create' ? 'flow.start' : 'flow.edit',
      flow: flowSpec,
      participants: planned.map(({ id, role, position }) => ({ id, role, position })),
    };
    const step = transition(recordOf(context.row, oldFlow, context.participants), event);

    const now = meta.now.toISOString();
    const flowId = oldFlow?.id ?? randomUUID();
    const flowValues = {
      type: input.type,
      comment: input.comment,
      minimum_required_signs: input.minimumRequiredSigns,
      sign_page_number: input.signPageNumber,
      updated_at: now,
    };
    if (oldFlow === null) {
      await db
        .insertInto('sign_flows')
        .values({
          id: flowId,
          document_id: context.row.id,
          ...flowValues,
          state: 'in_review',
          created_at: now,
        })
        .execute();
    } else {
      await db
        .updateTable('sign_flows')
        .set({ ...flowValues, ...(mode === 'create' ? { created_at: now } : {}) })
        .where('id', '=', flowId)
        .execute();
    }

    const staying = new Set(planned.filter((entry) => entry.existing).map((entry) => entry.id));
    const removed = context.participants.filter((row) => !staying.has(row.id));
    if (removed.length > 0) {
      await db
        .deleteFrom('sign_flow_participants')
        .where(
          'id',
          'in',
          removed.map((row) => row.id),
        )
        .execute();
    }
    const accounts = await accountsByEmail(
      db,
      planned.map((entry) => entry.email),
    );
    const stateAfter = new Map(step.after.participants.map((participant) => [participant.id, participant]));
    const previous = new Map(context.participants.map((row) => [row.id, row]));
    for (const entry of planned) {
      const state = stateAfter.get(entry.id)?.state ?? 'waiting';
      const old = previous.get(entry.id);
      if (entry.existing && old !== undefined) {
        await db
          .updateTable('sign_flow_participants')
          .set({
            position: entry.position,
            state,
            // The reminders count from when the turn came.
            ...(state === 'pending' && old.state !== 'pending' ? { due_at: now, reminded_at: null } : {}),
          })
          .where('id', '=', entry.id)
          .execute();
        continue;
      }
      await db
        .insertInto('sign_flow_participants')
        .values({
          id: entry.id,
          sign_flow_id: flowId,
          role: entry.role,
          position: entry.position,
          email: entry.email,
          user_id: accounts.get(entry.email) ?? null,
          state,
          signed_at: null,
          refused_at: null,
          approved_at: null,
          rejected_at: null,
          refuse_reason: null,
          due_at: state === 'pending' ? now : null,
        })
        .execute();
    }
    // The participants' rows are written above; only the document's and the flow's states remain.
    await persistTransition(
      db,
      { documentId: context.row.id, flowId },
      { before: step.before, after: { ...step.after, participants: [] } },
      meta,
    );

    // Placements: replaced as sent; a signed signatory's was checked to be unchanged, and keeps its strings.
    const keptPlacements = placementsBefore.filter((placement) => {
      const owner = previous.get(placement.participant_id);
      return owner !== undefined && owner.state === 'signed' && staying.has(owner.id);
    });
    await db
      .deleteFrom('signature_placements')
      .where('sign_flow_id', '=', flowId)
      .where('id', 'not in', ['', ...keptPlacements.map((placement) => placement.id)])
      .execute();
    const keptFor = new Set(keptPlacements.map((placement) => placement.participant_id));
    for (const placement of input.placements) {
      const signatory = planned.find(
        (entry) => entry.role === 'signatory' && entry.email === placement.email,
      );
      if (signatory === undefined || keptFor.has(signatory.id)) continue;
      await db
        .insertInto('signature_placements')
        .values({
          id: randomUUID(),
          sign_flow_id: flowId,
          participant_id: signatory.id,
          page_number: placement.pageNumber,
          top_fraction: placement.top,
          left_fraction: placement.left,
        })
        .execute();
    }

    const rows = await participantsOf(db, flowId);
    const messages = await flowMessageContext(
      db,
      context.row,
      { id: flowId, comment: input.comment },
      meta.now,
    );
    const before = new Set(context.participants.map((row) => `${row.role}:${row.email}`));
    const added = rows.filter((row) => mode === 'create' || !before.has(`${row.role}:${row.email}`));
    const invited = await inviteNewcomers(db, messages, added, deps.config.inviteTtlDays);
    await notifyDue(db, messages, newlyDue(step), rows, new Set(invited.keys()));
    await audit(db, meta, context.row.id, mode === 'create' ? 'sign_flow.created' : 'sign_flow.updated', {
      signFlowId: flowId,
      type: input.type,
      state: step.after.state,
      signatoryIds: rows.filter((row) => row.role === 'signatory').map((row) => row.id),
      reviewerIds: rows.filter((row) => row.role === 'reviewer').map((row) => row.id),
      removedIds: removed.map((row) => row.id),
      minimumRequiredSigns: input.minimumRequiredSigns,
      signPageNumber: input.signPageNumber,
      placements: input.placements.length,
      // The addresses, not the invites' ids: an id is the sign-up link itself.
      invited: [...invited.keys()],
    });
    return { flowId };
  });
}

async function answerSignFlow(req: FastifyRequest, reply: FastifyReply, status: number, flowId: string) {
  const db = actionDb(req.server.deps.db);
  const flow = await db
    .selectFrom('sign_flows')
    .selectAll()
    .where('id', '=', flowId)
    .executeTakeFirstOrThrow();
  reply.status(status);
  return serializeSignFlow(db, flow, await participantsOf(db, flow.id));
}

// ------------------------------------------------------------------ the flow actions

type FlowAction = (db: ActionDb, context: DocumentContext, meta: ActionMeta) => Promise<void>;

// Runs one flow action on the locked document, then answers the document as the caller now sees it.
async function flowAction(req: RequestWithId, act: FlowAction) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const meta = actionMeta(req, viewer);
  const id = pathId(req);
  await deps.db.transaction().execute(async (trx) => {
    const db = actionDb(trx);
    await act(db, await loadLocked(db, req, viewer), meta);
  });
  const row = await deps.db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { data: await serializeDocument(deps, row, viewer) };
}

// The caller's own participant row in `role` that the machine lets act now (a person is listed once per
// role, but rows from before [4/6] may repeat an address).
function actingParticipant(
  context: DocumentContext,
  role: ParticipantRole,
  event: (participantId: string) => LifecycleEvent,
): Transition {
  const before = recordOf(context.row, context.flow, context.participants);
  for (const row of context.mine.filter((participant) => participant.role === role)) {
    try {
      return transition(before, event(row.id));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  throw actionNotAllowed();
}

async function finish(
  db: ActionDb,
  context: DocumentContext,
  step: Transition,
  meta: ActionMeta,
  action: string,
  details: object,
  extra: { refuseReason?: string | null } = {},
): Promise<void> {
  const flow = context.flow;
  if (flow === null) throw actionNotAllowed();
  await persistTransition(db, { documentId: context.row.id, flowId: flow.id }, step, meta, extra);
  await audit(db, meta, context.row.id, action, { signFlowId: flow.id, state: step.after.state, ...details });
}

const approve: FlowAction = async (db, context, meta) => {
  const step = actingParticipant(context, 'reviewer', (participantId) => ({
    type: 'review.approve',
    participantId,
  }));
  await finish(db, context, step, meta, 'sign_flow.approved', {
    reviewComplete: step.after.state !== 'in_review',
  });
};

const reject: FlowAction = async (db, context, meta) => {
  const step = actingParticipant(context, 'reviewer', (participantId) => ({
    type: 'review.reject',
    participantId,
  }));
  await finish(db, context, step, meta, 'sign_flow.rejected', {});
};

function refuseWith(reason: string | null): FlowAction {
  return async (db, context, meta) => {
    const step = actingParticipant(context, 'signatory', (participantId) => ({
      type: 'flow.refuse',
      participantId,
    }));
    await finish(db, context, step, meta, 'sign_flow.refused', { reason }, { refuseReason: reason });
  };
}

const cancel: FlowAction = async (db, context, meta) => {
  if (!context.permissions.isOwner || context.flow === null) throw actionNotAllowed();
  const step = transition(
    recordOf(context.row, context.flow, context.participants),
    { type: 'flow.cancel' },
    () =>
      context.row.state === 'signed'
        ? new ApiError(409, 'document_already_signed', 'The document is already signed.')
        : actionNotAllowed(),
  );
  await finish(db, context, step, meta, 'sign_flow.cancelled', {});
};

export const signFlowHandlers: Handlers = {
  getSignFlow: async (req) => {
    const viewer = currentUser(req);
    const db = actionDb(req.server.deps.db);
    const context = await loadDocumentContext(db, pathId(req), viewer, { lock: false });
    if (context === null) throw documentNotFound();
    if (context.flow === null) throw new ApiError(404, 'no_sign_flow', 'The document has no sign flow.');
    return serializeSignFlow(db, context.flow, context.participants);
  },
  createSignFlow: async (req, reply) => {
    const { flowId } = await saveSignFlow(req, 'create');
    return answerSignFlow(req, reply, 201, flowId);
  },
  updateSignFlow: async (req, reply) => {
    const { flowId } = await saveSignFlow(req, 'edit');
    return answerSignFlow(req, reply, 200, flowId);
  },
  approveDocument: (req) => flowAction(req, approve),
  rejectDocument: (req) => flowAction(req, reject),
  refuseSignFlow: (req) => {
    const reason = req.body.reason?.trim() ?? '';
    return flowAction(req, refuseWith(reason === '' ? null : reason));
  },
  cancelSignFlow: (req) => flowAction(req, cancel),
};
