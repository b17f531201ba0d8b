// A small load balancer in front of the fleet: round robin over the instances its health check calls
// ready, forwarding method, path, headers and body, with X-Forwarded-For / -Proto set. It records every
// exchange, and says who answered (X-Fleet-Instance) so the journeys can tell which instance did what.
// - One connection per request (no keep-alive to the instances): a refused connection then means the
//   request never reached an instance, so it is tried on the next one; a connection that breaks after
//   the request was sent may have been acted on, so it answers 502 (X-Fleet-Proxy-Error: dropped).
// - With no instance reachable at all the answer is 502 (X-Fleet-Proxy-Error: no-instance).
// - X-Fleet-Avoid: <name> asks for another instance than <name> while another one is ready (the journeys
//   use it to upload on one instance and create the document on the other).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { probe, type Health, type InstanceName, type ProbeVia } from './instance.ts';

export type Exchange = {
  startedAt: number;
  endedAt: number;
  method: string;
  path: string;
  status: number;
  // Who answered: an instance, the proxy itself, or the object store (recorded by the journeys).
  source: InstanceName | 'proxy' | 'store';
  note?: string;
};

export type Backend = { name: InstanceName; port: number };

export type HealthChange = { at: number; name: InstanceName; health: Health; status: number | null };

export type Proxy = {
  origin: string;
  exchanges: Exchange[];
  healthChanges: HealthChange[];
  // Which probe the instances answered (null until one answered).
  probeVia(): ProbeVia | null;
  close(): Promise<void>;
};

const HEALTH_INTERVAL_MS = 250;
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

type Attempt = { kind: 'answered' } | { kind: 'refused' } | { kind: 'dropped'; error: string };

export async function startProxy(options: {
  port: number;
  backends: Backend[];
  now: () => number;
}): Promise<Proxy> {
  const { backends, now } = options;
  const health = new Map<InstanceName, Health>(backends.map((backend) => [backend.name, 'down']));
  const exchanges: Exchange[] = [];
  const healthChanges: HealthChange[] = [];
  let via: ProbeVia | null = null;
  let turn = 0;
  let isClosed = false;

  const checkHealth = async (backend: Backend): Promise<void> => {
    while (!isClosed) {
      const result = await probe(backend.port);
      if (result.via !== null) via = result.via;
      if (result.health !== health.get(backend.name)) {
        health.set(backend.name, result.health);
        healthChanges.push({ at: now(), name: backend.name, health: result.health, status: result.status });
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  };
  const checks = backends.map((backend) => checkHealth(backend));

  // Ready instances first, in round-robin order (the avoided one after the others); the rest after them,
  // in case the health check is behind.
  function order(avoid: string | undefined): Backend[] {
    const start = turn % backends.length;
    turn += 1;
    const rotated = [...backends.slice(start), ...backends.slice(0, start)];
    const rank = (backend: Backend): number =>
      (health.get(backend.name) === 'ready' ? 0 : 2) + (backend.name === avoid ? 1 : 0);
    return rotated.sort((a, b) => rank(a) - rank(b));
  }

  function forward(
    backend: Backend,
    req: http.IncomingMessage,
    body: Buffer,
    res: http.ServerResponse,
    record: (status: number, source: Exchange['source'], note?: string) => void,
  ): Promise<Attempt> {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === 'x-fleet-avoid') continue;
      headers[name] = value;
    }
    const client = req.socket.remoteAddress ?? '127.0.0.1';
    const forwardedFor = req.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = forwardedFor === undefined ? client : `${String(forwardedFor)}, ${client}`;
    headers['x-forwarded-proto'] = 'http';
    headers.connection = 'close';
    if (body.length > 0 || req.headers['content-length'] !== undefined) {
      headers['content-length'] = String(body.length);
    }
    return new Promise<Attempt>((resolve) => {
      let isAnswered = false;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: backend.port,
          method: req.method,
          path: req.url,
          headers,
          agent: false,
        },
        (answer) => {
          isAnswered = true;
          const status = answer.statusCode ?? 502;
          const out: http.OutgoingHttpHeaders = { 'x-fleet-instance': backend.name };
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
          }
          res.writeHead(status, out);
          answer.pipe(res);
          answer.once('error', () => res.destroy());
          answer.once('aborted', () => {
            record(status, backend.name, 'response cut short');
            res.destroy();
          });
          res.once('finish', () => record(status, backend.name));
          resolve({ kind: 'answered' });
        },
      );
      upstream.once('error', (error: NodeJS.ErrnoException) => {
        if (isAnswered) return;
        resolve(
          error.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'dropped', error: error.message },
        );
      });
      upstream.end(body);
    });
  }

  const server = http.createServer((req, res) => {
    const startedAt = now();
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    let isRecorded = false;
    const record = (status: number, source: Exchange['source'], note?: string): void => {
      if (isRecorded) return;
      isRecorded = true;
      exchanges.push({ startedAt, endedAt: now(), method, path, status, source, ...(note ? { note } : {}) });
    };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const avoid = req.headers['x-fleet-avoid'];
        for (const backend of order(typeof avoid === 'string' ? avoid : undefined)) {
          const attempt = await forward(backend, req, body, res, record);
          if (attempt.kind === 'answered') return;
          if (attempt.kind === 'refused') {
            if (health.get(backend.name) !== 'down') {
              health.set(backend.name, 'down');
              healthChanges.push({ at: now(), name: backend.name, health: 'down', status: null });
            }
            continue;
          }
          res.writeHead(502, { 'content-type': 'text/plain', 'x-fleet-proxy-error': 'dropped' });
          res.end(
            `instance ${backend.name} dropped the connection after the request was sent: ${attempt.error}\n`,
          );
          record(502, 'proxy', `instance ${backend.name} dropped the connection: ${attempt.error}`);
          return;
        }
        res.writeHead(502, { 'content-type': 'text/plain', 'x-fleet-proxy-error': 'no-instance' });
        res.end('no instance accepted the connection\n');
        record(502, 'proxy', 'no instance accepted the connection');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    exchanges,
    healthChanges,
    probeVia: () => via,
    async close() {
      isClosed = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(checks);
    },
  };
}
