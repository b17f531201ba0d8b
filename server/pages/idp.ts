// /idp/: the identity-app stand-in (docs/decisions.md, "The identity app"). The signer opens it from the
// link or QR code of the app's confirmation dialog, signed in by the session cookie of /sign_in, and
// confirms or denies each pending signature. Plain HTML forms, no script. The forms carry a CSRF token
// (an HMAC of the session and the request with a server secret): SameSite=Lax alone would still let a
// same-site page post a confirmation. A confirmation that found the time-stamping authority or the OCSP
// responder down answers 503 (Retry-After) with the request, still pending, and a notice to confirm again.
import type {} from '@fastify/cookie';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { findSession, SESSION_COOKIE } from '../auth/tokens.ts';
import type { AppDeps } from '../context.ts';
import type { Database } from '../db/schema.ts';
import {
  confirmDocumentVersion,
  denyDocumentVersion,
  pendingVersionsFor,
  versionForSigner,
} from '../documents/signing-confirm.ts';
import { ApiError, signingServiceUnavailable } from '../http/errors.ts';
import {
  idpLocale,
  idpRequestPath,
  renderNotice,
  renderRequest,
  renderRequestList,
  type IdpRequestView,
} from './idp-render.ts';

const CSRF_SECRET_NAME = 'idp_csrf';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type IdpViewer = { sessionId: string; userId: string; fullName: string; email: string; locale: string };

// One secret per database, shared by every instance: insert-if-absent, then read (like the local store's).
const secrets = new WeakMap<Kysely<Database>, Promise<string>>();

function csrfSecret(db: Kysely<Database>): Promise<string> {
  let secret = secrets.get(db);
  if (secret === undefined) {
    secret = (async () => {
      await db
        .insertInto('server_secrets')
        .values({ name: CSRF_SECRET_NAME, value: randomBytes(32).toString('hex') })
        .onConflict((conflict) => conflict.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('server_secrets')
        .select('value')
        .where('name', '=', CSRF_SECRET_NAME)
        .executeTakeFirstOrThrow();
      return row.value;
    })();
    // A failed read is not kept, so the next request tries again.
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

export async function idpCsrfToken(
  db: Kysely<Database>,
  sessionId: string,
  versionId: string,
): Promise<string> {
  const secret = await csrfSecret(db);
  return createHmac('sha256', secret)
    .update(`idp:${sessionId}:${versionId.toLowerCase()}`)
    .digest('base64url');
}

async function isValidCsrfToken(
  db: Kysely<Database>,
  sessionId: string,
  versionId: string,
  sent: unknown,
): Promise<boolean> {
  if (typeof sent !== 'string' || sent.length === 0 || sent.length > 128) return false;
  const expected = Buffer.from(await idpCsrfToken(db, sessionId, versionId));
  const actual = Buffer.from(sent);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

async function viewerOf(deps: AppDeps, req: FastifyRequest): Promise<IdpViewer | null> {
  const cookie = req.cookies[SESSION_COOKIE];
  if (cookie === undefined) return null;
  const session = await findSession(deps.db, cookie, deps.clock());
  if (session === null) return null;
  const user = await deps.db
    .selectFrom('users')
    .select(['full_name', 'email', 'locale'])
    .where('id', '=', session.userId)
    .executeTakeFirst();
  if (user === undefined) return null;
  return {
    sessionId: session.id,
    userId: session.userId,
    fullName: user.full_name,
    email: user.email,
    locale: user.locale,
  };
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}

function toSignIn(reply: FastifyReply, returnTo: string): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .redirect(`/sign_in?return_to=${encodeURIComponent(returnTo)}`, 303);
}

function notFoundPage(reply: FastifyReply, viewer: IdpViewer | null): FastifyReply {
  return sendHtml(
    reply,
    404,
    renderNotice(viewer, 'Request not found', 'This signature request does not exist or is not yours.'),
  );
}

// The owners' names of the given documents, for "Requested by"; the signer's own documents are left out.
async function ownerNames(
  deps: AppDeps,
  documentIds: readonly string[],
  signerId: string,
): Promise<Map<string, string>> {
  if (documentIds.length === 0) return new Map();
  const rows = await deps.db
    .selectFrom('documents')
    .innerJoin('users', 'users.id', 'documents.owner_id')
    .select(['documents.id', 'documents.owner_id', 'users.full_name'])
    .where('documents.id', 'in', [...new Set(documentIds)])
    .execute();
  return new Map(rows.filter((row) => row.owner_id !== signerId).map((row) => [row.id, row.full_name]));
}

type VersionSummary = Awaited<ReturnType<typeof pendingVersionsFor>>[number];

function toView(version: VersionSummary, owners: Map<string, string>): IdpRequestView {
  return {
    id: version.id,
    filename: version.filename,
    signerName: version.signerName,
    ownerName: owners.get(version.documentId) ?? null,
    smartCardType: version.smartCardType,
    location: version.location,
    reason: version.reason,
    createdAt: version.createdAt,
  };
}

function versionIdOf(req: FastifyRequest): string | null {
  const id = (req.params as { id?: unknown }).id;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null;
}

function csrfField(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  return (body as Record<string, unknown>).csrf_token;
}

export function registerIdpPages(app: FastifyInstance, deps: AppDeps): void {
  app.get('/idp', async (_req, reply) => reply.redirect('/idp/', 302));

  app.get('/idp/', async (req, reply) => {
    const viewer = await viewerOf(deps, req);
    if (viewer === null) return toSignIn(reply, '/idp/');
    const versions = await pendingVersionsFor(deps, viewer.userId);
    const owners = await ownerNames(
      deps,
      versions.map((version) => version.documentId),
      viewer.userId,
    );
    return sendHtml(
      reply,
      200,
      renderRequestList(
        viewer,
        versions.map((version) => toView(version, owners)),
      ),
    );
  });

  app.get('/idp/requests/:id', async (req, reply) => {
    const versionId = versionIdOf(req);
    const viewer = await viewerOf(deps, req);
    if (viewer === null) {
      return toSignIn(reply, versionId === null ? '/idp/' : idpRequestPath(versionId));
    }
    if (versionId === null) return notFoundPage(reply, viewer);
    const version = await versionForSigner(deps, versionId, viewer.userId);
    if (version === null) return notFoundPage(reply, viewer);
    const owners = await ownerNames(deps, [version.documentId], viewer.userId);
    const token = await idpCsrfToken(deps.db, viewer.sessionId, versionId);
    return sendHtml(reply, 200, renderRequest(viewer, toView(version, owners), version.state, token));
  });

  for (const answer of ['confirm', 'deny'] as const) {
    app.post(`/idp/requests/:id/${answer}`, async (req, reply) => {
      const versionId = versionIdOf(req);
      const viewer = await viewerOf(deps, req);
      if (viewer === null) {
        return toSignIn(reply, versionId === null ? '/idp/' : idpRequestPath(versionId));
      }
      if (versionId === null) return notFoundPage(reply, viewer);
      if (!(await isValidCsrfToken(deps.db, viewer.sessionId, versionId, csrfField(req.body)))) {
        return sendHtml(
          reply,
          403,
          renderNotice(
            viewer,
            'Not answered',
            'This answer did not come from the request page. Open the request again and answer there.',
          ),
        );
      }
      const input = {
        versionId,
        userId: viewer.userId,
        ip: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
      };
      let unavailable = false;
      try {
        if (answer === 'confirm') {
          unavailable = (await confirmDocumentVersion(deps, input)).outcome === 'service_unavailable';
        } else await denyDocumentVersion(deps, input);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return notFoundPage(reply, viewer);
        throw error;
      }
      if (unavailable) {
        // The request is still pending: the page says why nothing was signed and offers Confirm again.
        const version = await versionForSigner(deps, versionId, viewer.userId);
        if (version?.state === 'pending') {
          const error = signingServiceUnavailable();
          const owners = await ownerNames(deps, [version.documentId], viewer.userId);
          const token = await idpCsrfToken(deps.db, viewer.sessionId, versionId);
          reply.header('retry-after', String(error.retryAfterSeconds));
          return sendHtml(
            reply,
            error.status,
            renderRequest(viewer, toView(version, owners), 'pending', token, {
              code: error.code,
              locale: idpLocale(viewer.locale),
            }),
          );
        }
      }
      // Post/redirect/get: the request page shows the outcome, and a reload does not post again.
      return reply.header('cache-control', 'no-store').redirect(idpRequestPath(versionId), 303);
    });
  }
}
