// Sends the mail queue. Each message is claimed with one conditional update (like the page-image jobs),
// so any number of instances run this side by side and each message goes out once; a claim whose runner
// died is taken over when its lock expires (that message may then go out twice: at least once beats
// never). A refused or failed send is tried again after a growing delay; after MAX_MAIL_ATTEMPTS the
// message is marked failed and logged at error level. Without an SMTP server (SMTP_URL unset) the same
// rounds keep each message for /dev/outbox instead. At shutdown no new message is claimed, and a send
// still going after a short grace is given up: its message goes back to the queue as it was, for any
// instance to send at once.
import nodemailer from 'nodemailer';
import type { AppDeps } from '../context.ts';
import type { MailQueueTable } from '../db/schema.ts';
import { retryWhileDatabaseAway } from '../db/connection-errors.ts';
import { errorText } from '../http/logging.ts';
import { startPeriodicJob, type PeriodicJob } from '../jobs/periodic.ts';
import { renderQueuedMail, type RenderedMail } from './messages.ts';

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
/** How long stop() lets a send in progress finish before giving it up. */
export const DEFAULT_MAIL_STOP_GRACE_MS = 2_000;

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

type QueuedMail = Pick<
  MailQueueTable,
  'id' | 'to_email' | 'kind' | 'locale' | 'params' | 'attempts' | 'locked_until'
>;

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
    .returning(['id', 'to_email', 'kind', 'locale', 'params', 'attempts', 'locked_until'])
    .executeTakeFirst();
  return claimed ?? null;
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

class SendCut extends Error {}

// The send is left to finish or fail on its own (nobody waits for it); the caller stops waiting once `cut`
// fires.
function unlessCut(send: Promise<void>, cut: AbortSignal | undefined): Promise<void> {
  if (cut === undefined) return send;
  send.catch(() => undefined);
  return new Promise<void>((resolve, reject) => {
    const onCut = (): void => reject(new SendCut('the send was cut by shutdown'));
    if (cut.aborted) {
      onCut();
      return;
    }
    cut.addEventListener('abort', onCut, { once: true });
    send.then(resolve, reject).finally(() => cut.removeEventListener('abort', onCut));
  });
}

// Back as it was before this claim, due now, unless another runner has taken it over meanwhile: the cut
// send may or may not have reached the mail server, and at least once beats never.
async function release(deps: AppDeps, mail: QueuedMail): Promise<void> {
  await deps.db
    .updateTable('mail_queue')
    .set((eb) => ({
      state: 'queued',
      locked_until: null,
      attempts: eb('attempts', '-', 1),
      run_after: deps.clock().toISOString(),
    }))
    .where('id', '=', mail.id)
    .where('state', '=', 'sending')
    .where('locked_until', '=', mail.locked_until)
    .execute();
  deps.log.info(
    { mailId: mail.id, kind: mail.kind },
    'a message being sent at shutdown went back to the queue',
  );
}

async function sendOne(
  deps: AppDeps,
  transport: MailTransport,
  mail: QueuedMail,
  cut: AbortSignal | undefined,
): Promise<void> {
  const rendered = renderQueuedMail(mail, deps.config.publicOrigin);
  if (rendered === null) {
    deps.metrics.mailFailed.inc({ kind: mail.kind, final: 'true' });
    await markFailed(deps, mail, `unknown message kind "${mail.kind}" or unreadable parameters`);
    return;
  }
  const { replyTo, ...content } = rendered;
  try {
    const send = transport.send({
      ...content,
      to: mail.to_email,
      from: deps.config.mailFrom,
      ...(replyTo === undefined ? {} : { replyTo }),
    });
    await unlessCut(send, cut);
  } catch (error) {
    if (error instanceof SendCut) {
      await release(deps, mail);
      return;
    }
    const text = errorText(error);
    const isFinal = mail.attempts >= MAX_MAIL_ATTEMPTS;
    deps.metrics.mailFailed.inc({ kind: mail.kind, final: String(isFinal) });
    if (isFinal) {
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
  await markSent(deps, mail);
  deps.metrics.mailSent.inc({ kind: mail.kind });
  deps.log.info({ mailId: mail.id, kind: mail.kind }, 'message sent');
}

// The message is out: if the database is away at this moment (a restart), recording it is retried for a
// while, since a row left `sending` would be taken over when its claim expires and sent a second time.
const MARK_SENT_TRIES = 30;
const MARK_SENT_DELAY_MS = 1000;

async function markSent(deps: AppDeps, mail: QueuedMail): Promise<void> {
  await retryWhileDatabaseAway(
    () =>
      deps.db
        .updateTable('mail_queue')
        .set({ state: 'sent', locked_until: null, sent_at: deps.clock().toISOString(), last_error: null })
        .where('id', '=', mail.id)
        .execute(),
    {
      tries: MARK_SENT_TRIES,
      delayMs: MARK_SENT_DELAY_MS,
      onAway: () =>
        deps.log.warn(
          { mailId: mail.id },
          'a message was sent but the database is away; recording it again shortly',
        ),
    },
  );
}

export type MailRoundOptions = {
  /** Once aborted, no further message is claimed. */
  signal?: AbortSignal;
  /** Once aborted, a send in progress is given up and its message released to the queue. */
  cut?: AbortSignal;
};

/**
 * One round: sends (or, with no transport, keeps for /dev/outbox) every message that is due now and that
 * this runner claims. Answers how many it handled.
 */
export async function runMailQueue(
  deps: AppDeps,
  transport: MailTransport | null,
  options: MailRoundOptions = {},
): Promise<number> {
  let handled = 0;
  for (;;) {
    if (options.signal?.aborted === true) return handled;
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
    await sendOne(deps, transport, mail, options.cut);
  }
}

export function startMailSender(
  deps: AppDeps,
  options: { intervalMs: number; transport?: MailTransport | null; stopGraceMs?: number },
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
  const stopping = new AbortController();
  const cutting = new AbortController();
  const job = startPeriodicJob(deps.log, {
    intervalMs: options.intervalMs,
    runAtStart: true,
    failureMessage: 'the mail queue could not be sent',
    run: async () => {
      await runMailQueue(deps, transport, { signal: stopping.signal, cut: cutting.signal });
    },
  });
  return {
    async stop() {
      stopping.abort();
      // A mail server that stopped answering can hold a send for minutes: it must not hold the shutdown.
      const grace = setTimeout(() => cutting.abort(), options.stopGraceMs ?? DEFAULT_MAIL_STOP_GRACE_MS);
      try {
        await job.stop();
      } finally {
        clearTimeout(grace);
        transport?.close();
      }
    },
  };
}
