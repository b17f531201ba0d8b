import type { FastifyRequest } from 'fastify';
import type { AuthUser } from '../context.ts';
import { unauthorized } from '../http/errors.ts';

// Handlers of bearer-secured operations only run with a user (app.ts refuses the call before), but the
// check stays here too so that a handler moved to an unsecured operation fails closed.
export function currentUser(req: FastifyRequest): AuthUser {
  if (req.user === null) throw unauthorized();
  return req.user;
}
