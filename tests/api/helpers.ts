// Builds a server for one test on a throwaway database (SQLite in a temp folder, or a schema of its own on
// PostgreSQL when TEST_DATABASE_URL is set), and checks response bodies against openapi/openapi.yaml.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { components } from '../../openapi/schema';
import { buildApp, type BuildOverrides } from '../../server/app.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { AppDeps, AuthUser } from '../../server/context.ts';
import { dropPgSchema, openMigratedDatabase } from '../../server/db/database.ts';
import type {
  DocumentState,
  ImagesState,
  ParticipantRole,
  ParticipantState,
  SignFlowState,
  SignFlowType,
} from '../../server/db/schema.ts';
import { loadContract } from '../../server/http/contract.ts';
import { TEST_CA_PASSPHRASE } from './deployment-pki-support.ts';
import { pooledRsaKey } from './key-pool.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

export type TestUser = AuthUser & { password: string };

export type TestApp = {
  app: FastifyInstance;
  deps: AppDeps;
  config: Config;
  // Everything the server logged so far (one JSON line per entry).
  logs(): string;
  createUser(input?: {
    email?: string;
    fullName?: string;
    password?: string;
    locale?: string;
  }): Promise<TestUser>;
  // Signs in through the real page and exchanges the cookie for a token, as the app does.
  signIn(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
};

export type TestAppOptions = {
  appDir?: string;
  clock?: () => Date;
  env?: Record<string, string>;
  handlers?: BuildOverrides['handlers'];
};

let hashedTestPassword: Promise<string> | null = null;

// On SQLite, each app starts from a copy of one database file migrated once per test process: migrating a
// fresh file took some 45 ms of CPU per app, its copy well under one. The server's start still runs the
// migrator (it finds nothing to do) and everything after it, secrets and keys included, per app.
let sqliteTemplate: Promise<string> | null = null;

function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-api-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const silent = { warn: () => undefined, debug: () => undefined };
    const opened = await openMigratedDatabase({ dataDir: dir, databaseUrl: null, log: silent });
    await opened.db.destroy();
    return path.join(dir, 'paraph.sqlite');
  })();
  return sqliteTemplate;
}

// On PostgreSQL, a closed app's schema is emptied and given to the next app of the same test process,
// instead of being dropped: creating, migrating and dropping one cost some 300 ms per app (a dozen
// connections, the migrator's locks and DDL, then the catalog's cleanup), emptying it a single TRUNCATE. The
// next app's start runs the migrator (it finds nothing to do) and everything after it, as on a new schema.
const emptiedPgSchemas = new Map<string, string[]>();

async function emptyPgSchema(databaseUrl: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    // Every table but the migrator's own: a migrated schema holds no other row before the server starts.
    // DELETE rather than TRUNCATE, which makes new files for every table and index (three times as long);
    // as a replica does, without the triggers and foreign keys, which only have other rows to remove.
    const found = await admin.query<{ tables: string[] | null; sequences: string[] | null }>(
      `SELECT
         (SELECT array_agg(tablename::text) FROM pg_tables WHERE schemaname = $1
            AND tablename NOT IN ('kysely_migration', 'kysely_migration_lock')) AS tables,
         (SELECT array_agg(sequencename::text) FROM pg_sequences WHERE schemaname = $1) AS sequences`,
      [schema],
    );
    const row = found.rows[0];
    await admin.query(
      [
        'BEGIN',
        'SET LOCAL session_replication_role = replica',
        ...(row?.tables ?? []).map((table) => `DELETE FROM "${schema}"."${table}"`),
        ...(row?.sequences ?? []).map((sequence) => `ALTER SEQUENCE "${schema}"."${sequence}" RESTART`),
        'COMMIT',
      ].join(';\n'),
    );
  } finally {
    await admin.end();
  }
}

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-api-'));
  const databaseUrl = process.env.TEST_DATABASE_URL?.trim() || null;
  if (databaseUrl === null && options.env?.DATABASE_URL === undefined) {
    await fs.copyFile(await migratedSqliteFile(), path.join(dataDir, 'paraph.sqlite'));
  }
  // A test may name a database of its own (options.env.DATABASE_URL): its schema is made for it, as before.
  const reusesPgSchema = databaseUrl !== null && options.env?.DATABASE_URL === undefined;
  const pgSchema =
    databaseUrl === null
      ? undefined
      : ((reusesPgSchema ? emptiedPgSchemas.get(databaseUrl)?.pop() : undefined) ??
        `t_${randomUUID().replaceAll('-', '')}`);
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_DEMO: '0',
    PARAPH_LOG_LEVEL: 'info',
    PARAPH_APP_DIR: options.appDir ?? path.join(dataDir, 'no-app-built'),
    // A fleet's database needs the passphrase its signing keys are sealed under (SQLite makes one up).
    ...(databaseUrl === null ? {} : { DATABASE_URL: databaseUrl, PARAPH_CA_PASSPHRASE: TEST_CA_PASSPHRASE }),
    ...options.env,
  });
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  const app = await buildApp(config, {
    logStream,
    generateKey: pooledRsaKey,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
    ...(pgSchema === undefined ? {} : { pgSchema }),
  });
  const deps = app.deps;

  async function createUser(
    input: { email?: string; fullName?: string; password?: string; locale?: string } = {},
  ): Promise<TestUser> {
    const id = randomUUID();
    const email = (input.email ?? `user-${id.slice(0, 8)}@example.test`).toLowerCase();
    const fullName = input.fullName ?? `User ${id.slice(0, 4)}`;
    const password = input.password ?? TEST_PASSWORD;
    hashedTestPassword ??= hashPassword(TEST_PASSWORD);
    const passwordHash = password === TEST_PASSWORD ? await hashedTestPassword : await hashPassword(password);
    await deps.db
      .insertInto('users')
      .values({
        id,
        email,
        full_name: fullName,
        initials: fullName
          .split(/\s+/)
          .map((part) => part[0] ?? '')
          .join('')
          .slice(0, 2)
          .toUpperCase(),
        password_hash: passwordHash,
        locale: input.locale ?? 'en',
        country_code: 'nl',
        location: '',
        welcome_screen_watched: 0,
        plan: 'basic',
        created_at: deps.clock().toISOString(),
        last_seen_at: null,
      })
      .execute();
    return { id, email, fullName, password };
  }

  async function signIn(email: string, password = TEST_PASSWORD): Promise<string> {
    const signInResponse = await app.inject({
      method: 'POST',
      url: '/sign_in',
      payload: new URLSearchParams({ email, password, return_to: '/app/auth' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (signInResponse.statusCode !== 303)
      throw new Error(`sign-in failed with ${signInResponse.statusCode}`);
    const cookie = signInResponse.cookies.find((entry) => entry.name === 'paraph_session');
    if (cookie === undefined) throw new Error('sign-in set no session cookie');
    const tokenResponse = await app.inject({
      method: 'GET',
      url: '/api/tokens',
      cookies: { paraph_session: cookie.value },
    });
    const body = tokenResponse.json<{ access_token?: string }>();
    if (tokenResponse.statusCode !== 200 || typeof body.access_token !== 'string') {
      throw new Error(`token exchange failed with ${tokenResponse.statusCode}`);
    }
    return body.access_token;
  }

  async function close(): Promise<void> {
    await app.close();
    if (databaseUrl !== null && pgSchema !== undefined) {
      if (reusesPgSchema) {
        await emptyPgSchema(databaseUrl, pgSchema);
        emptiedPgSchemas.set(databaseUrl, [...(emptiedPgSchemas.get(databaseUrl) ?? []), pgSchema]);
      } else {
        await dropPgSchema(databaseUrl, pgSchema);
      }
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  }

  return { app, deps, config, logs: () => lines.join(''), createUser, signIn, close };
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** `POST /api/upload_requests` as the app sends it; fails the test unless it answers 201. */
export async function postUploadRequest(
  t: TestApp,
  token: string,
): Promise<components['schemas']['UploadRequestResponse']> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/upload_requests',
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(201);
  return response.json<components['schemas']['UploadRequestResponse']>();
}

/** `POST /api/documents` for an upload stored under `upload.key`, as the app sends it. */
export function postCreateDocument(
  t: TestApp,
  token: string,
  upload: { url: string; key: string },
  originalFilename = 'a.pdf',
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/documents',
    headers: bearer(token),
    payload: {
      original_filename: originalFilename,
      file_url: `${upload.url}/${upload.key}`,
      filename: upload.key,
    },
  });
}

// ------------------------------------------------------------------ data made directly in the database

export type InsertDocumentInput = {
  ownerId: string;
  originalFilename?: string;
  state?: DocumentState;
  imagesState?: ImagesState;
  createdAt?: Date;
  autodeletionAt?: Date;
  fileSize?: number;
  pageCount?: number;
  signedFileKey?: string | null;
};

export async function insertDocument(deps: AppDeps, input: InsertDocumentInput): Promise<string> {
  const id = randomUUID();
  const createdAt = input.createdAt ?? deps.clock();
  await deps.db
    .insertInto('documents')
    .values({
      id,
      owner_id: input.ownerId,
      original_filename: input.originalFilename ?? `document-${id.slice(0, 8)}.pdf`,
      file_key: `documents/${id}/original.pdf`,
      file_size: input.fileSize ?? 12_345,
      sha256: '0'.repeat(64),
      page_count: input.pageCount ?? 1,
      state: input.state ?? 'uploaded',
      images_state: input.imagesState ?? 'ready',
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      autodeletion_at: (
        input.autodeletionAt ?? new Date(createdAt.getTime() + 365 * 86_400_000)
      ).toISOString(),
      signed_file_key: input.signedFileKey ?? null,
    })
    .execute();
  return id;
}

export type InsertParticipant = {
  role: ParticipantRole;
  email: string;
  userId?: string | null;
  state: ParticipantState;
};

export async function insertSignFlow(
  deps: AppDeps,
  documentId: string,
  input: { type?: SignFlowType; state: SignFlowState; participants: InsertParticipant[] },
): Promise<string> {
  const id = randomUUID();
  const now = deps.clock().toISOString();
  await deps.db
    .insertInto('sign_flows')
    .values({
      id,
      document_id: documentId,
      type: input.type ?? 'standard',
      comment: '',
      minimum_required_signs: 0,
      sign_page_number: 0,
      state: input.state,
      created_at: now,
      updated_at: now,
    })
    .execute();
  let position = 0;
  for (const participant of input.participants) {
    position += 1;
    await deps.db
      .insertInto('sign_flow_participants')
      .values({
        id: randomUUID(),
        sign_flow_id: id,
        role: participant.role,
        position,
        email: participant.email.toLowerCase(),
        user_id: participant.userId ?? null,
        state: participant.state,
        signed_at: participant.state === 'signed' ? now : null,
        refused_at: participant.state === 'refused' ? now : null,
        approved_at: participant.state === 'approved' ? now : null,
        rejected_at: participant.state === 'rejected' ? now : null,
        refuse_reason: null,
      })
      .execute();
  }
  return id;
}

export async function archiveFor(deps: AppDeps, documentId: string, userId: string): Promise<void> {
  await deps.db
    .insertInto('document_archives')
    .values({ document_id: documentId, user_id: userId, archived_at: deps.clock().toISOString() })
    .execute();
}

// ------------------------------------------------------------------ the contract

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const CONTRACT_ID = 'https://paraph.test/openapi.json';
let contractAjv: Ajv2020 | null = null;

function ajvForContract(): Ajv2020 {
  if (contractAjv !== null) return contractAjv;
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...(structuredClone(loadContract()) as JsonObject), $id: CONTRACT_ID });
  contractAjv = ajv;
  return ajv;
}

function pointerEscape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function resolveRef(document: JsonObject, ref: string): { node: unknown; pointer: string } {
  if (!ref.startsWith('#/')) throw new Error(`Unsupported $ref ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) ? node[segment] : undefined;
  }
  return { node, pointer: ref.slice(1) };
}

function findOperation(document: JsonObject, operationId: string): { node: JsonObject; pointer: string } {
  const paths = document.paths;
  if (!isObject(paths)) throw new Error('The contract has no paths');
  for (const [pathName, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (isObject(operation) && operation.operationId === operationId) {
        return { node: operation, pointer: `/paths/${pointerEscape(pathName)}/${method}` };
      }
    }
  }
  throw new Error(`No operation ${operationId} in openapi.yaml`);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map(
      (error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    )
    .join('\n');
}

// Ajv caches what it compiles by the schema object, and a `$ref` made afresh is a new object each time: one
// compiled validator per answer's schema instead (the fuzzing file alone checked a thousand answers).
const contractValidators = new Map<string, ReturnType<Ajv2020['compile']>>();

function contractValidator(schemaPointer: string): ReturnType<Ajv2020['compile']> {
  let validate = contractValidators.get(schemaPointer);
  if (validate === undefined) {
    validate = ajvForContract().compile({ $ref: `${CONTRACT_ID}#${schemaPointer}` });
    contractValidators.set(schemaPointer, validate);
  }
  return validate;
}

// Fails the test unless `status` is a declared answer of the operation and `body` matches its schema.
export function expectMatchesContract(operationId: string, status: number, body: unknown): void {
  const document = loadContract() as unknown as JsonObject;
  const operation = findOperation(document, operationId);
  const responses = operation.node.responses;
  const declared = isObject(responses) ? (responses[String(status)] ?? responses.default) : undefined;
  expect(declared, `${operationId} does not declare a ${status} answer`).toBeDefined();
  let response: unknown = declared;
  let pointer = `${operation.pointer}/responses/${isObject(responses) && String(status) in responses ? status : 'default'}`;
  while (isObject(response) && typeof response.$ref === 'string') {
    const resolved = resolveRef(document, response.$ref);
    response = resolved.node;
    pointer = resolved.pointer;
  }
  const content = isObject(response) ? response.content : undefined;
  if (!isObject(content)) {
    expect(
      body === undefined || body === '' || body === null,
      `${operationId} ${status} declares no body`,
    ).toBe(true);
    return;
  }
  const json = content['application/json'];
  if (!isObject(json) || json.schema === undefined) {
    expect(typeof body, `${operationId} ${status} is not JSON; expected text`).toBe('string');
    return;
  }
  const schemaPointer = `${pointer}/content/${pointerEscape('application/json')}/schema`;
  const validate = contractValidator(schemaPointer);
  const isValid = validate(body);
  expect(
    isValid,
    `${operationId} ${status} body does not match the contract:\n${describe(validate.errors)}\n${JSON.stringify(body, null, 2)}`,
  ).toBe(true);
}

/** Every file below `folder`, as sorted paths relative to it; none when it does not exist. */
export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

// A minimal built app for the tests that need /app/ to exist.
export async function makeFakeAppDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-dist-'));
  await fs.mkdir(path.join(dir, 'assets'));
  await fs.writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><title>Paraph</title><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>',
  );
  await fs.writeFile(path.join(dir, 'assets', 'index-abc123.js'), 'console.log("paraph");');
  await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}
