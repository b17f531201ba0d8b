// What a load balancer and Prometheus ask: GET /healthz (the process answers), GET /readyz (this instance
// can serve: the database and the object store answer, and it is not shutting down) and GET /metrics.
// None needs an account, none is rate-limited, and none is logged per request at info (probes come every
// few seconds from every balancer); a readiness check that fails is logged when it starts and stops failing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppDeps } from '../context.ts';
import { errorText } from './logging.ts';

// A probe must answer within a balancer's timeout (usually 1 to 5 s): a database or store that hangs is
// as unready as one that refuses.
export const READY_CHECK_TIMEOUT_MS = 2_000;

type CheckName = 'database' | 'store';
type CheckResult = 'ok' | 'failed';

function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

function hasMetricsToken(req: FastifyRequest, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

// Probes are answered at `warn` so that Fastify's per-request lines (info) are left out.
const QUIET = { logLevel: 'warn' } as const;

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  const lastResults: Record<CheckName, CheckResult> = { database: 'ok', store: 'ok' };

  // deps is read on every call: tests swap the store, and main.ts marks the readiness.
  const checks: Record<CheckName, () => Promise<unknown>> = {
    database: () => sql`select 1`.execute(deps.db),
    store: () => deps.store.check(),
  };

  async function run(name: CheckName): Promise<CheckResult> {
    let result: CheckResult = 'ok';
    let failure: string | null = null;
    try {
      await withTimeout(checks[name](), READY_CHECK_TIMEOUT_MS);
    } catch (error) {
      result = 'failed';
      failure = errorText(error);
    }
    if (result !== lastResults[name]) {
      if (result === 'failed')
        deps.log.error({ check: name, error: failure }, `readiness: the ${name} does not answer`);
      else deps.log.info({ check: name }, `readiness: the ${name} answers again`);
    }
    lastResults[name] = result;
    return result;
  }

  app.get('/healthz', QUIET, async (_req, reply) => noStore(reply).send({ status: 'ok' }));

  app.get('/readyz', QUIET, async (_req, reply) => {
    noStore(reply);
    if (deps.readiness.isDraining) return reply.status(503).send({ status: 'draining' });
    const [database, store] = await Promise.all([run('database'), run('store')]);
    const isReady = database === 'ok' && store === 'ok';
    return reply
      .status(isReady ? 200 : 503)
      .send({ status: isReady ? 'ok' : 'unavailable', checks: { database, store } });
  });

  app.get('/metrics', QUIET, async (req, reply) => {
    noStore(reply);
    const token = deps.config.metricsToken;
    if (token !== null && !hasMetricsToken(req, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: 'unauthorized', message: 'A valid metrics token is required.' });
    }
    return reply.type(deps.metrics.registry.contentType).send(await deps.metrics.text());
  });
}
