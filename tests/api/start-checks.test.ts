// A wrong setting stops the server at start with one sentence saying what is wrong, before it serves
// anyone: a malformed DATABASE_URL, a proxy setting that trusts everyone, a bucket that is missing or
// refuses the credentials, an object store that cannot be reached. A bucket whose CORS would stop browsers
// is warned about, not fatal. The object store here is a small HTTP server answering as S3 does.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Config } from '../../server/config.ts';
import { caFingerprint, claimDeploymentCa } from '../../server/signing/ca/fingerprint.ts';
import { checkAtStart } from '../../server/start-checks.ts';
import { createS3Store } from '../../server/storage/s3-store.ts';
import { buildTestApp } from './helpers.ts';
import { openStandalonePki } from './deployment-pki-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PUBLIC_ORIGIN = 'https://sign.example.test';

// Per bucket: what HEAD answers, and the CORS rules GET ?cors answers (null: none configured).
type FakeBucket = { head: number; cors: string | null };
const buckets = new Map<string, FakeBucket>();
const requests: string[] = [];
let s3: http.Server;
let endpoint: string;

function corsXml(rules: { origins: string[]; methods: string[] }[]): string {
  const body = rules
    .map(
      (rule) =>
        `<CORSRule>${rule.origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('')}` +
        `${rule.methods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`).join('')}</CORSRule>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><CORSConfiguration>${body}</CORSConfiguration>`;
}

function s3Error(status: number, code: string) {
  return {
    status,
    body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
  };
}

beforeAll(async () => {
  s3 = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://s3.test');
    const name = url.pathname.split('/')[1] ?? '';
    requests.push(`${req.method} ${name}${url.searchParams.has('cors') ? '?cors' : ''}`);
    const bucket = buckets.get(name);
    req.resume();
    if (req.method === 'HEAD') {
      res.writeHead(bucket?.head ?? 404).end();
      return;
    }
    if (req.method === 'GET' && url.searchParams.has('cors') && bucket !== undefined) {
      const answer =
        bucket.cors === null ? s3Error(404, 'NoSuchCORSConfiguration') : { status: 200, body: bucket.cors };
      res.writeHead(answer.status, { 'content-type': 'application/xml' }).end(answer.body);
      return;
    }
    const answer = s3Error(404, 'NoSuchBucket');
    res.writeHead(answer.status, { 'content-type': 'application/xml' }).end(answer.body);
  });
  await new Promise<void>((resolve) => s3.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(s3.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => s3.close(resolve));
});

function s3Config(bucket: string, overrides: Partial<S3Config> = {}): S3Config {
  return {
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId: 'paraph',
    secretAccessKey: 'not-the-secret',
    ...overrides,
  };
}

// A port nothing listens on: taken, then given back.
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// `keepDataDir`: a data folder of the test's, kept after the run (otherwise a fresh one, removed).
async function startServer(env: Record<string, string>, keepDataDir?: string) {
  const dataDir = keepDataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-start-')));
  try {
    const server = spawn(process.execPath, ['server/start.mjs'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        // Node's own warnings (the AWS SDK's notice about Node versions) are not the server's to say.
        NODE_NO_WARNINGS: '1',
        PARAPH_DATA_DIR: dataDir,
        PARAPH_APP_DIR: path.join(dataDir, 'no-app-built'),
        PARAPH_DEMO: '0',
        PARAPH_LOG_LEVEL: 'warn',
        PORT: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString();
    };
    server.stderr.on('data', collect);
    server.stdout.on('data', collect);
    const code = await new Promise<number | null>((resolve) =>
      server.on('exit', (exitCode) => resolve(exitCode)),
    );
    // Every line is a structured log line (JSON.parse throws on any other); what it says is its msg.
    const lines = output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    return { code, lines };
  } finally {
    if (keepDataDir === undefined) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

describe('start-up refuses a wrong configuration with one line', () => {
  it('stops on a malformed DATABASE_URL, without printing its password', async () => {
    const { code, lines } = await startServer({
      DATABASE_URL: 'postgres//paraph:s3cret-pw@db.example.test/paraph',
    });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Paraph could not start: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL with a host/,
    );
    expect(lines[0]).not.toContain('s3cret');
  }, 60_000);

  it('stops when the database cannot be reached', async () => {
    const port = await closedPort();
    const { code, lines } = await startServer({
      DATABASE_URL: `postgres://paraph:s3cret-pw@127.0.0.1:${port}/paraph`,
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      `Paraph could not start: The database at 127.0.0.1:${port} cannot be reached (connect ECONNREFUSED 127.0.0.1:${port}): check DATABASE_URL and that PostgreSQL is running`,
    ]);
  }, 60_000);

  it('stops when PARAPH_TRUST_PROXY=1 would trust every client', async () => {
    const { code, lines } = await startServer({ PARAPH_TRUST_PROXY: '1' });
    expect(code).toBe(1);
    expect(lines).toEqual([
      expect.stringMatching(/^Paraph could not start: PARAPH_TRUST_PROXY=1 .*List the addresses/),
    ]);
  }, 60_000);

  it('stops when the bucket does not exist', async () => {
    const { code, lines } = await startServer({
      S3_BUCKET: 'nowhere',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'paraph',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(code).toBe(1);
    expect(lines).toEqual([
      `Paraph could not start: The object store has no bucket "nowhere" at ${endpoint}: create it, or correct S3_BUCKET / S3_ENDPOINT`,
    ]);
  }, 60_000);
});

describe('the S3 bucket check', () => {
  it('passes for a bucket that answers, and says which of missing, refused or unreachable it met', async () => {
    buckets.set('paraph', { head: 200, cors: null });
    buckets.set('locked', { head: 403, cors: null });
    await expect(createS3Store(s3Config('paraph')).checkBucket?.()).resolves.toBeUndefined();
    expect(requests).toContain('HEAD paraph');

    await expect(createS3Store(s3Config('missing')).checkBucket?.()).rejects.toThrow(
      `The object store has no bucket "missing" at ${endpoint}`,
    );
    await expect(createS3Store(s3Config('locked')).checkBucket?.()).rejects.toThrow(
      /^The object store refused the credentials for bucket "locked" .*\(403\): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/,
    );
    const port = await closedPort();
    await expect(
      createS3Store(s3Config('paraph', { endpoint: `http://127.0.0.1:${port}` })).checkBucket?.(),
    ).rejects.toThrow(
      new RegExp(
        `^The object store at http://127\\.0\\.0\\.1:${port} cannot be reached \\(.*ECONNREFUSED.*\\): check S3_ENDPOINT`,
      ),
    );
  });

  it('needs nothing of the local store', async () => {
    const t = await buildTestApp();
    try {
      expect(t.deps.store.kind).toBe('local');
      expect(t.deps.store.checkBucket).toBeUndefined();
      await expect(checkAtStart(t.deps)).resolves.toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe("the bucket's CORS for browsers at the public origin", () => {
  const check = (bucket: FakeBucket, publicOrigin = PUBLIC_ORIGIN) => {
    buckets.set('cors', bucket);
    return createS3Store(s3Config('cors')).checkBrowserAccess?.(publicOrigin);
  };

  it('is fine when a rule lets the origin POST and GET, by name or by wildcard', async () => {
    expect(
      await check({ head: 200, cors: corsXml([{ origins: [PUBLIC_ORIGIN], methods: ['GET', 'POST'] }]) }),
    ).toBeNull();
    expect(
      await check({
        head: 200,
        cors: corsXml([
          { origins: ['https://other.example.test'], methods: ['PUT'] },
          { origins: ['https://*.example.test'], methods: ['POST'] },
          { origins: ['*'], methods: ['GET', 'HEAD'] },
        ]),
      }),
    ).toBeNull();
  });

  it('warns when no CORS is set, or when it leaves out the origin or a method', async () => {
    expect(await check({ head: 200, cors: null })).toMatch(
      /^The CORS of bucket "cors" does not allow POST and GET from https:\/\/sign\.example\.test: browsers will refuse uploads/,
    );
    expect(
      await check({
        head: 200,
        cors: corsXml([{ origins: ['https://elsewhere.example.test'], methods: ['GET', 'POST'] }]),
      }),
    ).toMatch(/does not allow POST and GET from https:\/\/sign\.example\.test/);
    expect(
      await check({ head: 200, cors: corsXml([{ origins: [PUBLIC_ORIGIN], methods: ['GET'] }]) }),
    ).toMatch(/does not allow POST from https:\/\/sign\.example\.test/);
  });

  it('asks nothing when the store is on the public origin itself', async () => {
    requests.length = 0;
    expect(await check({ head: 200, cors: null }, endpoint)).toBeNull();
    expect(requests).toEqual([]);
  });
});

describe("the deployment's signing CA", () => {
  it('is recorded by the first instance; another CA is refused unless it is to replace it', async () => {
    const t = await buildTestApp();
    try {
      const mine = caFingerprint(Buffer.from('the first CA'));
      const other = caFingerprint(Buffer.from('another CA'));
      const claim = (fingerprint: string, replace: boolean) =>
        claimDeploymentCa(t.deps.db, fingerprint, { replace, where: '/srv/b/ca.pem' });
      expect(await claim(mine, false)).toBe('recorded');
      expect(await claim(mine, false)).toBe('same');
      await expect(claim(other, false)).rejects.toThrow(
        `This instance's signing CA (/srv/b/ca.pem, SHA-256 ${other}) is not the one the deployment signs ` +
          `with (SHA-256 ${mine})`,
      );
      expect(await claim(other, true)).toBe('replaced');
      await expect(claim(mine, false)).rejects.toThrow(/is not the one the deployment signs with/);
    } finally {
      await t.close();
    }
  });

  it('prints its fingerprint as openssl does', () => {
    expect(caFingerprint(Buffer.from('abc'))).toBe(
      'BA:78:16:BF:8F:01:CF:EA:41:41:40:DE:5D:AE:22:23:B0:03:61:A3:96:17:7A:9C:B4:10:FF:61:F2:00:15:AD',
    );
  });

  it('stops a start whose passphrase does not open the keys, with one line', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-start-ca-'));
    try {
      // The deployment's keys, sealed under its passphrase, as its first start left them.
      const first = await openStandalonePki(dataDir, {
        PARAPH_CA_PASSPHRASE: 'the first passphrase of this deployment',
      });
      await first.close();

      const { code, lines } = await startServer(
        { PARAPH_CA_PASSPHRASE: 'not the passphrase the keys were sealed under' },
        dataDir,
      );
      expect(code).toBe(1);
      expect(lines).toEqual([
        expect.stringMatching(
          /^Paraph could not start: PARAPH_CA_PASSPHRASE does not open the signing keys kept in the database: it is not the passphrase they were stored under\./,
        ),
      ]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
