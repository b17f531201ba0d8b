// The server's background jobs (auto-deletion, the signing expiry, autoconfirm) share one runner: a round at
// start when asked, then one per interval, never two at once, a failed round logged and the next one run.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from '../../server/jobs/periodic.ts';

function fakeLog() {
  const errors: { fields: unknown; message: string }[] = [];
  const log = {
    error: (fields: unknown, message: string) => errors.push({ fields, message }),
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startPeriodicJob', () => {
  it('runs at start only when asked, then once per interval', async () => {
    const { log } = fakeLog();
    const rounds: string[] = [];
    const eager = startPeriodicJob(log, {
      intervalMs: 1000,
      runAtStart: true,
      failureMessage: 'eager failed',
      run: async () => void rounds.push('eager'),
    });
    const lazy = startPeriodicJob(log, {
      intervalMs: 1000,
      runAtStart: false,
      failureMessage: 'lazy failed',
      run: async () => void rounds.push('lazy'),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toEqual(['eager']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(rounds.sort()).toEqual(['eager', 'eager', 'lazy']);
    await eager.stop();
    await lazy.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(rounds).toHaveLength(3);
  });

  it('never starts a round while one runs, and logs a failed round and runs the next', async () => {
    const { log, errors } = fakeLog();
    let calls = 0;
    const first: { finish?: () => void } = {};
    const job = startPeriodicJob(log, {
      intervalMs: 100,
      runAtStart: true,
      failureMessage: 'round failed',
      run: () => {
        calls += 1;
        if (calls === 1) return new Promise<void>((resolve) => (first.finish = resolve));
        return Promise.reject(new Error('database gone'));
      },
    });
    await vi.advanceTimersByTimeAsync(350);
    expect(calls).toBe(1);
    first.finish?.();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(2);
    expect(errors).toEqual([{ fields: { error: 'database gone' }, message: 'round failed' }]);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(3);
    await job.stop();
  });

  it('stops only once the round under way has ended', async () => {
    const { log } = fakeLog();
    let stopped = false;
    const slow = startPeriodicJob(log, {
      intervalMs: 100,
      runAtStart: true,
      failureMessage: 'slow failed',
      run: () => new Promise<void>((resolve) => setTimeout(resolve, 500)),
    });
    const stopping = slow.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(400);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    await stopping;
    expect(stopped).toBe(true);
  });
});
