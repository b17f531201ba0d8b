// The one way the server runs a background job: every interval, never two rounds at once, a failed round
// logged (never thrown), and the timer never keeping the process alive on its own. Several instances may
// run the same job; each job's own round is written to be safe when they overlap.
import type { FastifyBaseLogger } from 'fastify';
import { errorText } from '../http/logging.ts';

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
  const tick = (): void => {
    if (isStopped || running !== null) return;
    running = options
      .run()
      .catch((error: unknown) => {
        log.error({ error: errorText(error) }, options.failureMessage);
      })
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
