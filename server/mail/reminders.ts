// Reminds signatories and reviewers whose turn has waited PARAPH_REMINDER_DAYS (0: never), then at most
// once a day, and only while the flow waits for them: the participant is still `pending` and the document
// still in review or awaiting signatures. Each reminder is claimed by one conditional update of the
// participant's `reminded_at`, in the transaction that queues the message, so several instances running
// this job remind a person once.
import { DAY_MS } from '../config.ts';
import type { AppDeps } from '../context.ts';
import { flowMessageContext, targetFor } from '../documents/sign-flow-notify.ts';
import { startPeriodicJob, type PeriodicJob } from '../jobs/periodic.ts';
import { enqueueMail } from './queue.ts';

export const REMINDER_INTERVAL_MS = 15 * 60_000;
// `signing`: someone else's signature is being confirmed; the flow still waits for the others.
const WAITING_FOR_PARTICIPANTS = ['in_review', 'awaiting_signs', 'signing'] as const;
const BATCH = 100;

/** Queues every reminder due now; answers how many. */
export async function runReminders(deps: AppDeps): Promise<number> {
  const days = deps.config.reminderDays;
  if (days === 0) return 0;
  const now = deps.clock();
  const dueBefore = new Date(now.getTime() - days * DAY_MS).toISOString();
  const remindedBefore = new Date(now.getTime() - DAY_MS).toISOString();
  let queued = 0;
  for (;;) {
    const candidates = await deps.db
      .selectFrom('sign_flow_participants as participant')
      .innerJoin('sign_flows as flow', 'flow.id', 'participant.sign_flow_id')
      .innerJoin('documents as document', 'document.id', 'flow.document_id')
      .select(['participant.id as id'])
      .where('participant.state', '=', 'pending')
      .where('participant.due_at', '<=', dueBefore)
      .where((eb) =>
        eb.or([
          eb('participant.reminded_at', 'is', null),
          eb('participant.reminded_at', '<=', remindedBefore),
        ]),
      )
      .where('document.state', 'in', [...WAITING_FOR_PARTICIPANTS])
      .orderBy('participant.due_at')
      .limit(BATCH)
      .execute();
    for (const { id } of candidates) {
      const sent = await deps.db.transaction().execute(async (trx) => {
        // The claim repeats the conditions: another instance, or an action, may have got there first.
        const claimed = await trx
          .updateTable('sign_flow_participants')
          .set({ reminded_at: now.toISOString() })
          .where('id', '=', id)
          .where('state', '=', 'pending')
          .where('due_at', '<=', dueBefore)
          .where((eb) => eb.or([eb('reminded_at', 'is', null), eb('reminded_at', '<=', remindedBefore)]))
          .returningAll()
          .executeTakeFirst();
        if (claimed === undefined) return false;
        const flow = await trx
          .selectFrom('sign_flows')
          .select(['id', 'comment', 'document_id'])
          .where('id', '=', claimed.sign_flow_id)
          .executeTakeFirstOrThrow();
        const document = await trx
          .selectFrom('documents')
          .select(['id', 'owner_id', 'original_filename', 'state'])
          .where('id', '=', flow.document_id)
          .executeTakeFirstOrThrow();
        if (!(WAITING_FOR_PARTICIPANTS as readonly string[]).includes(document.state)) return false;
        const context = await flowMessageContext(trx, document, flow, now);
        await enqueueMail(
          trx,
          { email: claimed.email, fallbackLocale: context.sender.locale },
          {
            kind: 'flow.reminder',
            role: claimed.role,
            sender: { fullName: context.sender.fullName, email: context.sender.email },
            filename: context.filename,
            target: await targetFor(trx, document.id, claimed),
            since: claimed.due_at ?? now.toISOString(),
          },
          now,
        );
        return true;
      });
      if (sent) queued += 1;
    }
    // Every candidate was claimed or dropped out meanwhile, so the next query moves on.
    if (candidates.length < BATCH) return queued;
  }
}

export function startReminders(deps: AppDeps, options: { intervalMs: number }): PeriodicJob {
  return startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'reminders could not be queued',
    run: async () => {
      const count = await runReminders(deps);
      if (count > 0) deps.log.info({ count }, 'reminders queued');
    },
  });
}
