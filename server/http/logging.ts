// Logging through Fastify's pino. Requests are logged by method and path only: query strings can carry
// signatures (/storage) or return URLs (/api/log_out), and headers carry tokens and cookies, so neither is
// ever written. `redact` is a second line of defence should someone log a request object by hand.
import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';

type LoggedRequest = {
  method: string;
  url: string;
  ip?: string;
  id?: string | number;
};

/** An error as a log field: its message, never its stack or the values it may carry. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function pathOnly(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? url : url.slice(0, index);
}

const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  'authorization',
  'cookie',
  'access_token',
  'password',
  'token',
];

/** pino's options for every logger of the server: the app's, and main.ts's before the app exists. */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, path: pathOnly(req.url), ip: req.ip }),
    },
  };
}

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return { ...logOptions(level), ...(stream === undefined ? {} : { stream }) };
}
