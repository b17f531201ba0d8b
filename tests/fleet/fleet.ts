// The fleet test's driver (run by scripts/fleet-test.sh, which starts PostgreSQL and radosgw and passes
// them in FLEET_* variables). It creates the bucket with a CORS rule for the proxy's origin and checks that
// the store enforces presigned POST policies; starts two Paraph instances on one database and one bucket,
// a round-robin proxy in front of them and an SMTP server for their mail; runs journeys through the proxy
// for FLEET_SECONDS (60, and 20 s past the last disruption) while one instance is stopped with SIGTERM and
// started again and PostgreSQL is restarted; then checks the fleet's promises:
//   1. no 5xx, except 503 from an instance while it drains or while the database is restarting;
//   2. every acknowledged write (a 2xx) can be read afterwards: documents, flows, signatures, files;
//   3. every job ran once: page images rendered once per file (attempts within the limit, every page
//      there), each signature applied once, each message sent once;
//   4. both instances recover by themselves: neither dies, both answer the API afterwards;
// and prints a summary (requests by status and instance, disruptions and how long they took).
// No test runner and no assert that stops at the first failure: every check is reported, so one run says
// everything that broke.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateBucketCommand, GetObjectCommand, PutBucketCorsCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { PDFDocument } from 'pdf-lib';
import pg from 'pg';
import { MAX_RENDER_ATTEMPTS, RENDER_PAGES_JOB } from '../../server/images/worker.ts';
import { DEMO_PASSWORD } from '../../server/seed.ts';
import { startMailSink, type MailSink } from './mail-sink.ts';
import { Instance, probe, type ExitRecord, type InstanceName } from './instance.ts';
import { call, runJourney, signIn, type Context, type JourneyRecord, type Person } from './journey.ts';
import { startProxy, type Exchange, type Proxy } from './proxy.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUCKET = 'paraph-fleet';
// After pg_ctl restart returns, the instances' pools need a moment to reconnect: 503s are still the
// database outage's for this long.
const DB_GRACE_MS = 10_000;
// main.ts promises that shutdown ends within 10 s whatever is running.
const DRAIN_LIMIT_MS = 10_000;
const START_LIMIT_MS = 90_000;
const AUTOCONFIRM_DELAY_MS = 500;
const FLEET_CA_PASSPHRASE = 'the fleet test deployment passphrase';
// The schedule, from the start of the journeys.
const SIGTERM_AFTER_MS = 10_000;
const DATABASE_RESTART_AFTER_MS = 30_000;
const AFTER_DISRUPTIONS_MS = 20_000;
// How long the checks wait for render jobs, signatures and messages still under way once nothing moves:
// on a machine busy with other work the instances' page images come slowly but steadily (seen: six
// render jobs still queued after a fixed 45 s, the last claimed a second before it ran out), while a job
// that is stuck moves nothing at all. However steady, the wait ends after QUIET_MOST_MS.
const QUIET_LIMIT_MS = 45_000;
const QUIET_MOST_MS = 300_000;

const t0 = performance.now();
const now = (): number => performance.now() - t0;
const at = (ms: number): string => `+${(ms / 1000).toFixed(1)}s`;
const secs = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const log = (message: string): void => console.log(`[fleet ${at(now())}] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

function required(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) {
    console.error(`fleet: ${name} is not set; run this through scripts/fleet-test.sh`);
    process.exit(2);
  }
  return value;
}

const env = {
  work: required('FLEET_WORK'),
  databaseUrl: required('FLEET_DATABASE_URL'),
  pgRestart: required('FLEET_PG_RESTART'),
  s3Endpoint: required('FLEET_S3_ENDPOINT'),
  s3AccessKey: required('FLEET_S3_ACCESS_KEY_ID'),
  s3Secret: required('FLEET_S3_SECRET_ACCESS_KEY'),
  seconds: Number(process.env.FLEET_SECONDS ?? '60'),
  // For a look at one disruption alone: a disruption left out is reported as a failed check, not skipped.
  disruptions: new Set((process.env.FLEET_DISRUPTIONS ?? 'sigterm,database').split(',').map((d) => d.trim())),
};

// ---------------------------------------------------------------- checks and the record of events

type Check = { name: string; ok: boolean; detail: string };
const checks: Check[] = [];
function check(name: string, ok: boolean, detail: string): boolean {
  checks.push({ name, ok, detail });
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  return ok;
}

// When 503 is an acceptable answer: from one instance while it drains, or from any while the database
// restarts (plus the grace above).
type Window = { kind: 'drain' | 'database'; instance: InstanceName | null; from: number; to: number };
const windows: Window[] = [];

const phaseMarks: { name: string; at: number }[] = [];
function phase(name: string): void {
  phaseMarks.push({ name, at: now() });
  log(`-- ${name}`);
}
function phaseAt(ms: number): string {
  let name = 'start';
  for (const mark of phaseMarks) if (mark.at <= ms) name = mark.name;
  return name;
}

type Disruptions = {
  sigterm: {
    at: number;
    exit: ExitRecord | null;
    drainMs: number | null;
    backReadyAt: number | null;
  } | null;
  database: { at: number; tookMs: number; error: string | null } | null;
};
const disruptions: Disruptions = { sigterm: null, database: null };

// ---------------------------------------------------------------- helpers

/** Runs a group of checks; one that cannot even run is a failed check, and the others still run. */
async function guarded(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    check(name, false, `the check could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function hasCommand(command: string): Promise<boolean> {
  try {
    await run('sh', ['-c', `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function formatCounts(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name}: ${count}`)
    .join(', ');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `      | ${line.slice(0, 400)}`)
    .join('\n');
}

// ---------------------------------------------------------------- the store

async function prepareStore(origin: string): Promise<S3Client> {
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: env.s3Endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: env.s3AccessKey, secretAccessKey: env.s3Secret },
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  await client.send(
    new PutBucketCorsCommand({
      Bucket: BUCKET,
      CORSConfiguration: {
        CORSRules: [
          {
            AllowedOrigins: [origin],
            AllowedMethods: ['POST', 'GET', 'HEAD'],
            AllowedHeaders: ['*'],
            ExposeHeaders: ['ETag'],
            MaxAgeSeconds: 600,
          },
        ],
      },
    }),
  );

  const preflight = async (from: string) => {
    const answer = await fetch(`${env.s3Endpoint}/${BUCKET}`, {
      method: 'OPTIONS',
      headers: { origin: from, 'access-control-request-method': 'POST' },
    });
    await answer.arrayBuffer();
    return { status: answer.status, allowed: answer.headers.get('access-control-allow-origin') };
  };
  const own = await preflight(origin);
  const other = await preflight('https://elsewhere.example');
  check(
    'store: the bucket lets the proxy origin POST (CORS), and no other origin',
    own.status === 200 && own.allowed === origin && other.allowed !== 'https://elsewhere.example',
    `preflight from the proxy's origin ${own.status} (allows ${String(own.allowed)}), from another ${other.status} (allows ${String(other.allowed)})`,
  );

  // The store must refuse what the policy does not allow: otherwise the journeys prove nothing.
  const key = 'uploads/fleet-store-check.pdf';
  const { url, fields } = await createPresignedPost(client, {
    Bucket: BUCKET,
    Key: key,
    Conditions: [['content-length-range', 1, 1000]],
    Fields: { acl: 'private', success_action_status: '201' },
    Expires: 300,
  });
  const { bucket: _bucket, Policy, ...rest } = fields;
  const base: Record<string, string> = { ...rest, ...(Policy === undefined ? {} : { policy: Policy }) };
  const post = async (changes: Record<string, string>, bytes: Buffer) => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...base, ...changes })) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'check.pdf');
    const answer = await fetch(url, { method: 'POST', body: form, headers: { origin } });
    await answer.arrayBuffer();
    return answer.status;
  };
  const small = Buffer.from('%PDF-1.4 fleet store check\n');
  const tampered = await post({ 'X-Amz-Signature': '0'.repeat(64) }, small);
  const otherKey = await post({ key: 'uploads/not-this-one.pdf' }, small);
  const publicAcl = await post({ acl: 'public-read' }, small);
  const tooLarge = await post({}, Buffer.alloc(2000, 0x41));
  const good = await post({}, small);
  const signedGet = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: key }), {
    expiresIn: 60,
  });
  const readBack = await fetch(signedGet).then(async (answer) => Buffer.from(await answer.arrayBuffer()));
  check(
    'store: radosgw enforces presigned POST policies',
    tampered === 403 &&
      otherKey === 403 &&
      publicAcl === 403 &&
      tooLarge >= 400 &&
      good === 201 &&
      readBack.equals(small),
    `tampered signature ${tampered}, another key ${otherKey}, public-read acl ${publicAcl}, too large ${tooLarge}, ` +
      `the policy's own form ${good}, read back ${readBack.equals(small) ? 'the same bytes' : 'other bytes'}`,
  );
  return client;
}

// ---------------------------------------------------------------- disruptions

async function sigtermAndRestart(instance: Instance): Promise<void> {
  phase(`SIGTERM to instance ${instance.name}`);
  const from = now();
  const exit = await instance.terminate(DRAIN_LIMIT_MS + 3_000);
  const drainMs = exit === null ? null : exit.at - from;
  windows.push({ kind: 'drain', instance: instance.name, from, to: exit?.at ?? now() });
  disruptions.sigterm = { at: from, exit, drainMs, backReadyAt: null };
  if (exit === null) {
    log(
      `instance ${instance.name} was still running ${secs(DRAIN_LIMIT_MS + 3_000)} after SIGTERM: killing it`,
    );
    await instance.stop();
  } else {
    log(
      `instance ${instance.name} exited after ${secs(drainMs ?? 0)} (code ${String(exit.code)}, signal ${String(exit.signal)})`,
    );
  }
  phase(`instance ${instance.name} starting again`);
  instance.start();
  const ready = await instance.waitReady(START_LIMIT_MS);
  if (ready.health === 'ready') {
    disruptions.sigterm.backReadyAt = now();
    phase(`instance ${instance.name} back`);
  } else {
    log(`instance ${instance.name} was not ready ${secs(START_LIMIT_MS)} after starting again`);
  }
}

async function restartPostgres(): Promise<void> {
  phase('PostgreSQL restart (pg_ctl restart -m fast)');
  const from = now();
  let error: string | null = null;
  try {
    await run('sh', [env.pgRestart], { timeout: 60_000 });
  } catch (failure) {
    error = String(failure);
  }
  const tookMs = now() - from;
  windows.push({ kind: 'database', instance: null, from, to: now() + DB_GRACE_MS });
  disruptions.database = { at: from, tookMs, error };
  log(error === null ? `PostgreSQL is back after ${secs(tookMs)}` : `PostgreSQL restart failed: ${error}`);
  phase('after the PostgreSQL restart');
}

// ---------------------------------------------------------------- the final checks

function checkResponses(proxy: Proxy, storeExchanges: Exchange[]): void {
  const allowed = (exchange: Exchange): string | null => {
    if (exchange.status !== 503 || exchange.source === 'proxy' || exchange.source === 'store') return null;
    const window = windows.find(
      (w) =>
        (w.instance === null || w.instance === exchange.source) &&
        exchange.endedAt >= w.from &&
        exchange.startedAt <= w.to,
    );
    return window === undefined ? null : window.kind;
  };
  const serverErrors = proxy.exchanges.filter((exchange) => exchange.status >= 500);
  const excused = serverErrors.filter((exchange) => allowed(exchange) !== null);
  const wrong = serverErrors.filter((exchange) => allowed(exchange) === null);
  const describe = (exchange: Exchange) =>
    `${at(exchange.endedAt)} ${exchange.method} ${exchange.path.split('?')[0]} -> ${exchange.status} from ${
      exchange.source === 'proxy' ? 'the proxy' : `instance ${exchange.source}`
    } during "${phaseAt(exchange.endedAt)}"${exchange.note ? ` (${exchange.note})` : ''}`;
  const byKind = countBy(excused, (exchange) => allowed(exchange) ?? '');
  check(
    'no 5xx except 503 while an instance drains or the database restarts',
    wrong.length === 0,
    wrong.length === 0
      ? serverErrors.length === 0
        ? 'no 5xx at all'
        : `${serverErrors.length} 503s, all while draining or restarting the database (${formatCounts(byKind)})`
      : `${wrong.length} unexcused 5xx (${formatCounts(countBy(wrong, (e) => `${e.status} from ${e.source}`))}); ` +
          `the first ones:\n${wrong
            .slice(0, 8)
            .map((exchange) => `      ${describe(exchange)}`)
            .join('\n')}`,
  );
  const storeFailures = storeExchanges.filter((exchange) => exchange.status >= 300);
  check(
    'the store (radosgw) accepted every upload and served every download',
    storeFailures.length === 0,
    storeFailures.length === 0
      ? `${storeExchanges.length} exchanges`
      : storeFailures
          .slice(0, 5)
          .map((exchange) => `${at(exchange.startedAt)} ${exchange.method} -> ${exchange.status}`)
          .join('; '),
  );
}

function checkJourneys(journeys: JourneyRecord[]): void {
  const failed = journeys.filter((journey) => journey.failure !== null);
  const complete = journeys.filter((journey) => journey.isComplete);
  check(
    'every journey reached its signed download',
    failed.length === 0 && complete.length === journeys.length,
    failed.length === 0
      ? `${complete.length} of ${journeys.length}`
      : `${failed.length} of ${journeys.length} failed:\n${failed
          .slice(0, 10)
          .map(
            (journey) =>
              `      journey ${journey.n} (${journey.owner} -> ${journey.signatory}) at "${journey.failure?.step}" ` +
              `${at(journey.failure?.at ?? 0)} during "${phaseAt(journey.failure?.at ?? 0)}": ${journey.failure?.message}`,
          )
          .join('\n')}`,
  );
  const crossed = complete.filter(
    (journey) => journey.instances.grant !== journey.instances.create && journey.instances.create !== null,
  );
  const signedElsewhere = complete.filter((journey) => journey.instances.flow !== journey.instances.sign);
  check(
    'journeys crossed instances (upload grant on one, document created on the other)',
    crossed.length > 0 && signedElsewhere.length > 0,
    `${crossed.length} journeys created the document on the other instance than the upload grant's; ` +
      `${signedElsewhere.length} signed on another instance than the flow's`,
  );
}

type Tokens = Map<string, string>;

async function checkAcknowledgedWrites(
  ctx: Context,
  db: pg.Client,
  journeys: JourneyRecord[],
  tokens: Tokens,
  runTag: string,
): Promise<void> {
  const lost: string[] = [];
  const acknowledged = journeys.filter((journey) => journey.documentId !== null);
  for (const journey of acknowledged) {
    const id = journey.documentId ?? '';
    const ownerToken = tokens.get(journey.owner) ?? '';
    const document = await call(ctx, 'final read', 'GET', `/api/documents/${id}`, { token: ownerToken });
    if (document.status !== 200 || !document.text.includes(journey.filename)) {
      lost.push(`document ${id} of journey ${journey.n}: GET answered ${document.status}`);
      continue;
    }
    const row = await db.query<{ sha256: string }>('SELECT sha256 FROM documents WHERE id = $1', [id]);
    if (row.rows[0]?.sha256 !== journey.sha256) {
      lost.push(`document ${id} of journey ${journey.n}: its stored hash is not the uploaded file's`);
    }
    if (journey.isFlowAcknowledged) {
      const flow = await call(ctx, 'final read', 'GET', `/api/documents/${id}/sign_flow`, {
        token: ownerToken,
      });
      if (flow.status !== 200 || !flow.text.includes(journey.signatory)) {
        lost.push(`the sign flow of document ${id} (journey ${journey.n}): GET answered ${flow.status}`);
      }
    }
    if (journey.versionId !== null) {
      const version = await call(ctx, 'final read', 'GET', `/api/document_versions/${journey.versionId}`, {
        token: tokens.get(journey.signatory) ?? '',
      });
      if (version.status !== 200) {
        lost.push(
          `signature request ${journey.versionId} (journey ${journey.n}): GET answered ${version.status}`,
        );
      }
    }
  }
  // Every document is in its owner's list too.
  for (const owner of new Set(acknowledged.map((journey) => journey.owner))) {
    const listed = new Set<string>();
    for (let page = 1; page <= 50; page += 1) {
      const answer = await call(
        ctx,
        'final list',
        'GET',
        `/api/documents/active?search=${encodeURIComponent(`fleet-${runTag}`)}&page=${page}`,
        { token: tokens.get(owner) ?? '' },
      );
      if (answer.status !== 200) {
        lost.push(`the list of ${owner}'s documents answered ${answer.status}`);
        break;
      }
      const body = JSON.parse(answer.text) as { data: { id: string }[]; meta: { totalPages: number } };
      for (const document of body.data) listed.add(document.id);
      if (page >= body.meta.totalPages) break;
    }
    for (const journey of acknowledged.filter((entry) => entry.owner === owner)) {
      if (!listed.has(journey.documentId ?? ''))
        lost.push(`document ${journey.documentId} is not in ${owner}'s list`);
    }
  }
  check(
    'every acknowledged write can be read afterwards',
    lost.length === 0 && acknowledged.length > 0,
    lost.length === 0
      ? `${acknowledged.length} documents, ${acknowledged.filter((j) => j.isFlowAcknowledged).length} flows, ` +
          `${acknowledged.filter((j) => j.versionId !== null).length} signature requests`
      : `${lost.length} lost:\n${lost
          .slice(0, 10)
          .map((line) => `      ${line}`)
          .join('\n')}`,
  );
}

/** Waits until the background work for the journeys' documents is done (or `limitMs` passed). */
async function waitForQuiet(db: pg.Client, ids: string[]): Promise<string> {
  const started = now();
  let stillSince = now();
  let pending = '';
  let progress = '';
  while (now() - stillSince < QUIET_LIMIT_MS && now() - started < QUIET_MOST_MS) {
    const jobs = await db.query<{ n: string; pages: string; next: string }>(
      `SELECT count(*) AS n,
         (SELECT count(*) FROM document_pages WHERE document_id = ANY($1)) AS pages,
         coalesce(sum(next_page), 0) AS next
       FROM jobs WHERE document_id = ANY($1) AND state IN ('queued', 'running')`,
      [ids],
    );
    const versions = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM document_versions WHERE document_id = ANY($1) AND state IN ('pending', 'signing')`,
      [ids],
    );
    const mail = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM mail_queue WHERE state IN ('queued', 'sending')`,
    );
    pending = `${jobs.rows[0]?.n} render jobs, ${versions.rows[0]?.n} signatures, ${mail.rows[0]?.n} messages`;
    if (Number(jobs.rows[0]?.n) + Number(versions.rows[0]?.n) + Number(mail.rows[0]?.n) === 0) return '';
    // Any page drawn, job ended or message sent counts as moving.
    const moved = `${pending} ${jobs.rows[0]?.pages} ${jobs.rows[0]?.next}`;
    if (moved !== progress) {
      progress = moved;
      stillSince = now();
    }
    await sleep(1000);
  }
  const waited = now() - started;
  return `${pending} (after ${secs(waited)}, ${
    waited >= QUIET_MOST_MS ? 'the longest wait' : `nothing moved in the last ${secs(QUIET_LIMIT_MS)}`
  })`;
}

// The pages of the file a document shows now (the signed one once signed), read from the store.
async function pagesInStore(store: S3Client, key: string): Promise<number | null> {
  try {
    const answer = await store.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    const bytes = await answer.Body?.transformToByteArray();
    return bytes === undefined ? null : (await PDFDocument.load(bytes)).getPageCount();
  } catch {
    return null;
  }
}

async function checkJobsRanOnce(
  db: pg.Client,
  store: S3Client,
  journeys: JourneyRecord[],
  smtp: MailSink,
): Promise<void> {
  const documents = journeys.filter((journey) => journey.documentId !== null);
  const ids = documents.map((journey) => journey.documentId ?? '');
  const pending = await waitForQuiet(db, ids);
  check('background work finished', pending === '', pending === '' ? '' : `still waiting: ${pending}`);

  const problems: string[] = [];
  const jobs = await db.query<{
    document_id: string;
    state: string;
    attempts: number;
    last_error: string | null;
    locked_until: string | null;
  }>(
    `SELECT document_id, state, attempts, last_error, locked_until FROM jobs WHERE kind = $1 AND document_id = ANY($2)`,
    [RENDER_PAGES_JOB, ids],
  );
  const signed = await db.query<{ document_id: string; n: string }>(
    `SELECT document_id, count(*) AS n FROM document_versions WHERE state = 'signed' AND document_id = ANY($1) GROUP BY document_id`,
    [ids],
  );
  const signedAudit = await db.query<{ document_id: string; n: string }>(
    `SELECT document_id, count(*) AS n FROM audit_events WHERE action = 'document.signed' AND document_id = ANY($1) GROUP BY document_id`,
    [ids],
  );
  const pages = await db.query<{ id: string; images_state: string; key: string; rendered: string }>(
    `SELECT d.id, d.images_state, coalesce(d.signed_file_key, d.file_key) AS key,
            (SELECT count(*) FROM document_pages p WHERE p.document_id = d.id) AS rendered
       FROM documents d WHERE d.id = ANY($1)`,
    [ids],
  );
  const signedOf = new Map(signed.rows.map((row) => [row.document_id, Number(row.n)]));
  const auditOf = new Map(signedAudit.rows.map((row) => [row.document_id, Number(row.n)]));
  const pagesOf = new Map(pages.rows.map((row) => [row.id, row]));
  for (const journey of documents) {
    const id = journey.documentId ?? '';
    const mine = jobs.rows.filter((job) => job.document_id === id);
    const signatures = signedOf.get(id) ?? 0;
    // One rendering for the uploaded file, one more for each signed file.
    if (mine.length !== 1 + signatures) {
      problems.push(
        `document ${id}: ${mine.length} render jobs for ${signatures} signatures (expected ${1 + signatures})`,
      );
    }
    for (const job of mine) {
      if (job.state !== 'done' || job.attempts < 1 || job.attempts > MAX_RENDER_ATTEMPTS) {
        problems.push(
          `document ${id}: a render job ${job.state} after ${job.attempts} attempts (at most ${MAX_RENDER_ATTEMPTS})` +
            `${job.state === 'running' && job.locked_until ? `, locked until ${job.locked_until}` : ''}` +
            `${job.last_error ? `: ${job.last_error}` : ''}`,
        );
      }
    }
    if (journey.versionId !== null && signatures !== 1) {
      problems.push(`document ${id}: ${signatures} signed versions for one signature request`);
    }
    if ((auditOf.get(id) ?? 0) !== signatures) {
      problems.push(
        `document ${id}: ${auditOf.get(id) ?? 0} "document.signed" audit entries for ${signatures} signatures`,
      );
    }
    const row = pagesOf.get(id);
    const expectedPages = row === undefined ? null : await pagesInStore(store, row.key);
    if (row === undefined || row.images_state !== 'ready' || Number(row.rendered) !== expectedPages) {
      problems.push(
        `document ${id}: images ${row?.images_state}, ${row?.rendered} page images for ${String(expectedPages)} pages`,
      );
    }
  }

  // Messages: every queued message sent, and received exactly once.
  const mail = await db.query<{ state: string; n: string }>(
    `SELECT state, count(*) AS n FROM mail_queue GROUP BY state`,
  );
  const mailStates = new Map(mail.rows.map((row) => [row.state, Number(row.n)]));
  const sent = mailStates.get('sent') ?? 0;
  for (const [state, count] of mailStates) {
    if (state !== 'sent') problems.push(`${count} messages ${state}`);
  }
  if (smtp.received.length !== sent) {
    problems.push(`${sent} messages marked sent, ${smtp.received.length} received by the SMTP server`);
  }
  const received = smtp.received;
  const duplicates = [...countBy(received, (entry) => `${entry.to} | ${entry.subject}`).entries()].filter(
    ([, count]) => count > 1,
  );
  for (const [message, count] of duplicates.slice(0, 5)) problems.push(`received ${count} times: ${message}`);
  for (const journey of journeys.filter((entry) => entry.isComplete)) {
    const about = received.filter((entry) => entry.subject.includes(journey.filename));
    if (
      !about.some((entry) => entry.to === journey.signatory) ||
      !about.some((entry) => entry.to === journey.owner)
    ) {
      problems.push(
        `journey ${journey.n}: no message about ${journey.filename} to both ${journey.signatory} and ${journey.owner}`,
      );
    }
  }
  check(
    'every job ran once (page images, signatures, messages)',
    problems.length === 0,
    problems.length === 0
      ? `${jobs.rows.length} render jobs for ${documents.length} documents, ${sent} messages sent once each`
      : `${problems.length} problems:\n${problems
          .slice(0, 12)
          .map((line) => `      ${line}`)
          .join('\n')}`,
  );
}

/**
 * Straight to one instance, not through the proxy: the sign-in form, a token for its cookie, and an API
 * read with it. Answers the status of the step that failed, or null when all three worked.
 */
async function answersDirectly(instance: Instance, origin: string, person: Person): Promise<string | null> {
  const base = `http://127.0.0.1:${instance.port}`;
  const signal = () => AbortSignal.timeout(5000);
  try {
    const form = await fetch(`${base}/sign_in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: new URLSearchParams({
        email: person.email,
        password: person.password,
        return_to: '/app/auth',
      }).toString(),
      signal: signal(),
    });
    await form.arrayBuffer();
    const cookie = form.headers
      .getSetCookie()
      .map((entry) => entry.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('paraph_session='));
    if (form.status !== 303 || cookie === undefined) return `sign-in form ${form.status}`;
    const tokens = await fetch(`${base}/api/tokens`, { headers: { cookie }, signal: signal() });
    const token = ((await tokens.json().catch(() => ({}))) as { access_token?: string }).access_token;
    if (tokens.status !== 200 || token === undefined) return `GET /api/tokens ${tokens.status}`;
    const cards = await fetch(`${base}/api/smart_cards`, {
      headers: { authorization: `Bearer ${token}` },
      signal: signal(),
    });
    await cards.arrayBuffer();
    return cards.status === 200 ? null : `GET /api/smart_cards ${cards.status}`;
  } catch (error) {
    return `no answer (${error instanceof Error ? error.message : String(error)})`;
  }
}

// What killed a run of an instance, from its log; with the cause spelled out when it is a known one.
function explainExit(instance: Instance, exit: ExitRecord): string {
  const run = instance.starts.findIndex((start) => start.pid === exit.pid);
  const report = instance.crashReport(run < 0 ? instance.starts.length - 1 : run);
  const known = report.includes("Emitted 'error' event on BoundPool")
    ? '\n      (an idle pg.Pool connection was closed by the server and the pool has no error listener: ' +
      'the process dies with the connection)'
    : '';
  return `${indent(report)}${known}`;
}

async function checkRecovery(
  instances: Instance[],
  origin: string,
  person: Person,
  via: string | null,
): Promise<void> {
  // Straight to each instance, not through the proxy: it must answer the API itself.
  const answers = await Promise.all(
    instances.map(async (instance) => {
      let lastStatus = 'not running';
      const deadline = now() + 20_000;
      while (instance.isRunning && now() < deadline) {
        const failure = await answersDirectly(instance, origin, person);
        const ready = via === 'readyz' ? (await probe(instance.port)).health === 'ready' : true;
        lastStatus = failure ?? (ready ? 'ok' : '/readyz is not 200');
        if (failure === null && ready) return 'ok';
        await sleep(500);
      }
      return lastStatus;
    }),
  );
  instances.forEach((instance, index) => {
    const died = instance.exits.filter((exit) => !exit.expected);
    const answer = answers[index];
    const ok = died.length === 0 && answer === 'ok';
    check(
      `instance ${instance.name} recovered by itself`,
      ok,
      ok
        ? `same process since ${at(instance.starts.at(-1)?.at ?? 0)}, answers the API${via === 'readyz' ? ' and /readyz' : ''}`
        : [
            ...died.map(
              (exit) =>
                `exited by itself at ${at(exit.at)} (code ${String(exit.code)}, signal ${String(exit.signal)}) ` +
                `during "${phaseAt(exit.at)}"; its log says:\n${explainExit(instance, exit)}`,
            ),
            answer === 'ok' ? 'answers the API now' : `does not answer the API (${answer ?? 'no answer'})`,
          ].join('\n      '),
    );
  });
  // Started again by the test only so that the checks below can read what was written.
  const dead = instances.filter((instance) => !instance.isRunning);
  for (const instance of dead) {
    log(`instance ${instance.name} is down: starting it again (this does not count as recovering by itself)`);
    instance.start();
  }
  await Promise.all(dead.map((instance) => instance.waitReady(START_LIMIT_MS)));
}

function checkDisruptions(instances: Instance[], proxy: Proxy): void {
  const sigterm = disruptions.sigterm;
  if (sigterm === null) {
    check(
      'SIGTERM: the instance drained and stopped in time, and came back',
      false,
      'the SIGTERM step never ran (FLEET_DISRUPTIONS)',
    );
  } else {
    const exit = sigterm.exit;
    const ok =
      exit !== null &&
      exit.code === 0 &&
      (sigterm.drainMs ?? Infinity) <= DRAIN_LIMIT_MS &&
      sigterm.backReadyAt !== null;
    check(
      'SIGTERM: the instance drained and stopped in time, and came back',
      ok,
      exit === null
        ? `still running ${secs(DRAIN_LIMIT_MS + 3_000)} after SIGTERM (killed)`
        : `exit code ${String(exit.code)} (signal ${String(exit.signal)}) ${secs(sigterm.drainMs ?? 0)} after SIGTERM ` +
            `(limit ${secs(DRAIN_LIMIT_MS)}); ${sigterm.backReadyAt === null ? 'not ready again' : `ready again ${secs(sigterm.backReadyAt - sigterm.at)} after SIGTERM`}; ` +
            drainTraffic(proxy, sigterm.at, exit.at),
    );
  }
  const database = disruptions.database;
  if (database === null) {
    check(
      'PostgreSQL restart: both instances kept running and serving',
      false,
      'the PostgreSQL restart never ran (FLEET_DISRUPTIONS)',
    );
    return;
  }
  const since = database.at;
  const dead = instances.flatMap((instance) =>
    instance.exits
      .filter((exit) => !exit.expected && exit.at >= since)
      .map(
        (exit) =>
          `instance ${instance.name} exited by itself ${secs(exit.at - since)} after the restart began (code ${String(exit.code)})`,
      ),
  );
  check(
    'PostgreSQL restart: both instances kept running and serving',
    database.error === null && dead.length === 0,
    database.error !== null
      ? `the restart itself failed: ${database.error}`
      : dead.length === 0
        ? `PostgreSQL was back after ${secs(database.tookMs)}`
        : `${dead.join('; ')}: the instances do not survive a database restart (they must keep running, answer 503 ` +
          'while the database is away and reconnect by themselves)',
  );
}

// What the stopping instance did with requests that arrived after SIGTERM: a drain refuses new ones (503,
// or a closed listener) while it finishes those it has.
function drainTraffic(proxy: Proxy, from: number, to: number): string {
  const late = proxy.exchanges.filter(
    (exchange) => exchange.source === 'B' && exchange.startedAt > from && exchange.startedAt < to,
  );
  const served = late.filter((exchange) => exchange.status !== 503);
  const dropped = proxy.exchanges.filter(
    (exchange) =>
      exchange.source === 'proxy' &&
      exchange.note?.includes('instance B dropped') === true &&
      exchange.endedAt >= from &&
      exchange.startedAt <= to,
  );
  return (
    `while stopping it took ${late.length} new requests (${served.length} served, ${late.length - served.length} answered 503)` +
    `${dropped.length > 0 ? ` and dropped ${dropped.length} connections it had accepted` : ''}` +
    `; the proxy saw it ${proxy.healthChanges.some((change) => change.name === 'B' && change.health === 'unready' && change.at > from && change.at < to) ? 'report not ready' : 'still ready'} while it drained`
  );
}

function printSummary(
  proxy: Proxy,
  storeExchanges: Exchange[],
  journeys: JourneyRecord[],
  instances: Instance[],
): void {
  const exchanges = proxy.exchanges;
  console.log('\n== Fleet summary ==');
  console.log(
    `requests through the proxy: ${exchanges.length} (${formatCounts(countBy(exchanges, (e) => (e.source === 'proxy' ? 'the proxy itself' : `instance ${e.source}`)))})`,
  );
  console.log(`  by status: ${formatCounts(countBy(exchanges, (e) => String(e.status)))}`);
  for (const name of ['A', 'B'] as const) {
    const mine = exchanges.filter((exchange) => exchange.source === name);
    console.log(`  instance ${name}: ${formatCounts(countBy(mine, (e) => String(e.status))) || 'nothing'}`);
  }
  const proxyOwn = exchanges.filter((exchange) => exchange.source === 'proxy');
  if (proxyOwn.length > 0)
    console.log(
      `  the proxy itself: ${formatCounts(countBy(proxyOwn, (e) => `${e.status} ${e.note ?? ''}`))}`,
    );
  console.log(
    `  by phase: ${[...countBy(exchanges, (e) => phaseAt(e.startedAt)).entries()].map(([p, n]) => `"${p}" ${n}`).join(', ')}`,
  );
  console.log(
    `requests to the store (radosgw): ${storeExchanges.length} (${formatCounts(countBy(storeExchanges, (e) => `${e.method} ${e.status}`))})`,
  );
  const complete = journeys.filter((journey) => journey.isComplete).length;
  console.log(
    `journeys: ${journeys.length} started, ${complete} complete, ${journeys.filter((j) => j.failure !== null).length} failed`,
  );
  const sigterm = disruptions.sigterm;
  const database = disruptions.database;
  console.log(
    `SIGTERM to instance B at ${sigterm ? at(sigterm.at) : '-'}: ${
      sigterm?.exit
        ? `exit ${String(sigterm.exit.code)} after ${secs(sigterm.drainMs ?? 0)}`
        : 'no clean exit'
    }, ${sigterm?.backReadyAt ? `ready again at ${at(sigterm.backReadyAt)}` : 'not back'}`,
  );
  console.log(
    `PostgreSQL restart at ${database ? at(database.at) : '-'}: ${database ? `took ${secs(database.tookMs)}` : 'did not run'}`,
  );
  const survivedSigterm = sigterm?.exit?.code === 0 && sigterm.backReadyAt !== null;
  const survivedDatabase =
    database !== null &&
    instances.every((instance) => !instance.exits.some((exit) => !exit.expected && exit.at >= database.at));
  console.log(
    `restarts survived: ${(survivedSigterm ? 1 : 0) + (survivedDatabase ? 1 : 0)} of 2 ` +
      `(SIGTERM and restart of B: ${survivedSigterm ? 'yes' : 'no'}; PostgreSQL restart: ${survivedDatabase ? 'yes' : 'no'})`,
  );
  console.log(
    `readiness probe: ${proxy.probeVia() === 'readyz' ? '/readyz' : 'no /readyz on the server (404): any API answer counted as ready'}`,
  );
  console.log(
    `health changes seen by the proxy: ${proxy.healthChanges.map((change) => `${at(change.at)} ${change.name} ${change.health}`).join(', ')}`,
  );
  console.log(`phases: ${phaseMarks.map((mark) => `${at(mark.at)} ${mark.name}`).join(' | ')}`);
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const runTag = Date.now().toString(36);
  const proxyPort = await freePort();
  const origin = `http://127.0.0.1:${proxyPort}`;

  phase('store: bucket, CORS and policy checks');
  const store = await prepareStore(origin);
  const smtp = await startMailSink();

  phase('instances starting');
  const ports = { A: await freePort(), B: await freePort() };
  const instances = (['A', 'B'] as const).map((name) => {
    const dataDir = path.join(env.work, `instance-${name}`);
    mkdirSync(dataDir, { recursive: true });
    return new Instance(
      name,
      ports[name],
      {
        ...process.env,
        PORT: String(ports[name]),
        HOST: '127.0.0.1',
        DATABASE_URL: env.databaseUrl,
        S3_ENDPOINT: env.s3Endpoint,
        S3_BUCKET: BUCKET,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: env.s3AccessKey,
        S3_SECRET_ACCESS_KEY: env.s3Secret,
        PARAPH_PUBLIC_ORIGIN: origin,
        PARAPH_TRUST_PROXY: '127.0.0.1',
        PARAPH_DEMO: '1',
        PARAPH_IDP_AUTOCONFIRM: '1',
        PARAPH_IDP_AUTOCONFIRM_DELAY_MS: String(AUTOCONFIRM_DELAY_MS),
        PARAPH_DATA_DIR: dataDir,
        PARAPH_APP_DIR: path.join(dataDir, 'no-app-built'),
        PARAPH_UPLOAD_GRANTS_PER_MINUTE: '1000',
        PARAPH_SIGN_LIMIT_BASIC: 'unlimited',
        PARAPH_SIGN_LIMIT_QUALIFIED: 'unlimited',
        PARAPH_SIGN_LIMIT_ADVANCED: 'unlimited',
        SMTP_URL: smtp.url,
        PARAPH_LOG_LEVEL: 'info',
        // One CA for the deployment, in the database: every instance opens its keys with this passphrase.
        PARAPH_CA_PASSPHRASE: FLEET_CA_PASSPHRASE,
      },
      path.join(env.work, `instance-${name}.log`),
      now,
      ROOT,
    );
  });
  const b = instances[1] as Instance;
  // Whatever happens to the driver, no instance outlives it.
  process.on('exit', () => {
    for (const instance of instances) instance.kill();
  });
  const proxy = await startProxy({
    port: proxyPort,
    backends: instances.map(({ name, port }) => ({ name, port })),
    now,
  });

  const teardown = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await proxy.close();
    await smtp.close();
  };

  // One after the other: the first start migrates the database and seeds the demo accounts.
  const startedAt = now();
  for (const instance of instances) {
    instance.start();
    const ready = await instance.waitReady(START_LIMIT_MS);
    if (ready.health !== 'ready') {
      check(
        `instance ${instance.name} starts`,
        false,
        `not ready after ${secs(START_LIMIT_MS)}:\n${indent(instance.logTail(20))}`,
      );
      await teardown();
      process.exit(1);
    }
    log(`instance ${instance.name} ready on port ${instance.port} (pid ${String(instance.pid)})`);
  }
  const startupMs = now() - startedAt;

  const ctx: Context = {
    origin,
    workDir: env.work,
    now,
    storeExchanges: [],
    hasPdfsig: await hasCommand('pdfsig'),
  };
  if (!ctx.hasPdfsig) log('pdfsig is not installed: signed files are checked for /ByteRange only');

  const people: Record<string, Person> = {
    ada: { email: 'ada@paraph.test', password: DEMO_PASSWORD },
    bob: { email: 'bob@paraph.test', password: DEMO_PASSWORD },
    carol: { email: 'carol@paraph.test', password: DEMO_PASSWORD },
  };
  const pairs: [Person, Person][] = [
    [people.ada as Person, people.bob as Person],
    [people.carol as Person, people.ada as Person],
  ];

  phase('journeys (both instances up)');
  const journeys: JourneyRecord[] = [];
  let counter = 0;
  const journeysFrom = now();
  // Journeys run for FLEET_SECONDS, and at least AFTER_DISRUPTIONS_MS past the last disruption, however
  // long the restarts took: what happens after them is the point.
  let endAt = journeysFrom + env.seconds * 1000;
  let isDisrupting = true;
  const workers = pairs.map(async ([owner, signatory]) => {
    while (isDisrupting || now() < endAt) {
      counter += 1;
      const journey = await runJourney(ctx, counter, runTag, owner, signatory, (entry) =>
        journeys.push(entry),
      );
      if (journey.failure !== null) {
        log(
          `journey ${journey.n} failed at "${journey.failure.step}": ${journey.failure.message.slice(0, 200)}`,
        );
        // A failing fleet fails fast: no need to hammer it.
        await sleep(1000);
      }
    }
  });

  const disrupt = (async () => {
    await sleep(Math.max(0, journeysFrom + SIGTERM_AFTER_MS - now()));
    if (env.disruptions.has('sigterm')) await sigtermAndRestart(b);
    await sleep(Math.max(5_000, journeysFrom + DATABASE_RESTART_AFTER_MS - now()));
    if (env.disruptions.has('database')) await restartPostgres();
    endAt = Math.max(endAt, now() + AFTER_DISRUPTIONS_MS);
    isDisrupting = false;
  })();

  await Promise.all([...workers, disrupt]);
  const journeysMs = now() - journeysFrom;
  phase('checks');
  const checksFrom = now();

  await checkRecovery(instances, origin, people.bob as Person, proxy.probeVia());
  // Tokens for the checks, through the proxy (a dead instance was started again above).
  const tokens: Tokens = new Map();
  await guarded('signing in for the checks', async () => {
    for (const person of Object.values(people)) tokens.set(person.email, await signIn(ctx, person));
  });
  checkDisruptions(instances, proxy);
  checkResponses(proxy, ctx.storeExchanges);
  checkJourneys(journeys);

  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  try {
    await guarded('every acknowledged write can be read afterwards', () =>
      checkAcknowledgedWrites(ctx, db, journeys, tokens, runTag),
    );
    await guarded('every job ran once (page images, signatures, messages)', () =>
      checkJobsRanOnce(db, store, journeys, smtp),
    );
  } finally {
    await db.end();
  }
  const checksMs = now() - checksFrom;

  printSummary(proxy, ctx.storeExchanges, journeys, instances);
  console.log(
    `timings: instances started in ${secs(startupMs)}, journeys ${secs(journeysMs)}, checks ${secs(checksMs)}, driver ${secs(now())}`,
  );
  await teardown();

  const failed = checks.filter((entry) => !entry.ok);
  if (failed.length > 0) {
    console.log(`\nFLEET TEST FAILED: ${failed.length} of ${checks.length} checks failed:`);
    for (const entry of failed) console.log(`  - ${entry.name}`);
    process.exit(1);
  }
  console.log(`\nfleet test passed: ${checks.length} checks`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error('fleet: the driver itself failed:', error);
  process.exit(1);
});
