// bench/api: GET /api/documents/active under autocannon, beside a trivial route of the SAME server in the
// same run, on SQLite and on PostgreSQL. The ratio list/trivial is the number to watch: it says what the
// list query and its serialization cost over the bare request path, whatever the machine.
//
// `npm run bench -- api` seeds 10,000 documents; `npm run bench -- api-1m` 1,000,000 (about half an hour
// on a 2-core machine, most of it writing the rows). The rows are written in bulk straight into the
// tables, before migration 0014 exists; starting the server then runs it, which builds the list tables
// and the search index from them as it would on an existing deployment. Neither is timed with the
// requests: each has its own line in the notes. PostgreSQL is the one BENCH_DATABASE_URL names (a schema
// of its own is made there and dropped after), else a private cluster of Debian's PostgreSQL; without
// either, only SQLite is measured.
//
// The trivial route: buildApp calls app.ready(), after which Fastify refuses new routes (`Cannot add
// route!`), so GET /bench/trivial cannot be registered. Instead the `handlers` override of buildApp binds
// GET /api/smart_cards (listSmartCards) to a handler answering an empty list: the same routing, hooks,
// bearer lookup and error handling as the document list, minus the list's own work.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import inspector from 'node:inspector';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { hashPassword } from '../server/auth/passwords.ts';
import { loadConfig } from '../server/config.ts';
import { dropPgSchema, openDatabase, openSqliteConnection } from '../server/db/database.ts';
import type { SqlDialect } from '../server/db/dialect.ts';
import { migrationsFor } from '../server/db/migrate.ts';
import type { DocumentState, ParticipantState, SignFlowState } from '../server/db/schema.ts';
import { pageImageKey } from '../server/images/worker.ts';
import { startPgCluster } from './pg-cluster.ts';
import { ms, round, type Bench, type BenchResult, type Cell, type Table } from './report.ts';

// Of the documents, one in ten is a colleague's in which the benchmark user takes part (signs or reviews).
const SHARED_EVERY = 10;
const ARCHIVED_SHARE = 0.02;
const DURATION_SECONDS = 10;
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 10;
const PASSWORD = 'bench-password-not-secret';
const DAY_MS = 86_400_000;
// The migration that builds the list tables: the rows are written before it runs (see above).
const LIST_MIGRATION = '0014_document_lists';
// What the issue asks of the list routes, against the trivial route of the same run.
const TARGET_SHARE_OF_TRIVIAL = 0.4;
const TARGET_P99_MS = { 10_000: 20, 1_000_000: 50 } as Record<number, number>;
// To measure a part while working on it (the full run takes minutes): comma-separated lists, each unset
// meaning all. BENCH_API_DIALECTS: sqlite, postgres. BENCH_API_ROUTES: the targets' keys (the trivial
// route is always measured: every ratio is against it). BENCH_API_KEEPING: all, NoPageCache, NothingKept
// (the servers that keep less, below).
function chosen(variable: string): (key: string) => boolean {
  const list = process.env[variable]
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return (key) => list === undefined || list.length === 0 || list.includes(key);
}
const dialectChosen = chosen('BENCH_API_DIALECTS');
const routeChosen = chosen('BENCH_API_ROUTES');
const keepingChosen = chosen('BENCH_API_KEEPING');
// BENCH_API_PROFILE=<folder>: the server's CPU profile while each route is under load (the load generator
// runs in a thread of its own, which the profile leaves out), one .cpuprofile per route and database.
const PROFILE_FOLDER = process.env.BENCH_API_PROFILE ?? '';

async function profiled<T>(file: string, work: () => Promise<T>): Promise<T> {
  if (PROFILE_FOLDER === '') return work();
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    session.disconnect();
    await mkdir(PROFILE_FOLDER, { recursive: true });
    await writeFile(path.join(PROFILE_FOLDER, `${file}.cpuprofile`), JSON.stringify(profile));
  }
}

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
// File names end in the year and a month, so FEW (below) matches about one in 360.
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
const FEW = 'tyrell 2025-03';
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

type Person = { id: string; email: string; fullName: string };

type Column = readonly [name: string, pgType: 'text' | 'int'];
type TableSpec = { name: string; columns: readonly Column[] };

const USERS: TableSpec = {
  name: 'users',
  columns: [
    ['id', 'text'],
    ['email', 'text'],
    ['full_name', 'text'],
    ['initials', 'text'],
    ['password_hash', 'text'],
    ['locale', 'text'],
    ['country_code', 'text'],
    ['location', 'text'],
    ['welcome_screen_watched', 'int'],
    ['plan', 'text'],
    ['created_at', 'text'],
  ],
};
const DOCUMENTS: TableSpec = {
  name: 'documents',
  columns: [
    ['id', 'text'],
    ['owner_id', 'text'],
    ['original_filename', 'text'],
    ['file_key', 'text'],
    ['file_size', 'int'],
    ['sha256', 'text'],
    ['page_count', 'int'],
    ['state', 'text'],
    ['images_state', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
    ['autodeletion_at', 'text'],
    ['signed_file_key', 'text'],
  ],
};
const PAGES: TableSpec = {
  name: 'document_pages',
  columns: [
    ['document_id', 'text'],
    ['page_number', 'int'],
    ['image_key', 'text'],
    ['width', 'int'],
    ['height', 'int'],
  ],
};
const FLOWS: TableSpec = {
  name: 'sign_flows',
  columns: [
    ['id', 'text'],
    ['document_id', 'text'],
    ['type', 'text'],
    ['comment', 'text'],
    ['minimum_required_signs', 'int'],
    ['sign_page_number', 'int'],
    ['state', 'text'],
    ['created_at', 'text'],
    ['updated_at', 'text'],
  ],
};
const PARTICIPANTS: TableSpec = {
  name: 'sign_flow_participants',
  columns: [
    ['id', 'text'],
    ['sign_flow_id', 'text'],
    ['role', 'text'],
    ['position', 'int'],
    ['email', 'text'],
    ['user_id', 'text'],
    ['state', 'text'],
    ['signed_at', 'text'],
    ['refused_at', 'text'],
    ['approved_at', 'text'],
    ['rejected_at', 'text'],
    ['refuse_reason', 'text'],
  ],
};
const ARCHIVES: TableSpec = {
  name: 'document_archives',
  columns: [
    ['document_id', 'text'],
    ['user_id', 'text'],
    ['archived_at', 'text'],
  ],
};

type Value = string | number | null;
type Batch = Map<TableSpec, Value[][]>;

// Where the rows go: prepared statements in one transaction per batch on SQLite, one INSERT ... SELECT
// FROM unnest(...) per table and batch on PostgreSQL.
type Sink = { write(batch: Batch): Promise<void>; close(): Promise<void> };

async function sqliteSink(dataDir: string): Promise<Sink> {
  const file = await openSqliteConnection(dataDir);
  const statements = new Map<TableSpec, ReturnType<typeof file.prepare>>();
  const statementFor = (table: TableSpec) => {
    let statement = statements.get(table);
    if (statement === undefined) {
      const names = table.columns.map(([name]) => name);
      statement = file.prepare(
        `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      );
      statements.set(table, statement);
    }
    return statement;
  };
  // One transaction per batch, through the same driver interface the server uses (either driver).
  const begin = file.prepare('BEGIN');
  const commit = file.prepare('COMMIT');
  return {
    write: async (batch) => {
      begin.run([]);
      for (const [table, rows] of batch) {
        const statement = statementFor(table);
        for (const row of rows) statement.run(row);
      }
      commit.run([]);
    },
    close: async () => {
      file.close();
    },
  };
}

async function pgSink(databaseUrl: string, schema: string): Promise<Sink> {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path="${schema}"` });
  await client.connect();
  return {
    write: async (batch) => {
      await client.query('BEGIN');
      for (const [table, rows] of batch) {
        if (rows.length === 0) continue;
        const names = table.columns.map(([name]) => name);
        const arrays = table.columns.map((_, column) => rows.map((row) => row[column] ?? null));
        const unnest = table.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
        await client.query(
          `INSERT INTO ${table.name} (${names.join(', ')}) SELECT * FROM unnest(${unnest})`,
          arrays,
        );
      }
      await client.query('COMMIT');
    },
    close: () => client.end(),
  };
}

type Counts = {
  documents: number;
  sharedDocuments: number;
  archived: number;
  pages: number;
  signFlows: number;
  participants: number;
};
type Seeded = { user: Person; colleague: Person; counts: Counts };

// The documents in batches, in the same deterministic sequence whatever the dialect and batch size.
async function seed(sink: Sink, documents: number, now: Date): Promise<Seeded> {
  const rng = random(20_240_601);
  const passwordHash = await hashPassword(PASSWORD);
  const person = (fullName: string, email = emailOf(fullName)): Person => ({
    id: randomUUID(),
    email,
    fullName,
  });
  const user = person(USER.fullName, USER.email);
  const colleagues = COLLEAGUES.map((fullName) => person(fullName));
  const counts: Counts = {
    documents: 0,
    sharedDocuments: 0,
    archived: 0,
    pages: 0,
    signFlows: 0,
    participants: 0,
  };
  await sink.write(
    new Map([
      [
        USERS,
        [user, ...colleagues].map((entry) => [
          entry.id,
          entry.email,
          entry.fullName,
          initialsOf(entry.fullName),
          passwordHash,
          'en',
          'nl',
          '',
          1,
          'basic',
          now.toISOString(),
        ]),
      ],
    ]),
  );
  const BATCH = 5_000;
  for (let first = 0; first < documents; first += BATCH) {
    const batch: Batch = new Map(
      [DOCUMENTS, PAGES, FLOWS, PARTICIPANTS, ARCHIVES].map((table) => [table, []]),
    );
    const add = (table: TableSpec, row: Value[]) => batch.get(table)?.push(row);
    for (let n = first; n < Math.min(documents, first + BATCH); n += 1) {
      const isShared = n % SHARED_EVERY === 0;
      const owner = isShared ? pick(rng, colleagues) : user;
      const id = randomUUID();
      // Shared documents reached the user because someone asked them to act: they always have a flow.
      const state = isShared
        ? weighted(
            rng,
            STATE_WEIGHTS.filter(([value]) => FLOW_STATE[value] !== undefined),
          )
        : weighted(rng, STATE_WEIGHTS);
      const createdAt = new Date(now.getTime() - Math.floor(rng() * 730 * DAY_MS)).toISOString();
      const pageCount = 1 + Math.floor(rng() * rng() * 12);
      const year = createdAt.slice(0, 4);
      counts.documents += 1;
      if (isShared) counts.sharedDocuments += 1;
      add(DOCUMENTS, [
        id,
        owner.id,
        `${pick(rng, KINDS)} ${pick(rng, SUBJECTS)} ${year}-${String(1 + (n % 12)).padStart(2, '0')}.pdf`,
        `documents/${id}/original.pdf`,
        20_000 + Math.floor(rng() * 4_000_000),
        randomUUID().replaceAll('-', '').repeat(2),
        pageCount,
        state,
        state === 'error' ? 'failed' : 'ready',
        createdAt,
        createdAt,
        new Date(Date.parse(createdAt) + 365 * DAY_MS).toISOString(),
        state === 'signed' ? `documents/${id}/signed.pdf` : null,
      ]);
      if (state !== 'error') {
        for (let page = 1; page <= pageCount; page += 1)
          add(PAGES, [id, page, pageImageKey(id, page), 1240, 1754]);
        counts.pages += pageCount;
      }
      if (!isShared && rng() < ARCHIVED_SHARE) {
        add(ARCHIVES, [id, user.id, createdAt]);
        counts.archived += 1;
      }
      const flowState = FLOW_STATE[state];
      if (flowState === undefined) continue;
      const flowId = randomUUID();
      counts.signFlows += 1;
      add(FLOWS, [
        flowId,
        id,
        rng() < 0.3 ? 'ordered' : 'standard',
        rng() < 0.5 ? 'Please sign before the end of the month.' : '',
        0,
        0,
        flowState,
        createdAt,
        createdAt,
      ]);
      const others = colleagues.filter((entry) => entry.id !== owner.id);
      const people: Person[] = [];
      if (isShared) people.push(user);
      while (people.length < 1 + Math.floor(rng() * 3)) {
        const entry = pick(rng, others);
        if (!people.includes(entry)) people.push(entry);
      }
      const hasReviewer = flowState === 'in_review' || flowState === 'rejected' || rng() < 0.2;
      people.forEach((entry, index) => {
        const role = hasReviewer && index === 0 ? 'reviewer' : 'signatory';
        const participant = participantState(flowState, role, index, people.length);
        counts.participants += 1;
        add(PARTICIPANTS, [
          randomUUID(),
          flowId,
          role,
          index + 1,
          entry.email,
          entry.id,
          participant,
          participant === 'signed' ? createdAt : null,
          participant === 'refused' ? createdAt : null,
          participant === 'approved' ? createdAt : null,
          participant === 'rejected' ? createdAt : null,
          participant === 'refused' ? 'The amounts in section 3 are wrong.' : null,
        ]);
      });
    }
    await sink.write(batch);
  }
  const colleague = colleagues[0];
  if (colleague === undefined) throw new Error('no colleagues');
  return { user, colleague, counts };
}

// The real sign-in: the form post sets the session cookie, which GET /api/tokens exchanges for a token.
export async function signIn(app: FastifyInstance, email: string): Promise<string> {
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

type ListBody = { data?: unknown[]; meta?: { currentPage?: number; totalPages?: number } };

type Target = {
  key: string;
  label: string;
  path: string;
  as: 'user' | 'colleague';
  // A route the issue sets targets for (the trivial route and the colleague's list are references).
  targeted: boolean;
  expect: (body: unknown) => string | null;
};

function listCheck(minRows: number): Target['expect'] {
  return (body) => {
    const list = body as ListBody;
    if (!Array.isArray(list.data)) return 'no data array';
    return list.data.length >= minRows ? null : `${list.data.length} documents, expected at least ${minRows}`;
  };
}

function targets(middlePage: number | null): Target[] {
  const list = (
    key: string,
    label: string,
    query: string,
    as: Target['as'] = 'user',
    targeted = true,
    minRows = 20,
  ) => ({
    key,
    label,
    path: `/api/documents/active${query}`,
    as,
    targeted,
    expect: listCheck(minRows),
  });
  return [
    {
      key: 'trivial',
      label: 'trivial (GET /api/smart_cards, stub)',
      path: '/api/smart_cards',
      as: 'user',
      targeted: false,
      expect: (body) => {
        const data = (body as { data?: unknown }).data;
        return Array.isArray(data) && data.length === 0 ? null : 'not { data: [] }';
      },
    },
    list('active', 'documents/active page 1', ''),
    list('search', 'documents/active ?search=report', '?search=report'),
    list('page250', 'documents/active ?page=250', '?page=250'),
    ...(middlePage === null
      ? []
      : [list('middle', `documents/active ?page=${middlePage} (the middle)`, `?page=${middlePage}`)]),
    // A search that finds few (one subject in one month of one year: about 0.3 % of the documents), which
    // the search index answers rather than a walk through the person's documents.
    list(
      'searchFew',
      `documents/active ?search=${FEW}`,
      `?search=${encodeURIComponent(FEW)}`,
      'user',
      false,
      1,
    ),
    // Someone with a few hundred documents among everyone's: their page must not cost the others'.
    list('colleague', "a colleague's documents/active page 1", '', 'colleague', false),
  ];
}

async function load(origin: string, target: Target, token: string, seconds: number): Promise<Result> {
  return autocannon({
    url: `${origin}${target.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 60,
    // The load generator gets a thread of its own, so it does not compete for the server's event loop.
    workers: 1,
    headers: { authorization: `Bearer ${token}` },
  });
}

type DialectRun = {
  table: Table;
  metrics: Record<string, number>;
  notes: string[];
  problems: string[];
};

// Everything before the list tables' migration (all of them on a version without it).
function migrationBeforeLists(dialect: SqlDialect): string | null {
  const names = Object.keys(migrationsFor(dialect)).sort();
  const index = names.indexOf(LIST_MIGRATION);
  if (index === -1) return names[names.length - 1] ?? null;
  return names[index - 1] ?? null;
}

export async function prepareDatabase(
  dialect: SqlDialect,
  dataDir: string,
  databaseUrl: string | null,
  pgSchema: string | undefined,
  documents: number,
  now: Date,
): Promise<Seeded & { seedSeconds: number }> {
  const opened = await openDatabase({
    dataDir,
    databaseUrl,
    ...(pgSchema === undefined ? {} : { pgSchema }),
  });
  try {
    const target = migrationBeforeLists(dialect);
    if (target !== null) {
      const migrator = new Migrator({
        db: opened.db,
        provider: { getMigrations: async () => migrationsFor(dialect) },
        ...(pgSchema === undefined ? {} : { migrationTableSchema: pgSchema }),
      });
      const { error } = await migrator.migrateTo(target);
      if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    }
  } finally {
    await opened.db.destroy();
  }
  const sink =
    databaseUrl === null || pgSchema === undefined
      ? await sqliteSink(dataDir)
      : await pgSink(databaseUrl, pgSchema);
  const startedAt = performance.now();
  try {
    const seeded = await seed(sink, documents, now);
    return { ...seeded, seedSeconds: (performance.now() - startedAt) / 1000 };
  } finally {
    await sink.close();
  }
}

// autocannon's result comes when its time is up, with a few requests still being answered: closing the app
// then would close the database under them.
async function closeWhenSettled(app: FastifyInstance): Promise<void> {
  const openConnections = () =>
    new Promise<number>((resolve) => app.server.getConnections((_error, count) => resolve(count)));
  const deadline = Date.now() + 10_000;
  while ((await openConnections()) > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  await app.close();
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function measureDialect(
  dialect: SqlDialect,
  documents: number,
  databaseUrl: string | null,
): Promise<DialectRun> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'paraph-bench-api-'));
  const pgSchema = databaseUrl === null ? undefined : `bench_${randomUUID().replaceAll('-', '')}`;
  const env = {
    PARAPH_DATA_DIR: dataDir,
    PARAPH_DEMO: '0',
    // A log line per request would measure pino and the terminal, on both routes alike.
    PARAPH_LOG_LEVEL: 'warn',
    PARAPH_APP_DIR: path.join(dataDir, 'no-app'),
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, PARAPH_CA_PASSPHRASE: PASSWORD }),
  };
  const config = loadConfig(env);
  const now = new Date();
  const problems: string[] = [];
  let app: FastifyInstance | null = null;
  try {
    const seeded = await prepareDatabase(dialect, dataDir, databaseUrl, pgSchema, documents, now);
    const { user, colleague, counts } = seeded;
    const migrateStartedAt = performance.now();
    app = await buildApp(config, {
      handlers: { listSmartCards: async () => ({ data: [] }) },
      ...(pgSchema === undefined ? {} : { pgSchema }),
    });
    const migrateSeconds = (performance.now() - migrateStartedAt) / 1000;
    // What autovacuum does on its own soon after a bulk load; SQLite's planner needs no statistics.
    let analyzeSeconds = 0;
    if (dialect === 'postgres') {
      const analyzeStartedAt = performance.now();
      await sql`VACUUM ANALYZE`.execute(app.deps.db);
      analyzeSeconds = (performance.now() - analyzeStartedAt) / 1000;
    }
    const tokens = { user: await signIn(app, user.email), colleague: await signIn(app, colleague.email) };
    const origin = await listen(app);

    const firstPage = await fetch(`${origin}/api/documents/active`, {
      headers: { authorization: `Bearer ${tokens.user}` },
    });
    const totalPages = ((await firstPage.json()) as ListBody).meta?.totalPages ?? 1;
    const middlePage = totalPages > 1_000 ? Math.floor(totalPages / 2) : null;

    // Each server's routes are measured right after its own trivial route, their reference: the machine's
    // speed drifts over the minutes a run takes, and a reference measured minutes earlier moved the ratios
    // by several points.
    const measureTargets = async (list: Target[], at: string): Promise<void> => {
      let reference: Result | undefined;
      for (const target of list) {
        const token = tokens[target.as];
        // One request first: it must succeed with the expected shape, and it is the one that finds nothing
        // remembered yet (the count of a search, where a deep page starts): its time is reported apart.
        const probeStartedAt = performance.now();
        const probe = await fetch(`${at}${target.path}`, { headers: { authorization: `Bearer ${token}` } });
        const body: unknown = await probe.json();
        const firstMs = performance.now() - probeStartedAt;
        const failure = probe.status === 200 ? target.expect(body) : `status ${probe.status}`;
        if (failure !== null) {
          problems.push(`${dialect} ${target.label}: ${failure}`);
          continue;
        }
        await load(at, target, token, WARM_UP_SECONDS);
        const result = await profiled(`${dialect}-${target.key}`, () =>
          load(at, target, token, DURATION_SECONDS),
        );
        if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
          problems.push(
            `${dialect} ${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts under load`,
          );
        }
        if (target.key.startsWith('trivial')) reference = result;
        results.push({
          target,
          result,
          firstMs,
          totalPages: (body as ListBody).meta?.totalPages ?? null,
          reference,
        });
      }
    };
    type Measured = {
      target: Target;
      result: Result;
      firstMs: number;
      totalPages: number | null;
      reference: Result | undefined;
    };
    const results: Measured[] = [];
    const routes = targets(middlePage).filter(
      (target) => target.key === 'trivial' || routeChosen(target.key),
    );
    await measureTargets(
      routes.filter((target) => target.key === 'trivial' || keepingChosen('all')),
      origin,
    );
    // The same targeted routes again on servers that keep less: no page they sent (PARAPH_LIST_CACHE_MB=0),
    // so every request reads its page anew and reuses only each document's resource, as a person's first
    // view after one of their documents changed does; then nothing at all (PARAPH_DOCUMENT_CACHE_MB=0 too),
    // every document read and written anew. Shown beside the others; the first is held to the targets as
    // well, the second shows what the work costs when nothing is reused.
    const keepingLess = [
      { suffix: 'NoPageCache', label: 'no page cache', env: { PARAPH_LIST_CACHE_MB: '0' }, targeted: true },
      {
        suffix: 'NothingKept',
        label: 'nothing kept',
        env: { PARAPH_LIST_CACHE_MB: '0', PARAPH_DOCUMENT_CACHE_MB: '0' },
        targeted: false,
      },
    ];
    for (const variant of keepingLess.filter((entry) => keepingChosen(entry.suffix))) {
      await closeWhenSettled(app);
      app = await buildApp(loadConfig({ ...env, ...variant.env }), {
        handlers: { listSmartCards: async () => ({ data: [] }) },
        ...(pgSchema === undefined ? {} : { pgSchema }),
      });
      const variantOrigin = await listen(app);
      await measureTargets(
        routes
          .filter((target) => target.targeted || target.key === 'trivial')
          .map((target) => ({
            ...target,
            key: `${target.key}${variant.suffix}`,
            label: `${target.label}, ${variant.label}`,
            targeted: target.targeted && variant.targeted,
          })),
        variantOrigin,
      );
    }

    const p99Target = TARGET_P99_MS[documents] ?? 50;
    const verdict = (target: Target, result: Result, trivial: Result | undefined): Cell => {
      if (!target.targeted || trivial === undefined) return '';
      const misses = [
        result.requests.average < TARGET_SHARE_OF_TRIVIAL * trivial.requests.average
          ? `< ${TARGET_SHARE_OF_TRIVIAL * 100} %`
          : null,
        result.latency.p99 > p99Target ? `p99 > ${p99Target} ms` : null,
      ].filter((miss) => miss !== null);
      return misses.length === 0 ? 'met' : `missed (${misses.join(', ')})`;
    };
    const rows = results.map(({ target, result, firstMs, totalPages: pages, reference }) => [
      target.label,
      Math.round(result.requests.average),
      ms(result.latency.p50),
      ms(result.latency.p99),
      ms(Math.round(firstMs)),
      reference === undefined
        ? ''
        : `${Math.round((100 * result.requests.average) / reference.requests.average)} %`,
      verdict(target, result, reference),
      pages ?? '',
    ]);
    const metrics: Record<string, number> = {
      ...Object.fromEntries(Object.entries(counts).map(([key, value]) => [`${dialect}.${key}`, value])),
      [`${dialect}.seedSeconds`]: round(seeded.seedSeconds, 1),
      [`${dialect}.migrateSeconds`]: round(migrateSeconds, 1),
    };
    for (const { target, result, firstMs, reference } of results) {
      metrics[`${dialect}.${target.key}Rps`] = round(result.requests.average, 1);
      metrics[`${dialect}.${target.key}P50Ms`] = result.latency.p50;
      metrics[`${dialect}.${target.key}P99Ms`] = result.latency.p99;
      metrics[`${dialect}.${target.key}FirstMs`] = Math.round(firstMs);
      if (reference !== undefined && !target.key.startsWith('trivial'))
        metrics[`${dialect}.${target.key}ShareOfTrivial`] = round(
          result.requests.average / reference.requests.average,
          3,
        );
    }
    const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    return {
      table: {
        title: `${name}: requests against one server (bearer token on every request)`,
        columns: ['route', 'req/s', 'p50', 'p99', 'first request', 'of trivial req/s', 'target', 'pages'],
        rows,
      },
      metrics,
      notes: [
        `${name}: seeded ${counts.documents.toLocaleString('en-US')} documents (${counts.sharedDocuments.toLocaleString('en-US')} owned by colleagues with the user as participant, ${counts.archived.toLocaleString('en-US')} archived), ${counts.pages.toLocaleString('en-US')} page images, ${counts.signFlows.toLocaleString('en-US')} sign flows, ${counts.participants.toLocaleString('en-US')} participants in ${seeded.seedSeconds.toFixed(1)} s; starting the server (migration ${LIST_MIGRATION} building the list tables and the search index) took ${migrateSeconds.toFixed(1)} s${dialect === 'postgres' ? `, VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s` : ''}`,
      ],
      problems,
    };
  } finally {
    if (app !== null) await closeWhenSettled(app);
    if (databaseUrl !== null && pgSchema !== undefined) await dropPgSchema(databaseUrl, pgSchema);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function measure(documents: number, name: string): Promise<BenchResult> {
  const tables: Table[] = [];
  const metrics: Record<string, number> = {
    documents,
    connections: CONNECTIONS,
    durationSeconds: DURATION_SECONDS,
  };
  const notes: string[] = [];
  const problems: string[] = [];
  for (const dialect of (['sqlite', 'postgres'] as const).filter(dialectChosen)) {
    const cluster = dialect === 'postgres' ? startPgCluster() : null;
    if (dialect === 'postgres' && cluster === null) {
      notes.push(
        'PostgreSQL: not measured (no BENCH_DATABASE_URL, and no Debian postgresql package to start one)',
      );
      continue;
    }
    try {
      const run = await measureDialect(dialect, documents, cluster?.url ?? null);
      tables.push(run.table);
      Object.assign(metrics, run.metrics);
      notes.push(...run.notes);
      if (cluster !== null) notes.push(`PostgreSQL: ${cluster.description}`);
      problems.push(...run.problems);
    } finally {
      cluster?.stop();
    }
  }
  const p99Target = TARGET_P99_MS[documents] ?? 50;
  return {
    name,
    title: `autocannon, ${CONNECTIONS} connections x ${DURATION_SECONDS} s per route (after ${WARM_UP_SECONDS} s of warm-up), ${documents.toLocaleString('en-US')} documents`,
    tables,
    metrics,
    notes: [
      ...notes,
      'the trivial route is listSmartCards bound to a stub through buildApp({ handlers }): buildApp calls ready(), so no /bench route can be added',
      `"of trivial req/s": each route's requests per second as a share of the trivial route's of the same server, measured just before its routes; "target": at least ${TARGET_SHARE_OF_TRIVIAL * 100} % of it and p99 at most ${p99Target} ms`,
      '"first request": the request before the load, which finds nothing remembered (a search\'s count, where a deep page starts)',
      'autocannon measures latency in whole milliseconds',
    ],
    problems,
  };
}

export const apiBench: Bench = {
  name: 'api',
  title: 'GET /api/documents/active with 10,000 documents, SQLite and PostgreSQL',
  run: () => measure(Number(process.env.BENCH_API_DOCUMENTS ?? 10_000), 'api'),
};

export const apiLargeBench: Bench = {
  name: 'api-1m',
  // Half an hour: run when named, not with every benchmark.
  onlyWhenNamed: true,
  title: 'GET /api/documents/active with 1,000,000 documents, SQLite and PostgreSQL',
  run: () => measure(1_000_000, 'api-1m'),
};
