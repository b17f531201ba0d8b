// POST /error_reports: the app's error screen sends what crashed, where and in which version. The token is
// optional (the app can crash before sign-in): a valid one ties the report to the user, and a missing or
// invalid one leaves it anonymous rather than refusing it, since a report about a broken session is still
// worth having. The route is kept as a path only, so no query string (a search term, a return URL, a
// token) is ever stored. Reports are limited per client address, counted in the table itself so every
// instance shares the limit; only the id and the route are logged, never the message or the stack.
import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Handlers, OperationRequest } from '../context.ts';
import { toCount } from '../db/database.ts';
import { ApiError } from '../http/errors.ts';
import { sendTooManyRequests } from './connections.ts';

export const ERROR_REPORT_LIMIT = { max: 10, windowMs: 60_000 } as const;
export const USER_AGENT_MAX_LENGTH = 512;

const invalid = (field: string, message: string): ApiError =>
  new ApiError(400, 'invalid_request', message, { field, validations: { [field]: [message] } });

/**
 * The path of what the app sent: anything after `?` or `#` is dropped, and an absolute http(s) URL keeps
 * only its path. Null when what is left is not a path.
 */
export function routeOf(url: string): string | null {
  const beforeQuery = url.trim().split(/[?#]/, 1)[0] ?? '';
  let path = beforeQuery;
  if (/^https?:\/\//i.test(beforeQuery)) {
    try {
      path = new URL(beforeQuery).pathname;
    } catch {
      return null;
    }
  }
  return path.startsWith('/') ? path : null;
}

function shortened(text: string | undefined, maxLength = Infinity): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, maxLength);
}

async function createErrorReport(req: OperationRequest<'createErrorReport'>, reply: FastifyReply) {
  const body = req.body;
  const message = body.message.trim();
  if (message === '') throw invalid('message', 'The message must not be blank.');
  const route = routeOf(body.url);
  if (route === null) throw invalid('url', 'The route must be a path such as /app/documents.');

  const deps = req.server.deps;
  const now = deps.clock();
  const since = new Date(now.getTime() - ERROR_REPORT_LIMIT.windowMs).toISOString();
  const recent = await deps.db
    .selectFrom('error_reports')
    .select((eb) => [eb.fn.countAll<string | number>().as('reports'), eb.fn.min('created_at').as('oldest')])
    .where('ip', '=', req.ip)
    .where('created_at', '>', since)
    .executeTakeFirst();
  if (toCount(recent?.reports) >= ERROR_REPORT_LIMIT.max) {
    const oldest = typeof recent?.oldest === 'string' ? Date.parse(recent.oldest) : now.getTime();
    const waitMs = oldest + ERROR_REPORT_LIMIT.windowMs - now.getTime();
    return sendTooManyRequests(reply, Math.max(1, Math.ceil(waitMs / 1000)));
  }

  const id = randomUUID();
  await deps.db
    .insertInto('error_reports')
    .values({
      id,
      created_at: now.toISOString(),
      user_id: req.user?.id ?? null,
      message,
      stack: shortened(body.stack),
      route,
      version: shortened(body.version),
      user_agent: shortened(req.headers['user-agent'] ?? body.userAgent, USER_AGENT_MAX_LENGTH),
      ip: req.ip,
    })
    .execute();
  req.log.info({ errorReportId: id, route }, 'error report received');
  return reply.status(202).send();
}

export const errorReportHandlers: Handlers = { createErrorReport };
