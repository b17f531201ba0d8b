// The session cookie's attributes, shared by sign-in, sign-up and log-out (clearing needs the same ones).
// Secure follows the configured public origin, not the request: behind a TLS-terminating proxy the request
// itself arrives over http.
import type { Config } from '../config.ts';
import { SESSION_TTL_SECONDS } from './tokens.ts';

export function isHttpsOrigin(config: Pick<Config, 'publicOrigin'>): boolean {
  return config.publicOrigin.startsWith('https:');
}

/** What clearing the cookie at log-out needs: the same attributes it was set with. */
export function sessionCookieAttributes(config: Pick<Config, 'publicOrigin'>) {
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: isHttpsOrigin(config) };
}

export function sessionCookieOptions(config: Pick<Config, 'publicOrigin'>) {
  return { ...sessionCookieAttributes(config), maxAge: SESSION_TTL_SECONDS };
}
