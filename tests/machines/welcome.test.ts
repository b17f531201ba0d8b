import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { welcomeMachine } from '../../machines/welcome.machine';
import { controlledPromise, flush } from './support';

function start() {
  const save = controlledPromise<void>();
  const openWelcome = vi.fn();
  const refreshProfile = vi.fn();
  const actor = createActor(
    welcomeMachine.provide({
      actors: { saveWelcomeScreenWatched: save.logic },
      actions: { openWelcome, refreshProfile },
    }),
  ).start();
  return { actor, save, openWelcome, refreshProfile };
}

describe('welcome machine', () => {
  it('opens once for an unwatched profile when no modal is open, and saves after it closes', async () => {
    const { actor, save, openWelcome, refreshProfile } = start();
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: true });
    expect(openWelcome).not.toHaveBeenCalled();
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false });
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false });
    expect(openWelcome).toHaveBeenCalledTimes(1);
    expect(save.calls).toHaveLength(0);
    actor.send({ type: 'welcome.closed' });
    expect(save.calls).toHaveLength(1);
    save.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('watched');
    expect(refreshProfile).toHaveBeenCalledTimes(1);
  });

  it('never opens for a watched profile', () => {
    const { actor, openWelcome } = start();
    actor.send({ type: 'welcome.check', welcomeScreenWatched: true, isModalOpen: false });
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false });
    expect(openWelcome).not.toHaveBeenCalled();
  });

  it('does not retry a failed save or open again in the same page', async () => {
    const { actor, save, openWelcome } = start();
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false });
    actor.send({ type: 'welcome.closed' });
    save.last().result.reject({ code: 'network' });
    await flush();
    expect(actor.getSnapshot().value).toBe('unsaved');
    actor.send({ type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false });
    expect(openWelcome).toHaveBeenCalledTimes(1);
    expect(save.calls).toHaveLength(1);
  });
});
