// bench/api: GET /api/documents/active with 10,000 documents in the database, under autocannon, beside a
// trivial route of the SAME server in the same run. The ratio documents/trivial is the number to watch:
// it says what the list query and its serialization cost over the bare request path, whatever the machine.
//
// The trivial route: buildApp calls app.ready(), after which Fastify refuses new routes (`Cannot add
// route!`), so GET /bench/trivial cannot be registered. Instead the `handlers` override of buildApp binds
// GET /api/smart_cards (listSmartCards) to a handler answering an empty list: the same routing, hooks,
// bearer lookup and error handling as the document list, minus the list's own work.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import type { FastifyInstance } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import { loadConfig } from '../server/config.ts';
import type {
  Database,
  DocumentPagesTable,
  DocumentState,
  DocumentsTable,
  ParticipantState,
  SignFlowParticipantsTable,
  SignFlowState,
  SignFlowsTable,
  UsersTable,
} from '../server/db/schema.ts';
import { pageImageKey } from '../server/images/worker.ts';
import { ms, ratio, round, type Bench, type BenchResult } from './report.ts';

const DOCUMENTS = 10_000;
// Of those, documents colleagues own and the benchmark user takes part in (signs or reviews).
const SHARED_DOCUMENTS = 1_000;
const ARCHIVED_SHARE = 0.02;
const DURATION_SECONDS = 10;
const CONNECTIONS = 10;
const PASSWORD = 'bench-password-not-secret';
const DAY_MS = 86_400_000;

const USER = { fullName: 'Ada Benchmark', email: 'ada.benchmark@example.test' };
const COLLEAGUES = [
  'Bob Baker',
  'Carol Chen',
  'Dmitri Ivanov',
  'Elena García',
  'Farid Haddad',
  'Grace Hopper',
  'Hiro Tanaka',
  'Ines Moreau',
  'Jan de Vries',
  'Kofi Mensah',
  'Lena Schmidt',
  'Marco Rossi',
  'Nadia Benali',
  'Oscar Lindqvist',
  'Priya Sharma',
  'Quentin Dubois',
  'Rosa Martínez',
  'Sven Olsen',
  'Tara Murphy',
  'Umar Farouk',
];
// A quarter of the kinds contain "report", so ?search=report matches about a quarter of the documents.
const KINDS = [
  'Quarterly report',
  'Employment contract',
  'Non-disclosure agreement',
  'Invoice',
  'Purchase order',
  'Lease agreement',
  'Board minutes',
  'Audit report',
  'Service agreement',
  'Expense report',
  'Offer letter',
  'Supplier agreement',
];
const SUBJECTS = [
  'Acme BV',
  'Northwind',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Stark Industries',
  'Wayne Enterprises',
  'Tyrell',
];
// Roughly how documents spread over states in a team that signs every week.
const STATE_WEIGHTS: [DocumentState, number][] = [
  ['uploaded', 30],
  ['in_review', 8],
  ['awaiting_signs', 18],
  ['signing', 4],
  ['signed', 30],
  ['refused', 4],
  ['rejected', 2],
  ['cancelled', 3],
  ['error', 1],
];

// Deterministic, so every run measures the same data (mulberry32).
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;

function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

function weighted<T>(rng: Rng, weights: readonly [T, number][]): T {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = rng() * total;
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll < 0) return value;
  }
  const last = weights[weights.length - 1];
  if (last === undefined) throw new Error('weighted pick from an empty list');
  return last[0];
}

function emailOf(fullName: string): string {
  return `${fullName
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z ]/g, '')
    .replace(/ /g, '.')}@example.test`;
}

function initialsOf(fullName: string): string {
  return fullName
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

type Person = { id: string; email: string; fullName: string };

type Rows = {
  documents: Insertable<DocumentsTable>[];
  pages: Insertable<DocumentPagesTable>[];
  flows: Insertable<SignFlowsTable>[];
  participants: Insertable<SignFlowParticipantsTable>[];
  archives: { document_id: string; user_id: string; archived_at: string }[];
};

const FLOW_STATE: Partial<Record<DocumentState, SignFlowState>> = {
  in_review: 'in_review',
  awaiting_signs: 'awaiting_signs',
  signing: 'signing',
  signed: 'signed',
  refused: 'refused',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

// What each participant's state is, given the flow's state and their place in it.
function participantState(
  flow: SignFlowState,
  role: 'signatory' | 'reviewer',
  index: number,
  count: number,
): ParticipantState {
  switch (flow) {
    case 'in_review':
      return role === 'reviewer' ? 'pending' : 'waiting';
    case 'awaiting_signs':
    case 'signing':
      if (role === 'reviewer') return 'approved';
      return index < count - 1 && index % 2 === 0 ? 'signed' : 'pending';
    case 'signed':
      return role === 'reviewer' ? 'approved' : 'signed';
    case 'refused':
      if (role === 'reviewer') return 'approved';
      return index === count - 1 ? 'refused' : 'signed';
    case 'rejected':
      return role === 'reviewer' ? 'rejected' : 'cancelled';
    case 'cancelled':
      return 'cancelled';
  }
}

function makeRows(user: Person, colleagues: Person[], now: Date): Rows {
  const rng = random(20_240_601);
  const rows: Rows = { documents: [], pages: [], flows: [], participants: [], archives: [] };
  for (let n = 0; n < DOCUMENTS; n += 1) {
    const isShared = n % Math.round(DOCUMENTS / SHARED_DOCUMENTS) === 0;
    const owner = isShared ? pick(rng, colleagues) : user;
    const id = randomUUID();
    // Shared documents reached the user because someone asked them to act: they always have a flow.
    const state = isShared
      ? weighted(
          rng,
          STATE_WEIGHTS.filter(([value]) => FLOW_STATE[value] !== undefined),
        )
      : weighted(rng, STATE_WEIGHTS);
    const createdAt = new Date(now.getTime() - Math.floor(rng() * 730 * DAY_MS));
    const pageCount = 1 + Math.floor(rng() * rng() * 12);
    const year = createdAt.getUTCFullYear();
    rows.documents.push({
      id,
      owner_id: owner.id,
      original_filename: `${pick(rng, KINDS)} ${pick(rng, SUBJECTS)} ${year}-${String(1 + (n % 12)).padStart(2, '0')}.pdf`,
      file_key: `documents/${id}/original.pdf`,
      file_size: 20_000 + Math.floor(rng() * 4_000_000),
      sha256: randomUUID().replaceAll('-', '').repeat(2),
      page_count: pageCount,
      state,
      images_state: state === 'error' ? 'failed' : 'ready',
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      autodeletion_at: new Date(createdAt.getTime() + 365 * DAY_MS).toISOString(),
      signed_file_key: state === 'signed' ? `documents/${id}/signed.pdf` : null,
    });
    if (state !== 'error') {
      for (let page = 1; page <= pageCount; page += 1) {
        rows.pages.push({
          document_id: id,
          page_number: page,
          image_key: pageImageKey(id, page),
          width: 1240,
          height: 1754,
        });
      }
    }
    if (!isShared && rng() < ARCHIVED_SHARE) {
      rows.archives.push({ document_id: id, user_id: user.id, archived_at: createdAt.toISOString() });
    }
    const flowState = FLOW_STATE[state];
    if (flowState === undefined) continue;
    const flowId = randomUUID();
    rows.flows.push({
      id: flowId,
      document_id: id,
      type: rng() < 0.3 ? 'ordered' : 'standard',
      comment: rng() < 0.5 ? 'Please sign before the end of the month.' : '',
      minimum_required_signs: 0,
      sign_page_number: 0,
      state: flowState,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
    });
    const others = colleagues.filter((person) => person.id !== owner.id);
    const people: Person[] = [];
    if (isShared) people.push(user);
    while (people.length < 1 + Math.floor(rng() * 3)) {
      const person = pick(rng, others);
      if (!people.includes(person)) people.push(person);
    }
    const hasReviewer = flowState === 'in_review' || flowState === 'rejected' || rng() < 0.2;
    people.forEach((person, index) => {
      const role = hasReviewer && index === 0 ? 'reviewer' : 'signatory';
      const participant = participantState(flowState, role, index, people.length);
      rows.participants.push({
        id: randomUUID(),
        sign_flow_id: flowId,
        role,
        position: index + 1,
        email: person.email,
        user_id: person.id,
        state: participant,
        signed_at: participant === 'signed' ? createdAt.toISOString() : null,
        refused_at: participant === 'refused' ? createdAt.toISOString() : null,
        approved_at: participant === 'approved' ? createdAt.toISOString() : null,
        rejected_at: participant === 'rejected' ? createdAt.toISOString() : null,
        refuse_reason: participant === 'refused' ? 'The amounts in section 3 are wrong.' : null,
      });
    });
  }
  return rows;
}

async function insertBatched<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
  columns: number,
): Promise<void> {
  // SQLite allows 32,766 bound parameters per statement; stay well below.
  const size = Math.max(1, Math.floor(8_000 / columns));
  for (let start = 0; start < rows.length; start += size) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + size))
      .execute();
  }
}

async function seed(app: FastifyInstance): Promise<{ user: Person; counts: Record<string, number> }> {
  const { db, clock } = app.deps;
  const now = clock();
  const passwordHash = await hashPassword(PASSWORD);
  const person = (fullName: string, email = emailOf(fullName)): Person => ({
    id: randomUUID(),
    email,
    fullName,
  });
  const user = person(USER.fullName, USER.email);
  const colleagues = COLLEAGUES.map((fullName) => person(fullName));
  const userRows: Insertable<UsersTable>[] = [user, ...colleagues].map((entry) => ({
    id: entry.id,
    email: entry.email,
    full_name: entry.fullName,
    initials: initialsOf(entry.fullName),
    password_hash: passwordHash,
    locale: 'en',
    country_code: 'nl',
    location: '',
    welcome_screen_watched: 1,
    plan: 'basic',
    created_at: now.toISOString(),
    last_seen_at: null,
  }));
  const rows = makeRows(user, colleagues, now);
  await db.transaction().execute(async (trx) => {
    await insertBatched(trx, 'users', userRows, 12);
    await insertBatched(trx, 'documents', rows.documents, 14);
    await insertBatched(trx, 'document_pages', rows.pages, 5);
    await insertBatched(trx, 'sign_flows', rows.flows, 9);
    await insertBatched(trx, 'sign_flow_participants', rows.participants, 13);
    await insertBatched(trx, 'document_archives', rows.archives, 3);
  });
  return {
    user,
    counts: {
      documents: rows.documents.length,
      sharedDocuments: rows.documents.filter((row) => row.owner_id !== user.id).length,
      archived: rows.archives.length,
      pages: rows.pages.length,
      signFlows: rows.flows.length,
      participants: rows.participants.length,
    },
  };
}

// The real sign-in: the form post sets the session cookie, which GET /api/tokens exchanges for a token.
async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const signInResponse = await app.inject({
    method: 'POST',
    url: '/sign_in',
    payload: new URLSearchParams({ email, password: PASSWORD, return_to: '/app/auth' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const cookie = signInResponse.cookies.find((entry) => entry.name === 'paraph_session');
  if (signInResponse.statusCode !== 303 || cookie === undefined)
    throw new Error(`sign-in failed with ${signInResponse.statusCode}`);
  const tokenResponse = await app.inject({
    method: 'GET',
    url: '/api/tokens',
    cookies: { paraph_session: cookie.value },
  });
  const body = tokenResponse.json<{ access_token?: unknown }>();
  if (tokenResponse.statusCode !== 200 || typeof body.access_token !== 'string')
    throw new Error(`token exchange failed with ${tokenResponse.statusCode}`);
  return body.access_token;
}

type Target = { key: string; label: string; path: string; expect: (body: unknown) => string | null };

type ListBody = { data?: unknown[]; meta?: { currentPage?: number; totalPages?: number } };

function listCheck(minRows: number): Target['expect'] {
  return (body) => {
    const list = body as ListBody;
    if (!Array.isArray(list.data)) return 'no data array';
    return list.data.length >= minRows ? null : `${list.data.length} documents, expected at least ${minRows}`;
  };
}

const TARGETS: Target[] = [
  {
    key: 'trivial',
    label: 'trivial (GET /api/smart_cards, stub)',
    path: '/api/smart_cards',
    expect: (body) => {
      const data = (body as { data?: unknown }).data;
      return Array.isArray(data) && data.length === 0 ? null : 'not { data: [] }';
    },
  },
  { key: 'active', label: 'documents/active page 1', path: '/api/documents/active', expect: listCheck(20) },
  {
    key: 'search',
    label: 'documents/active ?search=report',
    path: '/api/documents/active?search=report',
    expect: listCheck(20),
  },
  {
    key: 'page250',
    label: 'documents/active ?page=250',
    path: '/api/documents/active?page=250',
    expect: listCheck(20),
  },
];

async function load(origin: string, target: Target, token: string): Promise<Result> {
  return autocannon({
    url: `${origin}${target.path}`,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    // The load generator gets a thread of its own, so it does not compete for the server's event loop.
    workers: 1,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function measure(): Promise<BenchResult> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-bench-api-'));
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_DEMO: '0',
    // A log line per request would measure pino and the terminal, on both routes alike.
    PARAPH_LOG_LEVEL: 'warn',
    PARAPH_APP_DIR: path.join(dataDir, 'no-app'),
  });
  const app = await buildApp(config, { handlers: { listSmartCards: async () => ({ data: [] }) } });
  const problems: string[] = [];
  try {
    const seedStartedAt = performance.now();
    const { user, counts } = await seed(app);
    const seedSeconds = (performance.now() - seedStartedAt) / 1000;
    const token = await signIn(app, user.email);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const origin = `http://127.0.0.1:${port}`;

    const results: { target: Target; result: Result; totalPages: number | null }[] = [];
    for (const target of TARGETS) {
      // One request first: it must succeed with the expected shape, and it warms the caches.
      const probe = await fetch(`${origin}${target.path}`, { headers: { authorization: `Bearer ${token}` } });
      const body: unknown = await probe.json();
      const failure = probe.status === 200 ? target.expect(body) : `status ${probe.status}`;
      if (failure !== null) {
        problems.push(`${target.label}: ${failure}`);
        continue;
      }
      const result = await load(origin, target, token);
      if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
        problems.push(
          `${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts under load`,
        );
      }
      results.push({ target, result, totalPages: (body as ListBody).meta?.totalPages ?? null });
    }

    const trivial = results.find((entry) => entry.target === TARGETS[0])?.result;
    const rows = results.map(({ target, result, totalPages }) => [
      target.label,
      Math.round(result.requests.average),
      ms(result.latency.p50),
      ms(result.latency.p99),
      trivial === undefined ? '' : ratio(trivial.requests.average / result.requests.average),
      trivial === undefined ? '' : ratio(result.latency.p99 / Math.max(trivial.latency.p99, 1)),
      totalPages ?? '',
    ]);
    const metrics: Record<string, number> = {
      ...counts,
      seedSeconds: round(seedSeconds, 1),
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
    };
    for (const { target, result } of results) {
      metrics[`${target.key}Rps`] = round(result.requests.average, 1);
      metrics[`${target.key}P50Ms`] = result.latency.p50;
      metrics[`${target.key}P99Ms`] = result.latency.p99;
      if (trivial !== undefined && target !== TARGETS[0])
        metrics[`${target.key}SlowdownVsTrivial`] = round(
          trivial.requests.average / result.requests.average,
          2,
        );
    }
    return {
      name: 'api',
      title: `autocannon, ${CONNECTIONS} connections x ${DURATION_SECONDS} s per route, ${counts.documents?.toLocaleString('en-US')} documents`,
      tables: [
        {
          title: 'Requests against one server (bearer token on every request)',
          columns: ['route', 'req/s', 'p50', 'p99', 'trivial/route req/s', 'p99 / trivial p99', 'pages'],
          rows,
        },
      ],
      metrics,
      notes: [
        `seeded ${counts.documents} documents (${counts.sharedDocuments} owned by colleagues with the user as participant, ${counts.archived} archived), ${counts.pages} page images, ${counts.signFlows} sign flows, ${counts.participants} participants in ${seedSeconds.toFixed(1)} s`,
        'the trivial route is listSmartCards bound to a stub through buildApp({ handlers }): buildApp calls ready(), so no /bench route can be added',
        '"trivial/route req/s" is how many times slower than the trivial route each route is (1.00x = as fast)',
        'autocannon measures latency in whole milliseconds',
      ],
      problems,
    };
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const apiBench: Bench = {
  name: 'api',
  title: 'GET /api/documents/active with 10,000 documents',
  run: measure,
};
