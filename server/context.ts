// What every handler can reach: the database, the object store, the configuration, the clock, the log,
// the signer that stamps and signs PDFs, the deployment's PKI, the app's metrics and whether the instance is
// shutting down.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import type { AppMetrics } from './metrics.ts';
import type { DeploymentPki } from './signing/ca/index.ts';
import type { SigningServices } from './signing/services.ts';
import type { Signer } from './signing/signer.ts';
import type { ObjectStore } from './storage/object-store.ts';

/** Set by main.ts when shutdown begins: GET /readyz then answers 503, so balancers send nothing new. */
export type Readiness = { isDraining: boolean };

export type AppDeps = {
  db: Kysely<Database>;
  store: ObjectStore;
  config: Config;
  clock: () => Date;
  log: FastifyBaseLogger;
  signer: Signer;
  // The deployment's CA and keys (server/signing/ca/), loaded once per process at the first call.
  pki: () => Promise<DeploymentPki>;
  // Its TSA, OCSP responder and CRL, shared by the signer and the /pki/* routes.
  signingServices: () => Promise<SigningServices>;
  metrics: AppMetrics;
  readiness: Readiness;
};

export type AuthUser = { id: string; email: string; fullName: string };

export type { Handler, Handlers, OperationId, OperationRequest, ReplyBody } from './http/typed-handler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
  interface FastifyRequest {
    // Set by the bearer hook before any handler runs; null when no valid token was sent.
    user: AuthUser | null;
  }
}
