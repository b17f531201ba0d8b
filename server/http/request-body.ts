// Keeps every /api body to the media types its operation declares in openapi/openapi.yaml. Fastify
// validates a body only against the schema of its own content type, so a form-encoded or text/plain body
// sent to a JSON operation would be parsed by another parser and reach the handler unvalidated. This runs
// before any parser does: another media type is a 415, a missing required body a 400.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { ContractRequestBody } from './contract.ts';
import { ApiError, notFound } from './errors.ts';

type Headers = FastifyRequest['headers'];

function hasPayload(headers: Headers): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

// "Application/JSON; charset=utf-8" -> "application/json"
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

export const unsupportedMediaType = (sent: string, accepted: string[]): ApiError =>
  new ApiError(
    415,
    'unsupported_media_type',
    `${sent === '' ? 'A body without a Content-Type' : `Content-Type ${sent}`} is not accepted here; send ${accepted.join(' or ')}.`,
  );

export const missingBody = (accepted: string[]): ApiError =>
  new ApiError(400, 'invalid_request', `A request body is required (${accepted.join(' or ')}).`, {
    field: 'base',
  });

export function requestBodyGate(body: ContractRequestBody | null) {
  return async (req: FastifyRequest, _reply: FastifyReply, payload: Readable): Promise<Readable> => {
    const headers = req.headers;
    const contentType = headers['content-type'];
    if (body === null) {
      // An operation without a body answers the same whatever comes with it: the body is left unread
      // (Node discards it) instead of going through whichever parser its type names, which could
      // refuse it (an empty JSON body, multipart) or buffer it for nothing.
      if (contentType !== undefined || hasPayload(headers)) {
        delete req.raw.headers['content-type'];
        delete req.raw.headers['content-length'];
        delete req.raw.headers['transfer-encoding'];
      }
      return payload;
    }
    if (contentType === undefined) {
      if (hasPayload(headers)) throw unsupportedMediaType('', body.mediaTypes);
      if (body.required) throw missingBody(body.mediaTypes);
      return payload;
    }
    const mediaType = mediaTypeOf(contentType);
    if (!body.mediaTypes.includes(mediaType)) throw unsupportedMediaType(mediaType, body.mediaTypes);
    return payload;
  };
}

type Found = { where: 'params' | 'query' | 'body'; field: string };

// The first string holding U+0000, and where: walked with a stack, since a body may nest deeply.
function findNul(where: Found['where'], value: unknown): Found | null {
  const stack: { path: string; value: unknown }[] = [{ path: '', value }];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    if (typeof next.value === 'string') {
      if (next.value.includes('\u0000')) return { where, field: next.path || 'base' };
    } else if (ArrayBuffer.isView(next.value)) {
      // A binary body (DER for /pki/*) holds bytes, not text, and walking it entry by entry would take
      // hundreds of milliseconds of the event loop for 64 KB.
      continue;
    } else if (typeof next.value === 'object' && next.value !== null) {
      for (const [key, item] of Object.entries(next.value)) {
        stack.push({ path: next.path === '' ? key : `${next.path}.${key}`, value: item });
      }
    }
  }
  return null;
}

// PostgreSQL text cannot hold U+0000: such a value would fail in the database as a 500 (SQLite stores
// it). No name, address, id or comment has one, so it is refused before anything reads it. An id with
// one names nothing, so it is a 404 like any unknown id.
export async function refuseNulCharacters(req: FastifyRequest): Promise<void> {
  const found = findNul('params', req.params) ?? findNul('query', req.query) ?? findNul('body', req.body);
  if (found === null) return;
  if (found.where === 'params') throw notFound();
  throw new ApiError(400, 'invalid_request', `Invalid ${found.where}: ${found.field} must not contain NUL.`, {
    field: found.field,
    validations: { [found.field]: ['must not contain NUL'] },
  });
}
