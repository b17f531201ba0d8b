// The messages a sign flow sends, written to the outbox in the action's transaction (so a rolled-back
// action sends nothing): an invitation to each person added by an address with no account yet, and a
// notification to each participant whose turn has just come. Plain text only: the file name, the owner's
// name and the comment are user text and never become markup.
import { randomUUID } from 'node:crypto';
import { DAY_MS } from '../config.ts';
import type { ParticipantRow } from '../db/schema.ts';
import type { ActionDb } from './access.ts';
import type { LifecycleParticipant } from './sign-flow-lifecycle.ts';

export const invitePath = (inviteId: string): string => `/app/signflowmember/invite/${inviteId}`;
export const signUpPath = (inviteId: string): string => `/sign_up?invite=${encodeURIComponent(inviteId)}`;
export const documentPath = (documentId: string): string => `/app/document/${documentId}`;

/** Invites created before this moment have expired (PARAPH_INVITE_TTL_DAYS). */
export function inviteCutoff(now: Date, inviteTtlDays: number): string {
  return new Date(now.getTime() - inviteTtlDays * DAY_MS).toISOString();
}

export type FlowMessageContext = {
  documentId: string;
  flowId: string;
  filename: string;
  sender: { fullName: string; email: string };
  comment: string;
  now: Date;
};

async function send(db: ActionDb, to: string, subject: string, lines: string[], now: Date): Promise<void> {
  await db
    .insertInto('outbox')
    .values({
      id: randomUUID(),
      to_email: to,
      subject,
      body: lines.join('\n'),
      created_at: now.toISOString(),
    })
    .execute();
}

function roleText(role: ParticipantRow['role']): string {
  return role === 'reviewer' ? 'review' : 'sign';
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
    await send(
      db,
      participant.email,
      `${context.sender.fullName} invites you to ${roleText(participant.role)} “${context.filename}” on Paraph`,
      [
        `${context.sender.fullName} (${context.sender.email}) asks you to ${roleText(participant.role)} “${context.filename}” on Paraph.`,
        ...(context.comment === '' ? [] : ['', context.comment]),
        '',
        `Create your Paraph account with this address (${participant.email}): ${signUpPath(id)}`,
        `Already have one? Open the invitation: ${invitePath(id)}`,
      ],
      context.now,
    );
  }
  return invites;
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
    let link = documentPath(context.documentId);
    if (row.user_id === null) {
      const invite = await db
        .selectFrom('invites')
        .select('id')
        .where('document_id', '=', context.documentId)
        .where('email', '=', row.email)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (invite !== undefined) link = invitePath(invite.id);
    }
    await send(
      db,
      row.email,
      `It is your turn to ${roleText(row.role)} “${context.filename}”`,
      [
        `“${context.filename}” from ${context.sender.fullName} is waiting for you to ${roleText(row.role)} it.`,
        '',
        `Open it in Paraph: ${link}`,
      ],
      context.now,
    );
  }
}
