// Builds the whole server: /api bound by operationId from openapi/openapi.yaml, the sign-in page, the
// deployment PKI's /pki/* for relying parties, the built app under /app/ and, for the embedded store,
// /storage. No state lives in the process: everything is in the database and the object store, so several
// instances can run side by side.
import type { KeyObject } from 'node:crypto';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteHandlerMethod } from 'fastify';
import type { Kysely } from 'kysely';
import type { DestinationStream } from 'pino';
import { bearerToken, userForAccessToken } from './auth/tokens.ts';
import type { Config } from './config.ts';
import type { AppDeps, Handlers, OperationId } from './context.ts';
import { openMigratedDatabase } from './db/database.ts';
import type { SqlDialect } from './db/dialect.ts';
import type { Database } from './db/schema.ts';
import { auditTrailHandlers } from './handlers/audit-trail.ts';
import { authHandlers } from './handlers/auth.ts';
import { connectionRequestHandlers } from './handlers/connection-requests.ts';
import { connectionHandlers } from './handlers/connections.ts';
import { documentActionHandlers } from './handlers/document-actions.ts';
import { documentHandlers } from './handlers/documents.ts';
import { documentVersionResendHandlers } from './handlers/document-versions-resend.ts';
import { errorReportHandlers } from './handlers/error-reports.ts';
import { inviteHandlers } from './handlers/invites.ts';
import { profileHandlers } from './handlers/profiles.ts';
import { signGroupHandlers } from './handlers/sign-groups.ts';
import { signFlowHandlers } from './handlers/sign-flows.ts';
import { signingHandlers } from './handlers/signing.ts';
import { uploadHandlers } from './handlers/uploads.ts';
import { verificationHandlers } from './handlers/verifications.ts';
import { apiOperations, loadContract } from './http/contract.ts';
import { contractRoutes } from './http/contract-routes.ts';
import { frameworkError, notImplemented, registerErrorHandling, unauthorized } from './http/errors.ts';
import { registerHealthRoutes } from './http/health.ts';
import { loggerOptions } from './http/logging.ts';
import { registerPkiRoutes } from './http/pki-routes.ts';
import { refuseNulCharacters, requestBodyGate } from './http/request-body.ts';
import { contentSecurityPolicy, registerSecurityHeaders } from './http/security-headers.ts';
import { registerDevOutbox } from './pages/dev-outbox.ts';
import { registerIdpPages } from './pages/idp.ts';
import { registerSignInPages } from './pages/sign-in.ts';
import { registerSpa } from './pages/spa.ts';
import { createStore } from './storage/create-store.ts';
import type { ObjectStore } from './storage/object-store.ts';
import { registerLocalStorageRoutes } from './storage/routes.ts';
import { lazyLocalSigner, lazySigningServices } from './documents/signing-signer.ts';
import { lazyDeploymentPki } from './signing/ca/index.ts';
import { createMetrics } from './metrics.ts';
import type { Signer } from './signing/signer.ts';
import { registerDeferredBodies } from './verification/request-pdf.ts';

export type BuildOverrides = {
  // A database opened (and migrated) by the caller; it is then not closed with the app.
  db?: Kysely<Database>;
  store?: ObjectStore;
  clock?: () => Date;
  // Where pino writes (tests capture the log through it).
  logStream?: DestinationStream;
  // Replaces or adds handlers by operationId (tests, later issues).
  handlers?: Handlers;
  // A PostgreSQL schema of its own (tests running in parallel on one database).
  pgSchema?: string;
  // Replaces the local certificate authority's signer (tests of the sign pipeline's rules).
  signer?: Signer;
  // Where the certificate authority's new RSA keys come from (LoadPkiOptions.generateKey).
  generateKey?: (bits: number) => Promise<KeyObject>;
};

// Also readable by any name, so that a check over the contract's operationIds needs no cast.
export const HANDLERS: Handlers & { readonly [operationId: string]: unknown } = {
  ...authHandlers,
  ...profileHandlers,
  ...documentHandlers,
  ...auditTrailHandlers,
  ...documentActionHandlers,
  ...signFlowHandlers,
  ...signingHandlers,
  ...documentVersionResendHandlers,
  ...inviteHandlers,
  ...connectionHandlers,
  ...connectionRequestHandlers,
  ...signGroupHandlers,
  ...uploadHandlers,
  ...errorReportHandlers,
  ...verificationHandlers,
};

const JSON_BODY_LIMIT = 1024 * 1024;

// Bodies are validated strictly (no coercion, nothing removed); query strings and path parameters arrive
// as text, so they are coerced to the contract's types.
function validators() {
  const common = { allErrors: true, removeAdditional: false, strict: false, useDefaults: true } as const;
  const body = new Ajv2020({ ...common, coerceTypes: false });
  const params = new Ajv2020({ ...common, coerceTypes: 'array' });
  addFormats(body);
  addFormats(params);
  return { body, params };
}

// One pair of validators per process, and one compiled function per schema text. A process that builds
// the app more than once (the API tests build it hundreds of times) otherwise compiled the JSON Schema
// meta-schema and every operation's schemas again each time: over half of building the app. A compiled
// validator is a pure function of its schema, so apps may share it.
let sharedValidators: ReturnType<typeof validators> | null = null;
const compiledValidators = new Map<string, ValidateFunction>();

function compileValidator(schema: unknown, httpPart: string | undefined): ValidateFunction {
  const part = httpPart === 'body' ? 'body' : 'params';
  const key = `${part} ${JSON.stringify(schema)}`;
  let validate = compiledValidators.get(key);
  if (validate === undefined) {
    sharedValidators ??= validators();
    validate = sharedValidators[part].compile(schema as object);
    compiledValidators.set(key, validate);
  }
  return validate;
}

async function requireBearer(req: FastifyRequest): Promise<void> {
  if (req.user === null) throw unauthorized();
}

function unbuilt(operationId: string): () => Promise<never> {
  return async () => {
    throw notImplemented(operationId);
  };
}

export async function buildApp(config: Config, overrides: BuildOverrides = {}): Promise<FastifyInstance> {
  const clock = overrides.clock ?? (() => new Date());
  let ownedDb: Kysely<Database> | null = null;
  let db: Kysely<Database>;
  let dialect: SqlDialect | null = null;

  // Made first: the database reports its lost connections to the server's log.
  const app = Fastify({
    logger: loggerOptions(config.logLevel, overrides.logStream),
    bodyLimit: JSON_BODY_LIMIT,
    // The addresses of the proxies whose X-Forwarded-* are believed; false believes none.
    trustProxy: config.trustProxy.length === 0 ? false : config.trustProxy,
    return503OnClosing: true,
    frameworkErrors: frameworkError,
  });
  try {
    if (overrides.db !== undefined) {
      db = overrides.db;
    } else {
      const opened = await openMigratedDatabase({
        dataDir: config.dataDir,
        databaseUrl: config.databaseUrl,
        log: app.log,
        ...(overrides.pgSchema === undefined ? {} : { pgSchema: overrides.pgSchema }),
      });
      db = opened.db;
      dialect = opened.dialect;
      ownedDb = db;
    }
    const store = overrides.store ?? (await createStore(config, db, clock));
    const pki = lazyDeploymentPki({
      db,
      config,
      clock,
      log: app.log,
      ...(overrides.generateKey === undefined ? {} : { generateKey: overrides.generateKey }),
    });
    const signingServices = lazySigningServices(pki, config, clock, { log: app.log });
    const signer = overrides.signer ?? lazyLocalSigner(pki, signingServices, clock);
    const metrics = createMetrics({ db, clock, log: app.log });
    const deps: AppDeps = {
      db,
      store,
      config,
      clock,
      log: app.log,
      signer,
      pki,
      signingServices,
      metrics,
      readiness: { isDraining: false },
    };
    app.decorate('deps', deps);
    app.decorateRequest('user', null);
    if (dialect !== null) app.log.debug({ dialect }, 'database ready');

    app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart));

    registerErrorHandling(app);
    app.addHook('preValidation', refuseNulCharacters);
    registerSecurityHeaders(app, config);
    // By the route's pattern (/api/documents/:id), never the URL: ids would make a series per document.
    app.addHook('onResponse', async (req, reply) => {
      metrics.httpRequestDuration.observe(
        { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
    await app.register(cookie);
    await app.register(formbody, { bodyLimit: 16 * 1024 });

    // The bearer token, when sent to /api, is resolved before anything else runs.
    app.addHook('onRequest', async (req: FastifyRequest) => {
      if (!req.url.startsWith('/api/')) return;
      const token = bearerToken(req.headers.authorization);
      req.user = token === null ? null : await userForAccessToken(db, token, clock());
    });

    // Responses are plain JSON.stringify: the API tests validate every body against the contract, and
    // the contract's 3.1 schemas are not meant for fast-json-stringify.
    app.addHook('onRoute', (route) => {
      if (route.url.startsWith('/api/') && route.schema !== undefined) delete route.schema.response;
    });

    const handlers: Handlers = { ...HANDLERS, ...overrides.handlers };
    const contract = loadContract();
    const operations = new Map(
      apiOperations(contract).map((operation) => [operation.operationId, operation]),
    );
    // Encapsulated, so that the parsers of PDF and form bodies (which the verification handler reads
    // itself) are the API's alone: the object store's routes register their own multipart parser.
    const routes = await contractRoutes(contract);
    await app.register(
      async (api) => {
        registerDeferredBodies(api);
        // The bearer check runs first, so a stranger learns nothing about an operation from its body rules.
        for (const route of routes) {
          const operation = operations.get(route.operationId);
          api.route({
            method: route.method,
            url: route.url,
            // A copy: an app may change its routes' schemas (the onRoute hook above drops `response`).
            ...(route.schema === undefined ? {} : { schema: structuredClone(route.schema) }),
            // Typed by its operation, which the schemas above check each request against first.
            handler: (handlers[route.operationId as OperationId] ??
              unbuilt(route.operationId)) as unknown as RouteHandlerMethod,
            ...(operation?.requiresBearer === false ? {} : { onRequest: requireBearer }),
            preParsing: requestBodyGate(operation?.requestBody ?? null),
          });
        }
      },
      { prefix: '/api' },
    );

    registerHealthRoutes(app, deps);
    await registerPkiRoutes(app, deps);
    registerSignInPages(app, deps);
    registerDevOutbox(app, deps);
    registerIdpPages(app, deps);
    if (store.kind === 'local') registerLocalStorageRoutes(app, store);
    await registerSpa(app, config.appDir, {
      geocoderUrl: config.geocoderUrl,
      supportEmailUk: config.supportEmailUk,
      supportEmailNl: config.supportEmailNl,
      productsUrl: config.productsUrl,
      contentSecurityPolicy: (scriptHashes) => contentSecurityPolicy(config, scriptHashes),
    });

    app.addHook('onClose', async () => {
      if (ownedDb !== null) await ownedDb.destroy();
    });
    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => undefined);
    if (ownedDb !== null) await ownedDb.destroy().catch(() => undefined);
    throw error;
  }
}
