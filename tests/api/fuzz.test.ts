// Fuzzes every /api operation from openapi/openapi.yaml: requests built from each operation's schemas
// with fast-check (fixed seed, bounded runs), most of them broken on purpose: wrong types, odd and huge
// strings, stray media types, missing and extra parts, other people's and malformed ids. A signed-in
// person with documents, a sign flow, connections, requests, groups and a pending signature of their own,
// beside another person's, lets calls reach deep into the handlers. Every answer must be declared by the
// contract and below 500, and a 4xx must leave the database and the object store exactly as they were.
import crypto, { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens.ts';
import { apiOperations, loadContract, type ContractOperation } from '../../server/http/contract.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type InsertDocumentInput,
  postUploadRequest,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { cardFor, fakeSigner, signCall, SOLO_PLACEMENT } from './signing-support.ts';
import { multipartForm, postStorageForm, storageFormFields } from './storage-form.ts';
import { makePdf } from '../fixtures/pdfs.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: unknown };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type FuzzRequest = {
  label: string;
  method: Method;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

const RUNS_PER_OPERATION = 24;
const WORLDS_PER_SERVER = 9;
const SEED = 15_003;

const CONTRACT = loadContract() as unknown as Schema;
const OPERATIONS = apiOperations(loadContract());

// ------------------------------------------------------------------ the contract's schemas

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deref(node: unknown): Schema {
  let current = node;
  while (isObject(current) && typeof current.$ref === 'string') {
    let target: unknown = CONTRACT;
    for (const segment of current.$ref.slice(2).split('/'))
      target = isObject(target) ? target[segment] : undefined;
    current = target;
  }
  return isObject(current) ? current : {};
}

function operationNode(operation: ContractOperation): Schema {
  const paths = CONTRACT.paths as Schema;
  return deref((paths[operation.path] as Schema)[operation.method.toLowerCase()]);
}

function bodySchema(operation: ContractOperation): Schema | null {
  const body = deref(operationNode(operation).requestBody);
  const content = isObject(body.content) ? body.content : null;
  const json = content !== null ? content['application/json'] : undefined;
  return isObject(json) ? deref(json.schema) : null;
}

function queryParameters(operation: ContractOperation): { name: string; schema: Schema }[] {
  const parameters = operationNode(operation).parameters;
  if (!Array.isArray(parameters)) return [];
  return parameters
    .map((parameter) => deref(parameter))
    .filter((parameter) => parameter.in === 'query')
    .map((parameter) => ({ name: String(parameter.name), schema: deref(parameter.schema) }));
}

// ------------------------------------------------------------------ values

// Ids and addresses that exist, so that generated values reach past "not found" into the handlers.
type Pools = { uuids: string[]; emails: string[]; byName: Record<string, string[]> };

const ODD_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\u202Eevil.pdf',
  '🙂'.repeat(300),
  'é'.normalize('NFD'),
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../etc/passwd',
  '%00%2e%2e%2f',
  '\r\nSet-Cookie: x=1',
  'x'.repeat(100_000),
  '1e309',
  'null',
];

const WRONG_TYPES: Json[] = [null, true, 0, -1, 1.5, 2 ** 53 + 1, 1e308, [], {}, [null], { a: 1 }, 'abc'];

function valid(node: unknown, pools: Pools, name = ''): fc.Arbitrary<Json> {
  const schema = deref(node);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((entry) => valid(entry, pools, name)));
  const named = pools.byName[name];
  const withNamed = (arbitrary: fc.Arbitrary<Json>): fc.Arbitrary<Json> =>
    named === undefined
      ? arbitrary
      : fc.oneof({ arbitrary: fc.constantFrom(...named), weight: 3 }, arbitrary);
  switch (schema.type) {
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, valid(value, pools, key)]),
      );
      const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
      return fc
        .record(model, { requiredKeys: required })
        .filter((value) => Object.keys(value).length >= minProperties) as fc.Arbitrary<Json>;
    }
    case 'array': {
      const items = valid(schema.items, pools, name);
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.max(
        minLength,
        Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 4),
      );
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (value) => JSON.stringify(value) })
        : fc.array(items, { minLength, maxLength });
    }
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -5;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 20) : min + 20;
      return fc.integer({ min, max });
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'string': {
      if (schema.format === 'uuid') return withNamed(fc.oneof(fc.constantFrom(...pools.uuids), fc.uuid()));
      if (schema.format === 'email') {
        return withNamed(fc.oneof(fc.constantFrom(...pools.emails), fc.emailAddress()));
      }
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 40, 40);
      return withNamed(fc.string({ minLength, maxLength, unit: 'grapheme' }));
    }
    default:
      return fc.jsonValue() as fc.Arbitrary<Json>;
  }
}

// Every place in a value where a mutation can land: the root, each property and each item.
function placesIn(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(...value.map((item, index) => placesIn(item, [...at, index])));
  if (isObject(value)) {
    return here.concat(...Object.entries(value).map(([key, item]) => placesIn(item as Json, [...at, key])));
  }
  return here;
}

function replaced(value: Json, at: (string | number)[], change: (old: Json) => Json | undefined): Json {
  if (at.length === 0) return change(value) ?? null;
  const [head, ...rest] = at;
  if (Array.isArray(value)) {
    const copy = [...value];
    const next = replaced(copy[head as number] as Json, rest, change);
    copy[head as number] = next;
    return copy;
  }
  if (isObject(value)) {
    const copy: { [key: string]: Json } = { ...(value as { [key: string]: Json }) };
    if (rest.length === 0) {
      const next = change(copy[head as string] as Json);
      if (next === undefined) delete copy[head as string];
      else copy[head as string] = next;
    } else {
      copy[head as string] = replaced(copy[head as string] as Json, rest, change);
    }
    return copy;
  }
  return value;
}

type Mutation = { label: string; value: Json };

function broken(value: Json): fc.Arbitrary<Mutation> {
  const places = placesIn(value);
  const objects = places.filter((at) => {
    let node: unknown = value;
    for (const step of at) node = (node as Record<string | number, unknown>)[step];
    return isObject(node);
  });
  const arbitraries: fc.Arbitrary<Mutation>[] = [
    fc.tuple(fc.constantFrom(...places), fc.constantFrom(...WRONG_TYPES)).map(([at, wrong]) => ({
      label: `wrong type at ${at.join('.') || '(root)'}`,
      value: replaced(value, at, () => wrong),
    })),
    fc.tuple(fc.constantFrom(...places), fc.constantFrom(...ODD_STRINGS)).map(([at, odd]) => ({
      label: `odd string (${odd.length} chars) at ${at.join('.') || '(root)'}`,
      value: replaced(value, at, () => odd),
    })),
    fc.tuple(fc.constantFrom(...places), fc.string({ unit: 'binary', maxLength: 64 })).map(([at, text]) => ({
      label: `unicode at ${at.join('.') || '(root)'}`,
      value: replaced(value, at, () => text),
    })),
  ];
  const properties = places.filter((at) => typeof at[at.length - 1] === 'string');
  if (properties.length > 0) {
    arbitraries.push(
      fc.constantFrom(...properties).map((at) => ({
        label: `missing ${at.join('.')}`,
        value: replaced(value, at, () => undefined),
      })),
    );
  }
  if (objects.length > 0) {
    arbitraries.push(
      fc.constantFrom(...objects).map((at) => ({
        label: `extra property at ${at.join('.') || '(root)'}`,
        value: replaced(value, at, (old) => ({ ...(old as { [key: string]: Json }), unexpected_field: 1 })),
      })),
    );
  }
  return fc.oneof(...arbitraries);
}

// ------------------------------------------------------------------ requests

type Body = { label: string; headers: Record<string, string>; payload?: string | Buffer };

const RAW_JSON = [
  '{',
  'null',
  '[]',
  '"text"',
  '1e999',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
];

function formOf(value: Json): string {
  const entries = isObject(value) ? Object.entries(value) : [['value', value]];
  return new URLSearchParams(
    entries.map(([key, item]) => [String(key), typeof item === 'string' ? item : JSON.stringify(item)]),
  ).toString();
}

function strayEncodings(value: Json): Body[] {
  const text = JSON.stringify(value);
  const form = multipartForm(
    (isObject(value) ? Object.entries(value) : [['value', value]]).map(
      ([key, item]) =>
        [String(key), typeof item === 'string' ? item : JSON.stringify(item)] as [string, string],
    ),
  );
  return [
    { label: 'JSON as text/plain', headers: { 'content-type': 'text/plain' }, payload: text },
    {
      label: 'form-encoded',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: formOf(value),
    },
    { label: 'multipart', headers: form.headers, payload: form.payload },
    { label: 'JSON without a content type', headers: {}, payload: text },
    { label: 'no body', headers: {} },
  ];
}

function bodies(operation: ContractOperation, pools: Pools): fc.Arbitrary<Body> {
  const schema = bodySchema(operation);
  if (schema === null) {
    // Operations without a body get stray ones now and then; the gate discards them.
    return fc.oneof(
      { arbitrary: fc.constant<Body>({ label: 'no body', headers: {} }), weight: 4 },
      { arbitrary: fc.constantFrom(...strayEncodings({ junk: 'x'.repeat(2000) })), weight: 1 },
    );
  }
  const json = (label: string) => (value: Json) => ({
    label,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(value),
  });
  const values = valid(schema, pools);
  return fc.oneof(
    { arbitrary: values.map(json('valid')), weight: 3 },
    {
      arbitrary: values
        .chain((value) => broken(value))
        .map((mutation) => json(mutation.label)(mutation.value)),
      weight: 8,
    },
    { arbitrary: values.chain((value) => fc.constantFrom(...strayEncodings(value))), weight: 2 },
    {
      arbitrary: fc.constantFrom(...RAW_JSON).map((raw) => ({
        label: `raw JSON ${raw.slice(0, 20)}`,
        headers: { 'content-type': 'application/json' },
        payload: raw,
      })),
      weight: 1,
    },
  );
}

const BAD_IDS = [
  'not-an-id',
  '0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(5000),
  '🙂',
  '%00',
  '..',
  "' OR 1=1 --",
];

function pathIds(operation: ContractOperation, own: string[], others: string[]): fc.Arbitrary<string> {
  if (!operation.path.includes('{id}')) return fc.constant('');
  return fc.oneof(
    { arbitrary: fc.constantFrom(...own), weight: 6 },
    { arbitrary: fc.constantFrom(...others), weight: 2 },
    { arbitrary: fc.constantFrom(...BAD_IDS).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent), weight: 1 },
    // Malformed percent-encoding, sent as is.
    { arbitrary: fc.constant('%E0%A4%A'), weight: 1 },
  );
}

function queries(operation: ContractOperation, pools: Pools): fc.Arbitrary<string> {
  const parameters = queryParameters(operation);
  if (parameters.length === 0) {
    return fc.oneof({ arbitrary: fc.constant(''), weight: 5 }, fc.constant('unexpected=1'));
  }
  const oddValue = fc.oneof(
    fc.constantFrom(...ODD_STRINGS.filter((odd) => odd.length < 10_000)),
    fc.constantFrom('abc', '-1', '0', '1e99', '99999999999999999999', '[]', 'true'),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );
  const entry = (parameter: { name: string; schema: Schema }) =>
    fc.oneof(
      {
        arbitrary: valid(parameter.schema, pools, parameter.name).map((value) => [String(value)]),
        weight: 3,
      },
      { arbitrary: oddValue.map((value) => [value]), weight: 2 },
      { arbitrary: fc.tuple(oddValue, oddValue).map(([a, b]) => [a, b]), weight: 1 },
    );
  return fc
    .tuple(
      ...parameters.map((parameter) =>
        fc.option(entry(parameter).map((values) => values.map((value) => [parameter.name, value]))),
      ),
    )
    .map((chosen) =>
      new URLSearchParams(chosen.flatMap((entries) => entries ?? []) as [string, string][]).toString(),
    );
}

// ------------------------------------------------------------------ the state that must not move

type Snapshot = { database: string; files: string };
type RowLine = { line: string };

// Bookkeeping that a refused call may move on purpose, left out of the comparison:
// - users.last_seen_at: the bearer check records when a person was last seen, whatever the answer;
// - rate_limit_events, address_rate_limit_events and sign_in_attempts: an attempt counts against a limit
//   whether it succeeds or not, which is what stops someone from trying bad input in bulk.
const MOVING_TABLES = new Set(['rate_limit_events', 'address_rate_limit_events', 'sign_in_attempts']);
const MOVING_COLUMNS: Record<string, string[]> = { users: ['last_seen_at'] };

/**
 * Every row of every table but the moving ones, as one statement: each row becomes a line of its table's
 * name and its values as SQL literals (`quote` on SQLite, `quote_nullable` on PostgreSQL: exact for text,
 * numbers and bytes alike). A snapshot after each of a thousand calls read some forty tables one query at a
 * time, a round trip each on PostgreSQL.
 */
async function snapshotStatement(t: TestApp): Promise<RawBuilder<RowLine>> {
  const postgres = t.config.databaseUrl !== null;
  // PostgreSQL's introspection lists every schema's tables: the test app's schema is first on its path, so
  // an unqualified name reads its own, and a name is read once.
  const tables = new Map((await t.deps.db.introspection.getTables()).map((table) => [table.name, table]));
  const selects = [...tables.values()]
    .filter((table) => !MOVING_TABLES.has(table.name))
    .map((table) => {
      const values = table.columns
        .filter((column) => !(MOVING_COLUMNS[table.name] ?? []).includes(column.name))
        .map((column) => {
          const name = `"${column.name.replaceAll('"', '""')}"`;
          return postgres ? `quote_nullable(${name}::text)` : `quote(${name})`;
        });
      const tableName = `'${table.name.replaceAll("'", "''")}'`;
      return `SELECT ${[tableName, ...values].join(" || ',' || ")} AS line FROM "${table.name.replaceAll('"', '""')}"`;
    });
  const order = postgres ? 'ORDER BY line COLLATE "C"' : 'ORDER BY line';
  return sql<RowLine>`${sql.raw(`SELECT line FROM (${selects.join(' UNION ALL ')}) AS rows ${order}`)}`;
}

async function snapshot(t: TestApp, statement: RawBuilder<RowLine>): Promise<Snapshot> {
  const { rows } = await statement.execute(t.deps.db);
  const database = crypto.createHash('sha256');
  for (const { line } of rows) database.update(`${line}\n`);
  // Synchronous on purpose: hundreds of stats through the thread pool made each snapshot ten times slower.
  const root = t.config.dataDir;
  const files: string[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    // The database's own files change with every transaction's bookkeeping: its rows are compared above.
    if (!entry.isFile() || entry.name.startsWith('paraph.sqlite')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat !== undefined) files.push(`${path.relative(root, file)} ${stat.size} ${stat.mtimeMs}`);
  }
  return { database: database.digest('hex'), files: files.sort().join('\n') };
}

function describeFiles(before: string, after: string): string {
  const was = new Set(before.split('\n'));
  const is = new Set(after.split('\n'));
  const gone = [...was].filter((line) => !is.has(line));
  const added = [...is].filter((line) => !was.has(line));
  return `files gone: ${gone.join(', ') || '-'}; files added: ${added.join(', ') || '-'}`;
}

function shortened(text: string, length = 300): string {
  return text.length <= length ? text : `${text.slice(0, length)}… (${text.length} chars)`;
}

// ------------------------------------------------------------------ the test

describe('fuzzing every /api operation from the contract', () => {
  let t: TestApp;
  let isStarted = false;
  let worldsOnServer = 0;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let adaCard: string;
  let bobCard: string;
  let now: Date;
  let everyRow: RawBuilder<RowLine>;

  let pdf: Buffer;

  beforeAll(async () => {
    pdf = await makePdf({ pages: 2 });
  });

  afterAll(async () => {
    if (isStarted) await t.close();
  });

  // A server serves a few operations, each with a world of its own, so that a call that succeeds (a
  // delete) does not starve the next operation of something to reach. A server for each operation cost
  // more than its snapshots saved; one for all made the last snapshots read every world's rows.
  async function start(): Promise<void> {
    if (isStarted) await t.close();
    worldsOnServer = 0;
    now = new Date('2025-06-02T09:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
    t.deps.signer = fakeSigner();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    dave = await t.createUser({ email: 'dave@example.test', fullName: 'Dave Dunn' });
    adaCard = await cardFor(t.deps, ada.id);
    bobCard = await cardFor(t.deps, bob.id);
    everyRow = await snapshotStatement(t);
    isStarted = true;
  }

  async function storedDocument(input: InsertDocumentInput): Promise<string> {
    const id = await insertDocument(t.deps, { pageCount: 2, ...input });
    const row = await t.deps.db
      .selectFrom('documents')
      .select('file_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await t.deps.store.put(row.file_key, pdf, 'application/pdf');
    const sha256 = crypto.createHash('sha256').update(pdf).digest('hex');
    await t.deps.db
      .updateTable('documents')
      .set({ sha256, file_size: pdf.length })
      .where('id', '=', id)
      .execute();
    return id;
  }

  async function connect(first: string, second: string): Promise<string> {
    const id = randomUUID();
    await t.deps.db
      .insertInto('connections')
      .values({ id, user_a_id: first, user_b_id: second, created_at: now.toISOString() })
      .execute();
    return id;
  }

  async function connectionRequest(from: string, to: TestUser): Promise<string> {
    const id = randomUUID();
    await t.deps.db
      .insertInto('connection_requests')
      .values({
        id,
        from_user_id: from,
        to_user_id: to.id,
        invitation_email: null,
        pair_key: [from, to.id].sort().join(':'),
        created_at: now.toISOString(),
      })
      .execute();
    return id;
  }

  async function signGroup(ownerId: string, members: string[]): Promise<string> {
    const id = randomUUID();
    await t.deps.db
      .insertInto('sign_groups')
      .values({ id, owner_id: ownerId, description: 'Board', created_at: now.toISOString() })
      .execute();
    for (const [position, userId] of members.entries()) {
      await t.deps.db
        .insertInto('sign_group_members')
        .values({ group_id: id, user_id: userId, position })
        .execute();
    }
    return id;
  }

  async function world(operation: ContractOperation) {
    if (!isStarted || worldsOnServer >= WORLDS_PER_SERVER) await start();
    worldsOnServer += 1;
    // Limits start afresh, and two people are connected (or asked to be) once only.
    await t.deps.db.deleteFrom('rate_limit_events').execute();
    await t.deps.db.deleteFrom('connections').execute();
    await t.deps.db.deleteFrom('connection_requests').execute();
    const token = (await issueAccessToken(t.deps.db, ada.id, null, now)).token;
    const own = () => storedDocument({ ownerId: ada.id });
    const docOwn = await own();
    const docOwnFlow = await own();
    await t.deps.db
      .updateTable('documents')
      .set({ state: 'awaiting_signs' })
      .where('id', '=', docOwnFlow)
      .execute();
    await insertSignFlow(t.deps, docOwnFlow, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    const docToSign = await storedDocument({ ownerId: bob.id, state: 'awaiting_signs' });
    await insertSignFlow(t.deps, docToSign, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: ada.email, userId: ada.id, state: 'pending' }],
    });
    const docToReview = await storedDocument({ ownerId: bob.id, state: 'in_review' });
    await insertSignFlow(t.deps, docToReview, {
      state: 'in_review',
      participants: [
        { role: 'reviewer', email: ada.email, userId: ada.id, state: 'pending' },
        { role: 'signatory', email: carol.email, userId: carol.id, state: 'waiting' },
      ],
    });
    const docOther = await storedDocument({ ownerId: bob.id });
    const inviteId = randomUUID();
    await t.deps.db
      .insertInto('invites')
      .values({
        id: inviteId,
        email: ada.email,
        document_id: docToSign,
        sign_flow_id: null,
        created_at: now.toISOString(),
        accepted_at: null,
        accepted_by: null,
      })
      .execute();
    const connectionOwn = await connect(ada.id, bob.id);
    const connectionOther = await connect(bob.id, carol.id);
    const requestIncoming = await connectionRequest(dave.id, ada);
    const requestOther = await connectionRequest(dave.id, carol);
    const groupOwn = await signGroup(ada.id, [bob.id]);
    const groupOther = await signGroup(bob.id, [carol.id]);

    const byName: Record<string, string[]> = {
      smart_card_id: [adaCard, bobCard],
      invite_id: [inviteId],
      to: [bob.id, carol.id, dave.id, ada.id],
      pseudonyms: [bob.id, carol.id],
      id: [docOwn, docOwnFlow, docToSign, docToReview, docOther],
      location: ['Amsterdam'],
      url: ['/app/documents'],
    };
    const ids: Record<string, { own: string[]; others: string[] }> = {
      documents: { own: [docOwn, docOwnFlow, docToSign, docToReview], others: [docOther] },
      connections: { own: [connectionOwn], others: [connectionOther] },
      connection_requests: { own: [requestIncoming], others: [requestOther] },
      sign_groups: { own: [groupOwn], others: [groupOther] },
      document_versions: { own: [], others: [docOwn] },
    };
    if (operation.path.startsWith('/document_versions/')) {
      const signed = await own();
      const response = await signCall(t, token, signed, {
        smart_card_id: adaCard,
        location: 'Amsterdam',
        ...SOLO_PLACEMENT,
      });
      expect(response.statusCode, response.body).toBe(200);
      ids.document_versions?.own.push(response.json<{ data: { id: string } }>().data.id);
    }
    if (operation.operationId === 'createDocument') {
      const upload = (await postUploadRequest(t, token)).data.attributes;
      const stored = await postStorageForm(t.app, upload.url, [
        ...storageFormFields(upload),
        ['file', await makePdf({ pages: 1 }), 'upload.pdf'],
      ]);
      expect(stored.statusCode).toBe(201);
      byName.filename = [upload.key];
      byName.file_url = [`${upload.url}/${upload.key}`];
      byName.original_filename = ['Contract.pdf'];
    }
    const kind = operation.path.split('/')[1] ?? '';
    const pools: Pools = {
      uuids: [
        ...Object.values(ids).flatMap((entry) => [...entry.own, ...entry.others]),
        bob.id,
        carol.id,
        inviteId,
      ],
      emails: [ada.email, bob.email, carol.email, dave.email, 'newcomer@example.test'],
      byName,
    };
    return { token, pools, ids: ids[kind] ?? { own: [docOwn], others: [docOther] } };
  }

  it.each(OPERATIONS.map((operation, index) => [operation.operationId, operation, index] as const))(
    '%s: no 5xx, answers from the contract, and a 4xx changes nothing',
    async (_name, operation, index) => {
      const { token, pools, ids } = await world(operation);
      await fuzz(operation, index, token, pools, ids);
    },
  );

  async function fuzz(
    operation: ContractOperation,
    index: number,
    token: string,
    pools: Pools,
    ids: { own: string[]; others: string[] },
  ): Promise<void> {
    const requests = fc.sample(
      fc
        .record({
          auth: fc.constantFrom('own', 'own', 'own', 'own', 'own', 'none', 'garbage'),
          id: pathIds(operation, ids.own.length > 0 ? ids.own : ids.others, ids.others),
          query: queries(operation, pools),
          body: bodies(operation, pools),
        })
        .map(({ auth, id, query, body }): FuzzRequest => {
          const url = `/api${operation.path.replaceAll('{id}', id)}${query === '' ? '' : `?${query}`}`;
          const authorization =
            auth === 'own'
              ? bearer(token)
              : auth === 'garbage'
                ? { authorization: 'Bearer not-a-token' }
                : {};
          return {
            label: `${body.label}; auth ${auth}`,
            method: operation.method as Method,
            url,
            headers: { ...body.headers, ...authorization },
            ...(body.payload === undefined ? {} : { payload: body.payload }),
          };
        }),
      { seed: SEED + index, numRuns: RUNS_PER_OPERATION },
    );

    const failures: string[] = [];
    let before = await snapshot(t, everyRow);
    for (const request of requests) {
      now = new Date(now.getTime() + 1000);
      const logged = t.logs().length;
      const response = await t.app.inject(request);
      const after = await snapshot(t, everyRow);
      const problems: string[] = [];
      if (response.statusCode >= 500) {
        const errors = t
          .logs()
          .slice(logged)
          .split('\n')
          .filter((line) => line.includes('"level":50'))
          .map((line) =>
            shortened(String((JSON.parse(line) as { err?: { stack?: string } }).err?.stack), 400),
          );
        problems.push(`answered 5xx (${errors.join(' | ') || 'nothing logged'})`);
      }
      let body: unknown = response.body;
      try {
        body = response.body === '' ? undefined : response.json();
      } catch {
        // Not JSON (a redirect's empty text, say): the contract check below says whether that is right.
      }
      try {
        expectMatchesContract(operation.operationId, response.statusCode, body);
      } catch (error) {
        problems.push(
          `not in the contract: ${shortened(error instanceof Error ? error.message : String(error), 400)}`,
        );
      }
      if (response.statusCode >= 400 && response.statusCode < 500) {
        if (after.database !== before.database) problems.push('a 4xx changed the database');
        if (after.files !== before.files)
          problems.push(`a 4xx changed the store (${describeFiles(before.files, after.files)})`);
      }
      if (problems.length > 0) {
        const payload = request.payload === undefined ? '' : shortened(request.payload.toString(), 200);
        failures.push(
          `${operation.operationId} [${request.label}] ${request.method} ${shortened(request.url, 160)} ` +
            `${request.headers['content-type'] ?? '(no content type)'} ${payload}\n` +
            `  -> ${response.statusCode} ${shortened(response.body, 200)}\n  ${problems.join('; ')}`,
        );
      }
      before = after;
    }
    expect(failures, `\n${failures.join('\n')}\n`).toEqual([]);
  }
});
