// The messages a sign flow sends, queued in the action's transaction (so a rolled-back action sends
// nothing): an invitation to each person added by an address with no account yet, a notification to each
// participant whose turn has just come, and, when the flow ends, the news to the people it concerned.
// Every transition of a document is written by persistTransition, which asks notifyTransition what to
// say, so no action can change a flow without the people it waits for hearing of it.
import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../config.ts';
import type { ParticipantRow } from '../db/schema.ts';
import { enqueueMail } from '../mail/queue.ts';
import type { DocumentTarget, Person } from '../mail/messages.ts';
import type { ActionDb } from './access.ts';
import type { ActionMeta } from './actions.ts';
import {
  participantsToNotify,
  type LifecycleParticipant,
  type LifecycleRecord,
} from '../../machines/document-lifecycle.ts';

export { documentPath, invitePath, signUpPath } from '../mail/messages.ts';

/** Invites created before this moment have expired (PARAPH_INVITE_TTL_DAYS). */
export function inviteCutoff(now: Date, inviteTtlDays: number): string {
  return new Date(now.getTime() - inviteTtlDays * DAY_MS).toISOString();
}

export type FlowMessageContext = {
  documentId: string;
  flowId: string;
  filename: string;
  /** The document's owner, who sends the flow; their language is the fallback for someone without an account. */
  sender: Person & { id: string; locale: string };
  comment: string;
  now: Date;
};

/** The flow's messages name the owner: read once per action. */
export async function flowMessageContext(
  db: ActionDb,
  document: { id: string; owner_id: string; original_filename: string },
  flow: { id: string; comment: string },
  now: Date,
): Promise<FlowMessageContext> {
  const owner = await db
    .selectFrom('users')
    .select(['id', 'full_name', 'email', 'locale'])
    .where('id', '=', document.owner_id)
    .executeTakeFirstOrThrow();
  return {
    documentId: document.id,
    flowId: flow.id,
    filename: document.original_filename,
    sender: { id: owner.id, fullName: owner.full_name, email: owner.email, locale: owner.locale },
    comment: flow.comment,
    now,
  };
}

/**
 * Invites every given participant whose address has no account and no open invite to this document yet
 * (someone added again keeps the link they already have, unless it has expired or been used). Answers
 * the new invites' ids by address.
 */
export async function inviteNewcomers(
  db: ActionDb,
  context: FlowMessageContext,
  participants: readonly Pick<ParticipantRow, 'email' | 'user_id' | 'role'>[],
  inviteTtlDays: number,
): Promise<Map<string, string>> {
  const invites = new Map<string, string>();
  for (const participant of participants) {
    if (participant.user_id !== null || invites.has(participant.email)) continue;
    const open = await db
      .selectFrom('invites')
      .select('id')
      .where('document_id', '=', context.documentId)
      .where('email', '=', participant.email)
      .where('accepted_at', 'is', null)
      .where('used_at', 'is', null)
      .where('created_at', '>', inviteCutoff(context.now, inviteTtlDays))
      .executeTakeFirst();
    if (open !== undefined) continue;
    const id = randomUUID();
    await db
      .insertInto('invites')
      .values({
        id,
        email: participant.email,
        document_id: context.documentId,
        sign_flow_id: context.flowId,
        created_at: context.now.toISOString(),
        accepted_at: null,
        accepted_by: null,
      })
      .execute();
    invites.set(participant.email, id);
    await enqueueMail(
      db,
      { email: participant.email, fallbackLocale: context.sender.locale },
      {
        kind: 'flow.invitation',
        role: participant.role,
        sender: { fullName: context.sender.fullName, email: context.sender.email },
        filename: context.filename,
        comment: context.comment,
        email: participant.email,
        inviteId: id,
      },
      context.now,
    );
  }
  return invites;
}

/** Where a participant's link leads: the document's page, or their invitation while they have no account. */
export async function targetFor(
  db: ActionDb,
  documentId: string,
  participant: Pick<ParticipantRow, 'email' | 'user_id'>,
): Promise<DocumentTarget> {
  if (participant.user_id !== null) return { documentId, inviteId: null };
  const invite = await db
    .selectFrom('invites')
    .select('id')
    .where('document_id', '=', documentId)
    .where('email', '=', participant.email)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return { documentId, inviteId: invite?.id ?? null };
}

/** Tells each participant whose turn has come; someone invited in the same action already knows. */
export async function notifyDue(
  db: ActionDb,
  context: FlowMessageContext,
  due: readonly LifecycleParticipant[],
  rows: readonly ParticipantRow[],
  justInvited: ReadonlySet<string>,
): Promise<void> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const participant of due) {
    const row = byId.get(participant.id);
    if (row === undefined || justInvited.has(row.email)) continue;
    await enqueueMail(
      db,
      { email: row.email, fallbackLocale: context.sender.locale },
      {
        kind: 'flow.turn',
        role: row.role,
        sender: { fullName: context.sender.fullName, email: context.sender.email },
        filename: context.filename,
        comment: context.comment,
        target: await targetFor(db, context.documentId, row),
      },
      context.now,
    );
  }
}

const ENDINGS = {
  signed: 'flow.completed',
  refused: 'flow.refused',
  rejected: 'flow.rejected',
  cancelled: 'flow.cancelled',
} as const;

type Ending = keyof typeof ENDINGS;

function endingOf(before: LifecycleRecord, after: LifecycleRecord): Ending | null {
  if (before.state === after.state || !(after.state in ENDINGS)) return null;
  return after.state as Ending;
}

export type TransitionNotice = {
  /** The document was deleted with this change: the news carries no link to it. */
  documentDeleted?: boolean;
  refuseReason?: string | null;
};

/**
 * What a written transition says, and to whom: the participants whose turn has just come, and when the
 * flow ends, the owner and the participants it concerned (completion: everyone, with the link where the
 * signed PDF downloads; a refusal, a rejection or a cancel: everyone who had heard of the flow, except
 * whoever ended it).
 */
export async function notifyTransition(
  db: ActionDb,
  ids: { documentId: string; flowId: string | null },
  step: { before: LifecycleRecord; after: LifecycleRecord },
  meta: ActionMeta,
  notice: TransitionNotice = {},
): Promise<void> {
  if (ids.flowId === null) return;
  const due = participantsToNotify(step.before, step.after);
  const ending = endingOf(step.before, step.after);
  if (due.length === 0 && ending === null) return;
  const document = await db
    .selectFrom('documents')
    .select(['id', 'owner_id', 'original_filename'])
    .where('id', '=', ids.documentId)
    .executeTakeFirstOrThrow();
  const flow = await db
    .selectFrom('sign_flows')
    .select(['id', 'comment'])
    .where('id', '=', ids.flowId)
    .executeTakeFirstOrThrow();
  const context = await flowMessageContext(db, document, flow, meta.now);
  const rows = await db
    .selectFrom('sign_flow_participants')
    .selectAll()
    .where('sign_flow_id', '=', ids.flowId)
    .orderBy('position')
    .execute();
  if (due.length > 0) await notifyDue(db, context, due, rows, new Set());
  if (ending !== null) await notifyEnding(db, context, ending, step.before, rows, meta, notice);
}

async function notifyEnding(
  db: ActionDb,
  context: FlowMessageContext,
  ending: Ending,
  before: LifecycleRecord,
  rows: readonly ParticipantRow[],
  meta: ActionMeta,
  notice: TransitionNotice,
): Promise<void> {
  const actor =
    meta.actorId === null
      ? undefined
      : await db
          .selectFrom('users')
          .select(['id', 'full_name', 'email'])
          .where('id', '=', meta.actorId)
          .executeTakeFirst();
  const stateBefore = new Map(before.participants.map((participant) => [participant.id, participant.state]));
  const heardOf = (row: ParticipantRow): boolean =>
    ending === 'signed' || row.user_id === null || (stateBefore.get(row.id) ?? 'waiting') !== 'waiting';
  const recipients = [
    { email: context.sender.email, user_id: context.sender.id as string | null },
    ...rows.filter(heardOf).map((row) => ({ email: row.email, user_id: row.user_id })),
  ];
  const told = new Set<string>();
  for (const recipient of recipients) {
    const key = recipient.email.toLowerCase();
    if (told.has(key)) continue;
    told.add(key);
    // Whoever ended the flow knows; a completion goes to everyone, the last signatory included.
    if (ending !== 'signed' && actor !== undefined && key === actor.email.toLowerCase()) continue;
    const target =
      notice.documentDeleted === true ? null : await targetFor(db, context.documentId, recipient);
    const recipientOf = { email: recipient.email, fallbackLocale: context.sender.locale };
    if (ending === 'signed') {
      await enqueueMail(
        db,
        recipientOf,
        { kind: 'flow.completed', filename: context.filename, target },
        context.now,
      );
      continue;
    }
    await enqueueMail(
      db,
      recipientOf,
      {
        kind: ENDINGS[ending],
        actor:
          actor === undefined
            ? { fullName: context.sender.fullName, email: context.sender.email }
            : { fullName: actor.full_name, email: actor.email },
        filename: context.filename,
        target,
        reason: ending === 'refused' ? (notice.refuseReason ?? null) : null,
      },
      context.now,
    );
  }
}
