// The session machine's real actors: the token exchange after sign-in and the profile load/poll.
import { fromPromise } from 'xstate';
import type { Profile, TokenGrant } from '../../machines/types';
import { api, unwrap } from '../api/client';
import { takeEarlyProfile } from './early-start';

/** Trades the server's httpOnly session cookie for an access token (spec 001 §4 "Auth"). */
export const fetchToken = fromPromise<TokenGrant>(async ({ signal }) => {
  const body = await unwrap(api.GET('/tokens', { credentials: 'include', signal }));
  return { accessToken: body.access_token };
});

async function readProfile(signal?: AbortSignal): Promise<Profile> {
  // The early start's answer goes through the client too, so its 401 and errors are handled alike.
  const early = takeEarlyProfile();
  const { data } = await unwrap(
    api.GET('/profiles', { ...(signal ? { signal } : {}), ...(early ? { fetch: () => early } : {}) }),
  );
  return { id: data.id, ...data.attributes };
}

// Every signed-in screen waits for the profile (spec 000 §4). A cold start with a stored token asks for
// it before React and the session exist (src/app/preload.ts); the session's first load takes that
// answer, and every later load (the 15 s poll) asks afresh.
let preloadedProfile: Promise<Profile> | null = null;

export function preloadProfile(): void {
  if (preloadedProfile) return;
  preloadedProfile = readProfile();
  // A failure reaches the session through its first load; here it is only kept from being unhandled.
  preloadedProfile.catch(() => {});
}

export const fetchProfile = fromPromise<Profile>(async ({ signal }) => {
  const preloaded = preloadedProfile;
  preloadedProfile = null;
  return preloaded ?? readProfile(signal);
});
