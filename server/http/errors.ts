// One error body for every 4xx and 5xx (docs/decisions.md): a stable code, an English message, and for a
// malformed body the field at fault. Never a stack trace.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { errorText } from './logging.ts';

export type ApiErrorExtra = {
  field?: string;
  validations?: Record<string, string[]>;
  blockedIds?: string[];
};

export type ErrorBody = {
  code: string;
  message: string;
} & ApiErrorExtra;

export class ApiError extends Error {
  status: number;
  code: string;
  extra?: ApiErrorExtra;

  constructor(status: number, code: string, message: string, extra?: ApiErrorExtra) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.name = 'ApiError';
  }

  // Sent as Retry-After: when asking again makes sense.
  retryAfterSeconds?: number;
}

// Long enough for a restart or a failover to finish, short enough that nobody gives up waiting.
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): ApiError {
  const error = new ApiError(
    503,
    'database_unavailable',
    'The database cannot be reached right now. Try again in a few seconds.',
  );
  error.retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  return error;
}

// A time-stamping authority or OCSP responder that is down: long enough for a blip to pass, well within
// the request's 10 minutes.
export const SIGNING_SERVICE_RETRY_AFTER_SECONDS = 30;

export function signingServiceUnavailable(): ApiError {
  const error = new ApiError(
    503,
    'signing_service_unavailable',
    'The signing service is temporarily unavailable; nothing was signed. Please try again in a few moments.',
  );
  error.retryAfterSeconds = SIGNING_SERVICE_RETRY_AFTER_SECONDS;
  return error;
}

export const notFound = (message = 'Not found.'): ApiError => new ApiError(404, 'not_found', message);
export const unauthorized = (): ApiError =>
  new ApiError(401, 'unauthorized', 'A valid access token is required.');
export const notImplemented = (operationId: string): ApiError =>
  new ApiError(501, 'not_implemented', `${operationId} is not implemented yet.`);

type ValidationIssue = {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
};

// "/settings/locale" -> "settings.locale"; a missing or extra property names itself, not its parent.
function fieldOf(issue: ValidationIssue): string {
  const parts = (issue.instancePath ?? '').split('/').filter((part) => part !== '');
  const params = issue.params ?? {};
  const named =
    typeof params.missingProperty === 'string'
      ? params.missingProperty
      : typeof params.additionalProperty === 'string'
        ? params.additionalProperty
        : null;
  if (named !== null) parts.push(named);
  return parts.join('.');
}

const STATUS_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

export function errorBody(error: ApiError): ErrorBody {
  return { code: error.code, message: error.message, ...(error.extra ?? {}) };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // A restart, a failover or a killed connection: the request did nothing wrong and may be sent again.
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] };
  if (Array.isArray(fastifyError.validation) && fastifyError.validation.length > 0) {
    const validations: Record<string, string[]> = {};
    for (const issue of fastifyError.validation) {
      const field = fieldOf(issue) || 'base';
      (validations[field] ??= []).push(issue.message ?? 'is invalid');
    }
    const first = fastifyError.validation[0];
    const field = first ? fieldOf(first) : '';
    const where = fastifyError.validationContext ?? 'body';
    return new ApiError(
      400,
      'invalid_request',
      field ? `Invalid ${where}: ${field} ${first?.message ?? 'is invalid'}.` : `Invalid ${where}.`,
      { ...(field ? { field } : {}), validations },
    );
  }
  const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
  if (status >= 400 && status < 500) {
    return new ApiError(
      status,
      STATUS_CODES[status] ?? 'invalid_request',
      fastifyError.message ?? 'Bad request.',
    );
  }
  return new ApiError(500, 'internal_error', 'Something went wrong on the server.');
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.status(error.status).type('application/json; charset=utf-8').send(errorBody(error));
}

// Errors Fastify raises before any route runs, which the error handler never sees. A path parameter
// longer than the router allows cannot name anything that exists, so it is a 404 like any unknown id.
export function frameworkError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, notFound());
  if (error.code === 'FST_ERR_BAD_URL') {
    return sendError(reply, new ApiError(400, 'invalid_request', 'The URL is not valid.'));
  }
  return sendError(reply, toApiError(error));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.code === 'database_unavailable' && !(error instanceof ApiError)) {
      // The pool's own warning says when connections are lost; each request only notes what it met.
      req.log.warn({ error: errorText(error) }, 'the database cannot be reached; answered 503');
    } else if (!(error instanceof ApiError) && apiError.status >= 500) {
      // Deliberate answers (ApiError, validation) are the client's business; anything else is a server fault.
      req.log.error({ err: error }, 'request failed');
    }
    return sendError(reply, apiError);
  });
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    return sendError(
      reply,
      new ApiError(404, 'not_found', `No route for ${req.method} ${req.url.split('?')[0] ?? ''}.`),
    );
  });
}
