// The signed-in session: the access token, the profile (loaded before any protected screen renders, then
// polled every 15 s) and the ways a session ends (401, logout). One actor for the app's lifetime, started
// by src/main.tsx with the token found in local storage; it ends when the browser navigates away.
// Profile-call exceptions (spec 000 §6, docs/decisions.md): a 401 on the first load means the session
// expired; a 401 or a network failure on the poll is ignored; any other failure logs the user out.
import { assign, fromPromise, setup } from 'xstate';
import { safeReturnUrl } from './return-url.ts';
import { toApiFailure, type Profile, type TokenGrant } from './types.ts';

export { safeReturnUrl } from './return-url.ts';

export type SessionInput = { storedToken: string | null };

export type SessionContext = {
  token: string | null;
  profile: Profile | null;
  errorCode: string | null;
  /** Where /app/auth sends the user once the token is exchanged. */
  returnUrl: string | null;
};

export type SessionEvent =
  | { type: 'auth.exchange'; returnUrl?: string }
  | { type: 'session.require'; returnUrl: string }
  | { type: 'session.unauthorized' }
  | { type: 'session.logout' }
  | { type: 'profile.refresh' };

export const PROFILE_POLL_MS = 15_000;

const returnUrlOfEvent = ({ event }: { event: { returnUrl?: string } }) => ({
  returnUrl: event.returnUrl ?? null,
});
const returnUrlOfContext = ({ context }: { context: SessionContext }) => ({ returnUrl: context.returnUrl });
const safeReturnUrlOfContext = ({ context }: { context: SessionContext }) => ({
  url: safeReturnUrl(context.returnUrl),
});
const tokenOfOutput = ({ event }: { event: { output: TokenGrant } }) => ({ token: event.output.accessToken });
const profileOfOutput = ({ event }: { event: { output: Profile } }) => ({ profile: event.output });
const errorOfEvent = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as 'busy' | 'authenticated',
  },
  actors: {
    fetchToken: fromPromise<TokenGrant>(async () => {
      throw new Error('fetchToken not provided');
    }),
    fetchProfile: fromPromise<Profile>(async () => {
      throw new Error('fetchProfile not provided');
    }),
  },
  actions: {
    storeToken: (_, _params: { token: string }) => {},
    removeToken: () => {},
    redirectToLogin: (_, _params: { returnUrl: string | null }) => {},
    goToReturnUrl: (_, _params: { url: string }) => {},
    goToLoginTimeout: () => {},
    goToLoginError: () => {},
    goToLogOut: () => {},
    // The shell hears of every profile read: the welcome screen and the language follow it.
    announceProfile: (_, _params: { profile: Profile }) => {},
    rememberReturnUrl: assign((_, params: { returnUrl: string | null }) => ({ returnUrl: params.returnUrl })),
    keepToken: assign((_, params: { token: string }) => ({ token: params.token, errorCode: null })),
    forgetToken: assign({ token: null, profile: null }),
    keepProfile: assign((_, params: { profile: Profile }) => ({ profile: params.profile, errorCode: null })),
    rememberError: assign((_, params: { error: unknown }) => ({
      errorCode: toApiFailure(params.error).code,
    })),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isUnauthorized: (_, params: { error: unknown }) => {
      const failure = toApiFailure(params.error);
      return failure.code === 'unauthorized' || failure.status === 401;
    },
    isNetworkFailure: (_, params: { error: unknown }) => toApiFailure(params.error).code === 'network',
  },
  delays: { PROFILE_POLL: PROFILE_POLL_MS },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ token: input.storedToken, profile: null, errorCode: null, returnUrl: null }),
  initial: 'anonymous',
  states: {
    anonymous: {
      on: {
        'auth.exchange': {
          target: 'exchanging',
          actions: { type: 'rememberReturnUrl', params: returnUrlOfEvent },
        },
        'session.require': [
          { guard: 'hasToken', target: 'loadingProfile' },
          { actions: { type: 'redirectToLogin', params: returnUrlOfEvent } },
        ],
      },
    },
    exchanging: {
      tags: ['busy'],
      invoke: {
        id: 'fetchToken',
        src: 'fetchToken',
        onDone: {
          target: 'loadingProfile',
          actions: [
            { type: 'keepToken', params: tokenOfOutput },
            { type: 'storeToken', params: tokenOfOutput },
            { type: 'goToReturnUrl', params: safeReturnUrlOfContext },
          ],
        },
        onError: {
          target: 'anonymous',
          actions: [
            { type: 'rememberError', params: errorOfEvent },
            { type: 'redirectToLogin', params: returnUrlOfContext },
          ],
        },
      },
    },
    loadingProfile: {
      tags: ['busy'],
      invoke: {
        id: 'fetchProfile',
        src: 'fetchProfile',
        onDone: {
          target: 'authenticated',
          actions: [
            { type: 'keepProfile', params: profileOfOutput },
            { type: 'announceProfile', params: profileOfOutput },
          ],
        },
        onError: [
          {
            guard: { type: 'isUnauthorized', params: errorOfEvent },
            target: 'expired',
            actions: [
              { type: 'rememberError', params: errorOfEvent },
              'removeToken',
              'forgetToken',
              'goToLoginTimeout',
            ],
          },
          {
            target: 'expired',
            actions: [
              { type: 'rememberError', params: errorOfEvent },
              'removeToken',
              'forgetToken',
              'goToLoginError',
            ],
          },
        ],
      },
    },
    authenticated: {
      tags: ['authenticated'],
      initial: 'idle',
      on: {
        'session.unauthorized': {
          target: 'expired',
          actions: ['removeToken', 'forgetToken', 'goToLoginTimeout'],
        },
        'session.logout': { target: 'loggingOut', actions: ['removeToken', 'forgetToken', 'goToLogOut'] },
      },
      states: {
        idle: {
          after: { PROFILE_POLL: 'polling' },
          on: { 'profile.refresh': 'polling' },
        },
        polling: {
          // A change made while a read is under way (an approval, a signature) may be missed by that
          // read: it starts again, so the counters show the change at once.
          on: { 'profile.refresh': { target: 'polling', reenter: true } },
          invoke: {
            id: 'pollProfile',
            src: 'fetchProfile',
            onDone: {
              target: 'idle',
              actions: [
                { type: 'keepProfile', params: profileOfOutput },
                { type: 'announceProfile', params: profileOfOutput },
              ],
            },
            onError: [
              // The next other call will see the 401 and end the session through session.unauthorized.
              { guard: { type: 'isUnauthorized', params: errorOfEvent }, target: 'idle' },
              // Offline (a train tunnel) is retried at the next poll instead of ending the session.
              { guard: { type: 'isNetworkFailure', params: errorOfEvent }, target: 'idle' },
              {
                target: '#session.loggingOut',
                actions: [
                  { type: 'rememberError', params: errorOfEvent },
                  'removeToken',
                  'forgetToken',
                  'goToLogOut',
                ],
              },
            ],
          },
        },
      },
    },
    // The browser is navigating to /api/log_out: nothing more happens in this page.
    loggingOut: {},
    expired: {
      on: {
        'auth.exchange': {
          target: 'exchanging',
          actions: { type: 'rememberReturnUrl', params: returnUrlOfEvent },
        },
        'session.require': { actions: { type: 'redirectToLogin', params: returnUrlOfEvent } },
      },
    },
  },
});
