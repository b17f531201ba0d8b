import { createActor, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_PROFILE } from '../samples';
import { safeReturnUrl, sessionMachine } from '../../machines/session.machine';
import type { Profile, TokenGrant } from '../../machines/types';
import { controlledPromise, flush } from './support';

function startSession(storedToken: string | null) {
  const fetchToken = controlledPromise<TokenGrant>();
  const fetchProfile = controlledPromise<Profile>();
  const effects = {
    storeToken: vi.fn(),
    removeToken: vi.fn(),
    redirectToLogin: vi.fn(),
    goToReturnUrl: vi.fn(),
    goToLoginTimeout: vi.fn(),
    goToLoginError: vi.fn(),
    goToLogOut: vi.fn(),
  };
  const machine = sessionMachine.provide({
    actors: { fetchToken: fetchToken.logic, fetchProfile: fetchProfile.logic },
    actions: {
      storeToken: (_, params) => effects.storeToken(params),
      removeToken: () => effects.removeToken(),
      redirectToLogin: (_, params) => effects.redirectToLogin(params),
      goToReturnUrl: (_, params) => effects.goToReturnUrl(params),
      goToLoginTimeout: () => effects.goToLoginTimeout(),
      goToLoginError: () => effects.goToLoginError(),
      goToLogOut: () => effects.goToLogOut(),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { input: { storedToken }, clock }).start();
  return { actor, clock, fetchToken, fetchProfile, effects };
}

async function signedIn() {
  const session = startSession('stored-token');
  session.actor.send({ type: 'session.require', returnUrl: '/app/documents' });
  session.fetchProfile.last().result.resolve(SAMPLE_PROFILE);
  await flush();
  return session;
}

describe('session', () => {
  it('loads the profile before a protected screen renders when a token is stored', async () => {
    const { actor, fetchProfile, effects } = startSession('stored-token');
    expect(actor.getSnapshot().value).toBe('anonymous');
    expect(fetchProfile.calls).toHaveLength(0);

    actor.send({ type: 'session.require', returnUrl: '/app/documents' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchProfile.calls).toHaveLength(1);

    fetchProfile.last().result.resolve(SAMPLE_PROFILE);
    await flush();
    expect(actor.getSnapshot().matches({ authenticated: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(actor.getSnapshot().context.profile).toEqual(SAMPLE_PROFILE);
    expect(effects.redirectToLogin).not.toHaveBeenCalled();
  });

  it('sends a visitor without a token to the login page with the return URL', () => {
    const { actor, fetchProfile, effects } = startSession(null);
    actor.send({ type: 'session.require', returnUrl: '/app/document/d1' });
    expect(effects.redirectToLogin).toHaveBeenCalledWith({ returnUrl: '/app/document/d1' });
    expect(fetchProfile.calls).toHaveLength(0);
    expect(actor.getSnapshot().value).toBe('anonymous');
  });

  it('treats a 401 on the first profile load as an expired session', async () => {
    const { actor, fetchProfile, effects } = startSession('stale-token');
    actor.send({ type: 'session.require', returnUrl: '/app/documents' });
    fetchProfile.last().result.reject({ code: 'unauthorized', status: 401 });
    await flush();
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context).toMatchObject({ token: null, errorCode: 'unauthorized' });
    expect(effects.removeToken).toHaveBeenCalledTimes(1);
    expect(effects.goToLoginTimeout).toHaveBeenCalledTimes(1);
    expect(effects.goToLoginError).not.toHaveBeenCalled();

    actor.send({ type: 'session.require', returnUrl: '/app/documents' });
    expect(effects.redirectToLogin).toHaveBeenCalledWith({ returnUrl: '/app/documents' });
    expect(fetchProfile.calls).toHaveLength(1);
  });

  it('logs the user out with the error notice when the first profile load fails otherwise', async () => {
    const { actor, fetchProfile, effects } = startSession('stored-token');
    actor.send({ type: 'session.require', returnUrl: '/app/documents' });
    fetchProfile.last().result.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().value).toBe('expired');
    expect(actor.getSnapshot().context.errorCode).toBe('network');
    expect(effects.removeToken).toHaveBeenCalledTimes(1);
    expect(effects.goToLoginError).toHaveBeenCalledTimes(1);
    expect(effects.goToLoginTimeout).not.toHaveBeenCalled();
  });

  it('polls the profile every 15 s and ignores a 401 or an offline poll', async () => {
    const { actor, clock, fetchProfile, effects } = await signedIn();
    clock.increment(14_999);
    expect(fetchProfile.calls).toHaveLength(1);
    clock.increment(1);
    expect(fetchProfile.calls).toHaveLength(2);
    expect(actor.getSnapshot().matches({ authenticated: 'polling' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);

    fetchProfile.last().result.reject({ code: 'unauthorized', status: 401 });
    await flush();
    expect(actor.getSnapshot().matches({ authenticated: 'idle' })).toBe(true);

    clock.increment(15_000);
    fetchProfile.last().result.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().matches({ authenticated: 'idle' })).toBe(true);

    clock.increment(15_000);
    fetchProfile.last().result.resolve({ ...SAMPLE_PROFILE, pendingSignFlows: 7 });
    await flush();
    expect(fetchProfile.calls).toHaveLength(4);
    expect(actor.getSnapshot().context.profile?.pendingSignFlows).toBe(7);
    expect(effects.removeToken).not.toHaveBeenCalled();
    expect(effects.goToLogOut).not.toHaveBeenCalled();
  });

  it('logs out when the poll meets a server error', async () => {
    const { actor, clock, fetchProfile, effects } = await signedIn();
    clock.increment(15_000);
    fetchProfile.last().result.reject({ code: 'internal_error', status: 500 });
    await flush();
    expect(actor.getSnapshot().value).toBe('loggingOut');
    expect(effects.removeToken).toHaveBeenCalledTimes(1);
    expect(effects.goToLogOut).toHaveBeenCalledTimes(1);
  });

  it('reads the profile again when a change comes during a read, and keeps only the later answer', async () => {
    const { actor, fetchProfile } = await signedIn();
    actor.send({ type: 'profile.refresh' });
    expect(fetchProfile.calls).toHaveLength(2);
    // An approval lands while that read is under way: it may have missed it, so the read starts again.
    actor.send({ type: 'profile.refresh' });
    expect(fetchProfile.calls).toHaveLength(3);
    fetchProfile.calls[1]?.result.resolve({ ...SAMPLE_PROFILE, pendingSignFlows: 5 });
    fetchProfile.last().result.resolve({ ...SAMPLE_PROFILE, pendingSignFlows: 4 });
    await Promise.resolve();
    await Promise.resolve();
    expect(actor.getSnapshot().context.profile?.pendingSignFlows).toBe(4);
  });

  it('ends the session on a 401 from another call', async () => {
    const { actor, clock, fetchProfile, effects } = await signedIn();
    actor.send({ type: 'session.unauthorized' });
    expect(actor.getSnapshot().value).toBe('expired');
    expect(effects.removeToken).toHaveBeenCalledTimes(1);
    expect(effects.goToLoginTimeout).toHaveBeenCalledTimes(1);
    clock.increment(60_000);
    expect(fetchProfile.calls).toHaveLength(1);
  });

  it('removes the token before navigating to log out', async () => {
    const { actor, effects } = await signedIn();
    actor.send({ type: 'session.logout' });
    expect(actor.getSnapshot().value).toBe('loggingOut');
    expect(effects.removeToken).toHaveBeenCalledTimes(1);
    expect(effects.goToLogOut).toHaveBeenCalledTimes(1);
    expect(effects.removeToken.mock.invocationCallOrder[0]).toBeLessThan(
      effects.goToLogOut.mock.invocationCallOrder[0] ?? 0,
    );
  });

  it('exchanges the cookie for a token, stores it and goes to the return URL', async () => {
    const { actor, fetchToken, fetchProfile, effects } = startSession(null);
    actor.send({ type: 'auth.exchange', returnUrl: '/app/document/d1' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    fetchToken.last().result.resolve({ accessToken: 'fresh-token' });
    await flush();
    expect(effects.storeToken).toHaveBeenCalledWith({ token: 'fresh-token' });
    expect(effects.goToReturnUrl).toHaveBeenCalledWith({ url: '/app/document/d1' });
    expect(actor.getSnapshot().value).toBe('loadingProfile');
    expect(actor.getSnapshot().context.token).toBe('fresh-token');
    expect(fetchProfile.calls).toHaveLength(1);
  });

  it('never follows a return URL outside the app', async () => {
    const { actor, fetchToken, effects } = startSession(null);
    actor.send({ type: 'auth.exchange', returnUrl: 'https://elsewhere.example/' });
    fetchToken.last().result.resolve({ accessToken: 'fresh-token' });
    await flush();
    expect(effects.goToReturnUrl).toHaveBeenCalledWith({ url: '/app/documents' });
  });

  it('goes back to the login page when the token exchange fails', async () => {
    const { actor, fetchToken, effects } = startSession(null);
    actor.send({ type: 'auth.exchange' });
    fetchToken.last().result.reject({ code: 'unauthorized', status: 401 });
    await flush();
    expect(actor.getSnapshot().value).toBe('anonymous');
    expect(effects.redirectToLogin).toHaveBeenCalledWith({ returnUrl: null });
    expect(effects.storeToken).not.toHaveBeenCalled();
  });
});

describe('safeReturnUrl', () => {
  it.each([
    ['/app/document/d1?tab=details', '/app/document/d1?tab=details'],
    ['/app/documents', '/app/documents'],
    [null, '/app/documents'],
    ['', '/app/documents'],
    ['https://elsewhere.example/app/', '/app/documents'],
    ['//elsewhere.example/app/', '/app/documents'],
    ['/api/log_out', '/app/documents'],
    ['/app/\\elsewhere', '/app/documents'],
    // A browser resolves dot-segments before it leaves: this one would go to another host.
    ['/app/..//elsewhere.example/x', '/app/documents'],
    ['/app/%2e%2e//elsewhere.example', '/app/documents'],
    ['/app/documents/../settings', '/app/settings'],
  ])('%s -> %s', (url, expected) => {
    expect(safeReturnUrl(url)).toBe(expected);
  });
});
