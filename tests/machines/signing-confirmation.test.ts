import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  POLL_INTERVAL_MS,
  RESEND_COOLDOWN_MS,
  RETRY_BACKOFF_MS,
  isTransientFailure,
  retryDelayOf,
  signConfirmationMachine,
  type FetchVersionInput,
} from '../../machines/sign-confirmation.machine';
import type { DocumentVersionState } from '../../machines/signing-rules';
import { controlledPromise, deferred, flush, type Deferred } from './support';

const OFFLINE = { code: 'network' };

function startConfirmation() {
  const polls: { signal: AbortSignal; result: Deferred<DocumentVersionState> }[] = [];
  const resend = controlledPromise<void, FetchVersionInput>();
  let watching = 0;
  const machine = signConfirmationMachine.provide({
    actors: {
      fetchVersion: fromPromise<DocumentVersionState, FetchVersionInput>(({ signal }) => {
        const result = deferred<DocumentVersionState>();
        polls.push({ signal, result });
        return result.promise;
      }),
      resendNotification: resend.logic,
      watchVisibility: fromCallback<EventObject>(() => {
        watching += 1;
        return () => {
          watching -= 1;
        };
      }),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, {
    input: { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' },
    clock,
  }).start();
  const lastPoll = () => {
    const poll = polls.at(-1);
    if (!poll) throw new Error('no poll yet');
    return poll;
  };
  const answer = async (state: DocumentVersionState) => {
    lastPoll().result.resolve(state);
    await flush();
  };
  const fail = async (error: unknown) => {
    lastPoll().result.reject(error);
    await flush();
  };
  return { actor, clock, polls, resend, answer, fail, isWatching: () => watching > 0 };
}

describe('sign confirmation: polling', () => {
  it('checks the version at once, then every 5 s while it is pending', async () => {
    const { actor, clock, polls, answer } = startConfirmation();
    expect(polls).toHaveLength(1);
    await answer('pending');
    clock.increment(POLL_INTERVAL_MS - 1);
    expect(polls).toHaveLength(1);
    clock.increment(1);
    expect(polls).toHaveLength(2);
    await answer('pending');
    clock.increment(POLL_INTERVAL_MS);
    expect(polls).toHaveLength(3);
    expect(actor.getSnapshot().matches('waiting')).toBe(true);
  });

  it.each([
    ['signed', 'confirmed', null],
    ['sign_limit_exceeded', 'failed', 'sign_limit_exceeded'],
    ['presign_error', 'failed', 'presign_error'],
    ['denied', 'cancelled', null],
    ['cancelled', 'cancelled', null],
  ] as const)('a version %s ends %s and stops polling', async (state, outcome, errorCode) => {
    const { actor, clock, polls, answer } = startConfirmation();
    await answer(state);
    expect(actor.getSnapshot().value).toBe(outcome);
    expect(actor.getSnapshot().context.errorCode).toBe(errorCode);
    expect(actor.getSnapshot().hasTag('error')).toBe(outcome === 'failed');
    clock.increment(POLL_INTERVAL_MS * 10);
    expect(polls).toHaveLength(1);
  });

  it('keeps polling with a growing, capped wait while the network fails, and resets once it answers', async () => {
    const { actor, clock, polls, fail, answer } = startConfirmation();
    const waits = [...RETRY_BACKOFF_MS, RETRY_BACKOFF_MS.at(-1) ?? 0];
    for (const [index, wait] of waits.entries()) {
      await fail(OFFLINE);
      expect(actor.getSnapshot().matches({ waiting: { poll: 'backingOff' } })).toBe(true);
      clock.increment(wait - 1);
      expect(polls).toHaveLength(index + 1);
      clock.increment(1);
      expect(polls).toHaveLength(index + 2);
    }
    expect(actor.getSnapshot().context.failures).toBe(RETRY_BACKOFF_MS.length);
    await answer('pending');
    expect(actor.getSnapshot().context.failures).toBe(0);
    clock.increment(POLL_INTERVAL_MS);
    expect(polls).toHaveLength(waits.length + 2);
  });

  it('treats a server error as passing too, and anything else as the end', async () => {
    expect(isTransientFailure({ code: 'server', status: 503 })).toBe(true);
    expect(isTransientFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isTransientFailure({ code: 'not_found', status: 404 })).toBe(false);
    expect(isTransientFailure({ code: 'unauthorized', status: 401 })).toBe(false);
    const { actor, fail } = startConfirmation();
    await fail({ code: 'not_found', status: 404 });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.errorCode).toBe('not_found');
  });

  it('grows the wait by failures and never past the cap', () => {
    expect(retryDelayOf(1)).toBe(5_000);
    expect(retryDelayOf(2)).toBe(10_000);
    expect(retryDelayOf(5)).toBe(60_000);
    expect(retryDelayOf(50)).toBe(60_000);
  });
});

describe('sign confirmation: tab visibility', () => {
  it('stops polling while the tab is hidden and checks at once when it is shown', async () => {
    const { actor, clock, polls, answer } = startConfirmation();
    await answer('pending');
    actor.send({ type: 'visibility.hidden' });
    clock.increment(POLL_INTERVAL_MS * 20);
    expect(polls).toHaveLength(1);
    actor.send({ type: 'visibility.visible' });
    expect(polls).toHaveLength(2);
    await answer('signed');
    expect(actor.getSnapshot().value).toBe('confirmed');
  });

  it('drops a check in flight when the tab is hidden', async () => {
    const { actor, polls } = startConfirmation();
    actor.send({ type: 'visibility.hidden' });
    expect(polls[0]?.signal.aborted).toBe(true);
    expect(actor.getSnapshot().matches({ waiting: { poll: 'paused' } })).toBe(true);
  });

  it('listens to the visibility only while it waits', async () => {
    const { actor, answer, isWatching } = startConfirmation();
    expect(isWatching()).toBe(true);
    await answer('signed');
    expect(isWatching()).toBe(false);
    expect(actor.getSnapshot().value).toBe('confirmed');
  });
});

describe('sign confirmation: resend', () => {
  it('resends, then keeps the button disabled for 5 s', async () => {
    const { actor, clock, resend } = startConfirmation();
    actor.send({ type: 'resend.request' });
    expect(resend.last().input).toEqual({ versionId: 'v1' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    resend.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().can({ type: 'resend.request' })).toBe(false);
    clock.increment(RESEND_COOLDOWN_MS - 1);
    expect(actor.getSnapshot().can({ type: 'resend.request' })).toBe(false);
    clock.increment(1);
    expect(actor.getSnapshot().can({ type: 'resend.request' })).toBe(true);
    actor.send({ type: 'resend.request' });
    expect(resend.calls).toHaveLength(2);
  });

  it('reads a 429 as the cooldown, without a message', async () => {
    const { actor, resend } = startConfirmation();
    actor.send({ type: 'resend.request' });
    resend.last().result.reject({ code: 'too_many_requests', status: 429 });
    await flush();
    expect(actor.getSnapshot().matches({ waiting: { resend: 'coolingDown' } })).toBe(true);
    expect(actor.getSnapshot().context.resendErrorCode).toBeNull();
  });

  it('shows a failure and lets the user try again at once, clearing it when they do', async () => {
    const { actor, resend } = startConfirmation();
    actor.send({ type: 'resend.request' });
    resend.last().result.reject(OFFLINE);
    await flush();
    expect(actor.getSnapshot().context.resendErrorCode).toBe('network');
    expect(actor.getSnapshot().can({ type: 'resend.request' })).toBe(true);
    actor.send({ type: 'resend.request' });
    expect(actor.getSnapshot().context.resendErrorCode).toBeNull();
  });

  it('polls on while a resend runs', async () => {
    const { actor, clock, polls, answer } = startConfirmation();
    await answer('pending');
    actor.send({ type: 'resend.request' });
    clock.increment(POLL_INTERVAL_MS);
    expect(polls).toHaveLength(2);
  });
});

describe('sign confirmation: closing', () => {
  it.each([
    ['pending', 'abandoned'],
    ['signed', 'confirmed'],
    ['presign_error', 'failed'],
    ['denied', 'cancelled'],
  ] as const)('closing after a %s version ends %s', async (state, outcome) => {
    const { actor, answer } = startConfirmation();
    await answer(state);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ outcome });
  });

  it('stops polling once closed', async () => {
    const { actor, clock, polls, answer } = startConfirmation();
    await answer('pending');
    actor.send({ type: 'dialog.close' });
    clock.increment(POLL_INTERVAL_MS * 10);
    expect(polls).toHaveLength(1);
  });
});
