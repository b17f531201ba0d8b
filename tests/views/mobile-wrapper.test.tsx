// Messages to mobile web-view wrappers (spec 000 §1, spec 001 §7), through fake bridges: the access
// token after sign-in, the sign request's location; never to another window, never logged.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { SAMPLE_PROFILE } from '../samples';
import {
  postAccessToken,
  postSigningLocation,
  postToMobileWrapper,
  watchSigningLocation,
} from '../../src/services/mobile-wrapper';

type Bridges = { reactNative: ReturnType<typeof vi.fn>; webkit: ReturnType<typeof vi.fn> };
type Host = {
  ReactNativeWebView?: { postMessage: (message: string) => void };
  webkit?: { messageHandlers: Record<string, { postMessage: (message: unknown) => void }> };
};

function installBridges({ reactNative = true, webkit = true } = {}): Bridges {
  const bridges = { reactNative: vi.fn(), webkit: vi.fn() };
  const host = window as unknown as Host;
  if (reactNative) host.ReactNativeWebView = { postMessage: bridges.reactNative };
  if (webkit) host.webkit = { messageHandlers: { paraph: { postMessage: bridges.webkit } } };
  return bridges;
}

let parentPost: ReturnType<typeof vi.spyOn>;
let consoleCalls: ReturnType<typeof vi.spyOn>[];

beforeEach(() => {
  parentPost = vi.spyOn(window, 'postMessage');
  consoleCalls = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(() => {}),
  );
});

afterEach(() => {
  const host = window as unknown as Host;
  delete host.ReactNativeWebView;
  delete host.webkit;
  expect(parentPost).not.toHaveBeenCalled();
  for (const call of consoleCalls) expect(call).not.toHaveBeenCalled();
  vi.restoreAllMocks();
});

describe('mobile wrapper messages', () => {
  it('posts the access token as JSON text to React Native and as an object to WebKit', () => {
    const bridges = installBridges();
    postAccessToken('secret-token');
    expect(bridges.reactNative).toHaveBeenCalledWith('{"type":"accessToken","accessToken":"secret-token"}');
    expect(bridges.webkit).toHaveBeenCalledWith({ type: 'accessToken', accessToken: 'secret-token' });
  });

  it('posts nothing, anywhere, outside a web view', () => {
    expect(postToMobileWrapper({ type: 'setLocation', location: 'Leiden' })).toBe(false);
  });

  it('uses only the bridge that is there', () => {
    const bridges = installBridges({ reactNative: false });
    expect(postToMobileWrapper({ type: 'setLocation', location: 'Leiden' })).toBe(true);
    expect(bridges.webkit).toHaveBeenCalledWith({ type: 'setLocation', location: 'Leiden' });
    expect(bridges.reactNative).not.toHaveBeenCalled();
  });

  it('posts the trimmed signing location, and nothing for an empty one', () => {
    const bridges = installBridges({ webkit: false });
    postSigningLocation('  Den Haag ');
    postSigningLocation('   ');
    expect(bridges.reactNative.mock.calls).toEqual([['{"type":"setLocation","location":"Den Haag"}']]);
  });

  it('posts the token once the session has exchanged it after sign-in, not on a start with a stored one', async () => {
    const bridges = installBridges({ webkit: false });
    const { sessionLogic } = await import('../../src/app/compose');
    const profile = fromPromise(async () => SAMPLE_PROFILE);
    const stored = createActor(
      sessionLogic.provide({
        actors: { fetchProfile: profile },
        actions: { goToReturnUrl: () => {} },
      }),
      { input: { storedToken: 'stored-token' } },
    ).start();
    stored.send({ type: 'session.require', returnUrl: '/app/documents' });
    await vi.waitFor(() => expect(stored.getSnapshot().hasTag('authenticated')).toBe(true));
    expect(bridges.reactNative).not.toHaveBeenCalled();
    stored.stop();

    const signingIn = createActor(
      sessionLogic.provide({
        actors: {
          fetchToken: fromPromise(async () => ({ accessToken: 'new-token' })),
          fetchProfile: profile,
        },
        actions: { goToReturnUrl: () => {} },
      }),
      { input: { storedToken: null } },
    ).start();
    signingIn.send({ type: 'auth.exchange' });
    await vi.waitFor(() => expect(signingIn.getSnapshot().hasTag('authenticated')).toBe(true));
    expect(window.localStorage.getItem('access_token')).toBe('new-token');
    expect(bridges.reactNative.mock.calls).toEqual([['{"type":"accessToken","accessToken":"new-token"}']]);
    signingIn.stop();
  });

  it('posts the location each time a sign request goes out', () => {
    const bridges = installBridges({ reactNative: false });
    type Snapshot = { matches(state: 'submitting'): boolean; context: { location: string } };
    let current: Snapshot = { matches: () => false, context: { location: 'Leiden' } };
    const observers: ((snapshot: Snapshot) => void)[] = [];
    const actor = {
      getSnapshot: () => current,
      subscribe(observer: (snapshot: Snapshot) => void) {
        observers.push(observer);
        return { unsubscribe: () => observers.splice(observers.indexOf(observer), 1) };
      },
    };
    const emit = (isSubmitting: boolean, location: string) => {
      current = { matches: () => isSubmitting, context: { location } };
      for (const observer of [...observers]) observer(current);
    };
    const stop = watchSigningLocation(actor);
    emit(false, 'Leid');
    emit(true, ' Leiden ');
    emit(true, ' Leiden ');
    emit(false, 'Delft');
    emit(true, 'Delft');
    stop();
    emit(false, 'Delft');
    emit(true, 'Delft');
    expect(bridges.webkit.mock.calls).toEqual([
      [{ type: 'setLocation', location: 'Leiden' }],
      [{ type: 'setLocation', location: 'Delft' }],
    ]);
  });
});
