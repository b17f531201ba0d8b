// The deployment PKI's public face, at the URLs its certificates name (server/signing/ca/issue.ts):
//   GET  /pki/ca.crt           the CA's certificate, DER (authority information access, caIssuers)
//   GET  /pki/crl              the CA's CRL, DER (CRL distribution point)
//   POST /pki/ocsp             an OCSP request (RFC 6960; authority information access, OCSP)
//   GET  /pki/ocsp/<base64>    the same request in the URL (RFC 6960 A.1), the form HTTP caches keep
//   POST /pki/tsa              an RFC 3161 time-stamp request, while the deployment runs its own TSA
// Relying parties ask these from anywhere, without an account: nothing here reads a cookie or acts for
// anyone, so there is no sign-in and no cross-site check. The DER bodies are read by parsers of this scope
// only (the app's JSON and form parsers are untouched), up to the size a request can sensibly have.
// Unreadable requests get the protocol's own refusal (OCSP malformedRequest, an RFC 3161 rejection), sent
// with 200 as both protocols do; another media type is a 415, a longer body a 413.
import { OCSPResponse, OCSPResponseStatus } from '@peculiar/asn1-ocsp';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';
import { encode, sameBytes } from '../signing/pki/asn1.ts';
import { DATABASE_RETRY_AFTER_SECONDS, notFound, sendError } from './errors.ts';
import { errorText, pathOnly } from './logging.ts';
import { requestBodyGate } from './request-body.ts';

const OCSP_REQUEST = 'application/ocsp-request';
const OCSP_RESPONSE = 'application/ocsp-response';
const TIMESTAMP_QUERY = 'application/timestamp-query';
const TIMESTAMP_REPLY = 'application/timestamp-reply';

// What the responder and the TSA read at most (server/signing/pki/ocsp.ts, tsa.ts): an OCSP request names
// a handful of certificates in a few hundred bytes, a time-stamp request is a hundred bytes or so.
const OCSP_BODY_LIMIT = 64 * 1024;
const TSA_BODY_LIMIT = 16 * 1024;

const OCSP_GET_PREFIX = '/pki/ocsp/';

// docs/decisions.md, "The /pki/* routes": the CA's certificate changes only when the deployment's CA is
// replaced; a CRL or an OCSP answer fetched through a cache shows a revocation within the hour, or within
// five minutes. Both are well inside their own validity (7 days, 24 hours), as RFC 5019 6.2 asks.
const CA_CACHE = 'public, max-age=86400';
const CRL_CACHE = 'public, max-age=3600, no-transform';
const OCSP_GET_CACHE = 'public, max-age=300, no-transform, must-revalidate';
const NO_STORE = 'no-store';

const statusAnswer = (status: OCSPResponseStatus): Uint8Array =>
  encode(new OCSPResponse({ responseStatus: status }));

// The whole of an answer that is not successful (it carries no responseBytes): told apart by its bytes,
// since reading a signed answer back costs tens of milliseconds of the event loop.
const REFUSALS = [
  OCSPResponseStatus.malformedRequest,
  OCSPResponseStatus.internalError,
  OCSPResponseStatus.tryLater,
  OCSPResponseStatus.sigRequired,
  OCSPResponseStatus.unauthorized,
].map(statusAnswer);
const TRY_LATER = statusAnswer(OCSPResponseStatus.tryLater);

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const bodyBytes = (req: FastifyRequest): Uint8Array =>
  Buffer.isBuffer(req.body) ? req.body : new Uint8Array();

/**
 * The DER request of GET /pki/ocsp/<...>: URL-encoded base64, whose '/', '+' and '=' may come encoded or
 * not; base64url is taken too. Null when it is not base64 at all.
 */
function ocspRequestFromUrl(url: string): Uint8Array | null {
  const path = pathOnly(url);
  if (!path.startsWith(OCSP_GET_PREFIX)) return null;
  let text: string;
  try {
    text = decodeURIComponent(path.slice(OCSP_GET_PREFIX.length));
  } catch {
    return null;
  }
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  // Node's base64 decoder reads both alphabets.
  return Buffer.from(text, 'base64');
}

export async function registerPkiRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // deps is read at each request, as the health routes do: tests swap parts of it.
  async function answerOcsp(req: FastifyRequest, reply: FastifyReply, request: Uint8Array, cache: string) {
    let answer: Uint8Array;
    try {
      answer = await (await deps.signingServices()).ocsp.answer(request);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      // OCSP's own "try later", with the app's 503 and Retry-After around it: an OCSP client reads the
      // former, a proxy or a generic HTTP client the latter.
      req.log.warn({ error: errorText(error) }, 'the database cannot be reached; answered 503');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .header('cache-control', NO_STORE)
        .type(OCSP_RESPONSE)
        .send(asBuffer(TRY_LATER));
    }
    const refused = REFUSALS.some((refusal) => sameBytes(refusal, answer));
    return reply
      .header('cache-control', refused ? NO_STORE : cache)
      .type(OCSP_RESPONSE)
      .send(asBuffer(answer));
  }

  await app.register(async (scope) => {
    const raw = (_req: FastifyRequest, body: Buffer, done: (error: null, body: Buffer) => void) =>
      done(null, body);
    scope.addContentTypeParser(OCSP_REQUEST, { parseAs: 'buffer', bodyLimit: OCSP_BODY_LIMIT }, raw);
    scope.addContentTypeParser(TIMESTAMP_QUERY, { parseAs: 'buffer', bodyLimit: TSA_BODY_LIMIT }, raw);

    scope.get('/pki/ca.crt', async (_req, reply) => {
      const pki = await deps.pki();
      return reply
        .header('cache-control', CA_CACHE)
        .type('application/pkix-cert')
        .send(asBuffer(pki.ca.certificate));
    });

    scope.get('/pki/crl', async (_req, reply) => {
      const crl = await (await deps.signingServices()).crl();
      return reply.header('cache-control', CRL_CACHE).type('application/pkix-crl').send(asBuffer(crl));
    });

    scope.post(
      '/pki/ocsp',
      {
        bodyLimit: OCSP_BODY_LIMIT,
        preParsing: requestBodyGate({ required: true, mediaTypes: [OCSP_REQUEST] }),
      },
      // A POST answers one client's request, often with its nonce: nobody else's to keep.
      async (req, reply) => answerOcsp(req, reply, bodyBytes(req), NO_STORE),
    );

    // A wildcard: the base64 may hold '/'. The URL is read raw, so that it is decoded exactly once.
    scope.get('/pki/ocsp/*', async (req, reply) => {
      const request = ocspRequestFromUrl(req.url);
      // An empty request is malformed too: the responder says so.
      return answerOcsp(req, reply, request ?? new Uint8Array(), OCSP_GET_CACHE);
    });

    scope.post(
      '/pki/tsa',
      {
        bodyLimit: TSA_BODY_LIMIT,
        // With PARAPH_TSA_URL the deployment runs no TSA: said before the body is read, or the PKI loaded.
        onRequest: async (req, reply) => {
          if (deps.config.tsaUrl !== null) {
            return sendError(reply, notFound(`No route for ${req.method} /pki/tsa.`));
          }
          return undefined;
        },
        preParsing: requestBodyGate({ required: true, mediaTypes: [TIMESTAMP_QUERY] }),
      },
      async (req, reply) => {
        const tsa = (await deps.signingServices()).embeddedTsa;
        if (tsa === null) return sendError(reply, notFound(`No route for ${req.method} /pki/tsa.`));
        const answer = await tsa.answer(bodyBytes(req));
        return reply.header('cache-control', NO_STORE).type(TIMESTAMP_REPLY).send(asBuffer(answer));
      },
    );
  });
}
