// Sends the mail queue. Each message is claimed with one conditional update (like the page-image jobs),
// so any number of instances run this side by side and each message goes out once; a claim whose runner
// died is taken over when its lock expires (that message may then go out twice: at least once beats
// never). A refused or failed send is tried again after a growing delay; after MAX_MAIL_ATTEMPTS the
// message is marked failed and logged at error level. Without an SMTP server (SMTP_URL unset) the same
// rounds keep each message for /dev/outbox instead.
import nodemailer from 'nodemailer';
import type { AppDeps } from '../context.ts';
import type { MailQueueTable } from '../db/schema.ts';
import { errorText } from '../http/logging.ts';
import { startPeriodicJob, type PeriodicJob } from '../jobs/periodic.ts';
import { parseMailMessage, renderMail, toMailLocale, type RenderedMail } from './messages.ts';

export const MAX_MAIL_ATTEMPTS = 8;
/** The wait before attempt n + 1 (the last one repeats): about six hours from the first to the last. */
export const MAIL_RETRY_DELAYS_MS = [
  60_000,
  2 * 60_000,
  5 * 60_000,
  15 * 60_000,
  30 * 60_000,
  60 * 60_000,
  4 * 60 * 60_000,
];
// A send that takes longer than this is presumed dead with its runner.
const MAIL_LOCK_MS = 2 * 60_000;
export const DEFAULT_MAIL_POLL_MS = 5_000;

export type OutgoingMail = RenderedMail & { to: string; from: string; replyTo?: string };

/** Hands one message to the mail server; throws when it is refused or cannot be reached. */
export type MailTransport = {
  send(mail: OutgoingMail): Promise<void>;
  /** Connects and signs in without sending: throws what is wrong. */
  verify(): Promise<void>;
  close(): void;
};

export function smtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    async verify() {
      await transporter.verify();
    },
    close: () => transporter.close(),
  };
}

type QueuedMail = Pick<MailQueueTable, 'id' | 'to_email' | 'kind' | 'locale' | 'params' | 'attempts'>;

async function claimNext(deps: AppDeps): Promise<QueuedMail | null> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const lockedUntil = new Date(now.getTime() + MAIL_LOCK_MS).toISOString();
  const next = deps.db
    .selectFrom('mail_queue')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', nowIso)]),
        eb.and([eb('state', '=', 'sending'), eb('locked_until', '<', nowIso)]),
      ]),
    )
    .orderBy('run_after')
    .orderBy('created_at')
    .limit(1);
  // The claimable condition is repeated on the row: if another runner claimed the same message between
  // the sub-select and the update, this update finds nothing instead of taking it twice.
  const claimed = await deps.db
    .updateTable('mail_queue')
    .set((eb) => ({ state: 'sending', locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', next)
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'queued'), eb('run_after', '<=', nowIso)]),
        eb.and([eb('state', '=', 'sending'), eb('locked_until', '<', nowIso)]),
      ]),
    )
    .returning(['id', 'to_email', 'kind', 'locale', 'params', 'attempts'])
    .executeTakeFirst();
  return claimed ?? null;
}

function replyToOf(params: Record<string, unknown>): string | undefined {
  const person = params.sender ?? params.actor;
  if (typeof person !== 'object' || person === null) return undefined;
  const email = (person as { email?: unknown }).email;
  return typeof email === 'string' ? email : undefined;
}

async function markFailed(deps: AppDeps, mail: QueuedMail, error: string): Promise<void> {
  await deps.db
    .updateTable('mail_queue')
    .set({ state: 'failed', locked_until: null, last_error: error.slice(0, 500) })
    .where('id', '=', mail.id)
    .execute();
  // The address is who did not hear from us; the text holds links meant for them alone, so it stays out.
  deps.log.error(
    { mailId: mail.id, kind: mail.kind, to: mail.to_email, attempts: mail.attempts, error },
    'a message could not be sent and will not be tried again',
  );
}

async function sendOne(deps: AppDeps, transport: MailTransport, mail: QueuedMail): Promise<void> {
  const message = parseMailMessage(mail.kind, mail.params);
  if (message === null) {
    await markFailed(deps, mail, `unknown message kind "${mail.kind}" or unreadable parameters`);
    return;
  }
  const rendered = renderMail(message, toMailLocale(mail.locale), deps.config.publicOrigin);
  const replyTo = replyToOf(JSON.parse(mail.params) as Record<string, unknown>);
  try {
    await transport.send({
      ...rendered,
      to: mail.to_email,
      from: deps.config.mailFrom,
      ...(replyTo === undefined ? {} : { replyTo }),
    });
  } catch (error) {
    const text = errorText(error);
    if (mail.attempts >= MAX_MAIL_ATTEMPTS) {
      await markFailed(deps, mail, text);
      return;
    }
    const delay = MAIL_RETRY_DELAYS_MS[Math.min(mail.attempts, MAIL_RETRY_DELAYS_MS.length) - 1] ?? 60_000;
    const runAfter = new Date(deps.clock().getTime() + delay).toISOString();
    await deps.db
      .updateTable('mail_queue')
      .set({ state: 'queued', locked_until: null, run_after: runAfter, last_error: text.slice(0, 500) })
      .where('id', '=', mail.id)
      .execute();
    deps.log.warn(
      { mailId: mail.id, kind: mail.kind, attempts: mail.attempts, retryAt: runAfter, error: text },
      'a message was not sent; it will be tried again',
    );
    return;
  }
  await deps.db
    .updateTable('mail_queue')
    .set({ state: 'sent', locked_until: null, sent_at: deps.clock().toISOString(), last_error: null })
    .where('id', '=', mail.id)
    .execute();
  deps.log.info({ mailId: mail.id, kind: mail.kind }, 'message sent');
}

/**
 * One round: sends (or, with no transport, keeps for /dev/outbox) every message that is due now and that
 * this runner claims. Answers how many it handled.
 */
export async function runMailQueue(deps: AppDeps, transport: MailTransport | null): Promise<number> {
  let handled = 0;
  for (;;) {
    const mail = await claimNext(deps);
    if (mail === null) return handled;
    handled += 1;
    if (transport === null) {
      await deps.db
        .updateTable('mail_queue')
        .set({ state: 'kept', locked_until: null })
        .where('id', '=', mail.id)
        .execute();
      continue;
    }
    await sendOne(deps, transport, mail);
  }
}

export function startMailSender(
  deps: AppDeps,
  options: { intervalMs: number; transport?: MailTransport | null },
): PeriodicJob {
  const transport =
    options.transport !== undefined
      ? options.transport
      : deps.config.smtpUrl === null
        ? null
        : smtpTransport(deps.config.smtpUrl);
  // A wrong host or password is said at start, at error level, not first at the first message; the queue
  // keeps the messages and retries, so the server still starts (the mail server may come up later).
  transport
    ?.verify()
    .then(() => deps.log.info('the SMTP server answered and accepted the credentials'))
    .catch((error: unknown) =>
      deps.log.error(
        { error: errorText(error) },
        'the SMTP server cannot be used; messages wait in the queue',
      ),
    );
  const job = startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'the mail queue could not be sent',
    run: async () => {
      await runMailQueue(deps, transport);
    },
  });
  return {
    async stop() {
      await job.stop();
      transport?.close();
    },
  };
}
