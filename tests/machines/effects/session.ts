// The session's calls (token exchange, profile load, the 15 s poll) and its navigation (to the login,
// to the return URL, to /api/log_out) with the token kept in or removed from storage
// (docs/machines.md, "session"). A 401 or the network failing on the poll is ignored until the next poll.
import type { EffectTable } from './table';

export const SESSION_EFFECTS = {
  '(start)': [],
  'anonymous: auth.exchange -> exchanging': ['invoke fetchToken'],
  'anonymous: session.require #1 [hasToken] -> loadingProfile': ['invoke fetchProfile'],
  'anonymous: session.require #2 -> (stays)': ['redirectToLogin'],
  'exchanging: xstate.done.actor.fetchToken -> loadingProfile': [
    'goToReturnUrl',
    'invoke fetchProfile',
    'storeToken',
  ],
  'exchanging: xstate.error.actor.fetchToken -> anonymous': ['redirectToLogin'],
  'loadingProfile: xstate.done.actor.fetchProfile -> authenticated': [
    'after PROFILE_POLL',
    'announceProfile',
  ],
  'loadingProfile: xstate.error.actor.fetchProfile #1 [isUnauthorized] -> expired': [
    'goToLoginTimeout',
    'removeToken',
  ],
  'loadingProfile: xstate.error.actor.fetchProfile #2 -> expired': ['goToLoginError', 'removeToken'],
  'authenticated.idle: profile.refresh -> authenticated.polling': ['invoke pollProfile'],
  'authenticated.idle: xstate.after.PROFILE_POLL.session.authenticated.idle -> authenticated.polling': [
    'invoke pollProfile',
  ],
  'authenticated.*: session.unauthorized -> expired (on authenticated)': ['goToLoginTimeout', 'removeToken'],
  'authenticated.*: session.logout -> loggingOut (on authenticated)': ['goToLogOut', 'removeToken'],
  'authenticated.polling: profile.refresh -> authenticated.polling': ['invoke pollProfile'],
  'authenticated.polling: xstate.done.actor.pollProfile -> authenticated.idle': [
    'after PROFILE_POLL',
    'announceProfile',
  ],
  'authenticated.polling: xstate.error.actor.pollProfile #1 [isUnauthorized] -> authenticated.idle': [
    'after PROFILE_POLL',
  ],
  'authenticated.polling: xstate.error.actor.pollProfile #2 [isNetworkFailure] -> authenticated.idle': [
    'after PROFILE_POLL',
  ],
  'authenticated.polling: xstate.error.actor.pollProfile #3 -> loggingOut': ['goToLogOut', 'removeToken'],
  'expired: auth.exchange -> exchanging': ['invoke fetchToken'],
  'expired: session.require -> (stays)': ['redirectToLogin'],
} as const satisfies EffectTable;
