// The session machine's real actors: the token exchange after sign-in and the profile load/poll.
import { fromPromise } from 'xstate';
import type { Profile, TokenGrant } from '../../machines/types';
import { api, unwrap } from '../api/client';

/** Trades the server's httpOnly session cookie for an access token (spec 001 §4 "Auth"). */
export const fetchToken = fromPromise<TokenGrant>(async ({ signal }) => {
  const body = await unwrap(api.GET('/tokens', { credentials: 'include', signal }));
  return { accessToken: body.access_token };
});

export const fetchProfile = fromPromise<Profile>(async ({ signal }) => {
  const { data } = await unwrap(api.GET('/profiles', { signal }));
  return { id: data.id, ...data.attributes };
});
