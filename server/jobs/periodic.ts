// The one way the server runs a background job: every interval, never two rounds at once, a failed round
// logged (never thrown), and the timer never keeping the process alive on its own. Several instances may
// run the same job; each job's own round is written to be safe when they overlap.
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { errorText } from '../http/logging.ts';

export type OutageNotice = {
  /** Logs a failed round: true when it was the database being away (said once per outage, at warn). */
  failed(error: unknown): boolean;
  /** A round went through: says the database is back if it was away. */
  succeeded(): void;
};

// A job polls every second or minute; while the database is away, each round fails the same way. One
// warning when it goes and one line when it is back say all there is; every other failure is an error.
export function outageNotice(log: FastifyBaseLogger, job: string): OutageNotice {
  let isAway = false;
  return {
    failed(error) {
      if (!isDatabaseUnavailable(error)) return false;
      if (!isAway) {
        log.warn(
          { job, error: errorText(error) },
          'the database cannot be reached; the job tries again each round',
        );
      }
      isAway = true;
      return true;
    },
    succeeded() {
      if (!isAway) return;
      isAway = false;
      log.info({ job }, 'the database answers again; the job carries on');
    },
  };
}

export type PeriodicJob = { stop(): Promise<void> };

export type PeriodicJobOptions = {
  intervalMs: number;
  /** Run a round at once instead of waiting for the first interval. */
  runAtStart: boolean;
  /** One round; what it did is for the round to log. */
  run: () => Promise<void>;
  /** Logged with the error when a round fails. */
  failureMessage: string;
};

export function startPeriodicJob(log: FastifyBaseLogger, options: PeriodicJobOptions): PeriodicJob {
  let isStopped = false;
  let running: Promise<void> | null = null;
  const outage = outageNotice(log, options.failureMessage);
  const tick = (): void => {
    if (isStopped || running !== null) return;
    running = options
      .run()
      .then(
        () => outage.succeeded(),
        (error: unknown) => {
          if (!outage.failed(error)) log.error({ error: errorText(error) }, options.failureMessage);
        },
      )
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  if (options.runAtStart) tick();
  return {
    async stop(): Promise<void> {
      isStopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
