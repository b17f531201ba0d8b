// getTokens and logOut: the bridge between the sign-in page's cookie and the app's bearer token.
import type {} from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { sessionCookieAttributes } from '../auth/cookies.ts';
import { safeReturnTo } from '../auth/return-to.ts';
import {
  bearerToken,
  findSession,
  issueAccessToken,
  revokeAccessToken,
  revokeSession,
  SESSION_COOKIE,
} from '../auth/tokens.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import { unauthorized } from '../http/errors.ts';

export const LOG_OUT_DEFAULT_RETURN = '/app/login';

async function getTokens(req: OperationRequest<'getTokens'>, reply: FastifyReply) {
  const { db, clock } = req.server.deps;
  const cookie = req.cookies[SESSION_COOKIE];
  const now = clock();
  const session = cookie === undefined ? null : await findSession(db, cookie, now);
  if (session === null) throw unauthorized();
  const { token, expiresInSeconds } = await issueAccessToken(db, session.userId, session.id, now);
  reply.header('cache-control', 'no-store');
  return { access_token: token, token_type: 'Bearer' as const, expires_in: expiresInSeconds };
}

async function logOut(req: OperationRequest<'logOut'>, reply: FastifyReply) {
  const { db, clock, config } = req.server.deps;
  const now = clock();
  const cookie = req.cookies[SESSION_COOKIE];
  if (cookie !== undefined) {
    const session = await findSession(db, cookie, now);
    if (session !== null) await revokeSession(db, session.id, now);
  }
  const token = bearerToken(req.headers.authorization);
  if (token !== null) await revokeAccessToken(db, token, now);
  const query = req.query;
  reply.clearCookie(SESSION_COOKIE, sessionCookieAttributes(config));
  return reply.redirect(safeReturnTo(query.return_to, LOG_OUT_DEFAULT_RETURN), 303);
}

export const authHandlers: Handlers = { getTokens, logOut };
