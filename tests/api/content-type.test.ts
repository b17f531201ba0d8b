// Bodies that are not JSON: every operation whose contract takes a JSON body refuses another media type
// with 415 and a missing body with 400, before anything is parsed or stored; operations without a body
// answer the same whatever is sent with them; the sign-in pages never fail on an odd body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, loadContract, type ContractOperation } from '../../server/http/contract.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';
import { multipartForm } from './storage-form.ts';
import { cardFor, fakeSigner, storedDocument, storedFiles, versionCount } from './signing-support.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Body = { payload?: string | Buffer; headers: Record<string, string> };

const OPERATIONS = apiOperations(loadContract());
// createVerification takes a PDF, as its body or in a form: its refusals are in verification.test.ts.
const JSON_OPERATIONS = OPERATIONS.filter(
  (operation) => operation.requestBody?.mediaTypes.includes('application/json') === true,
);
const BODYLESS_WRITES = OPERATIONS.filter(
  (operation) => operation.requestBody === null && operation.method !== 'GET',
);

const multipart = multipartForm([['sign_page_number', 'abc']]);
const STRAY_BODIES: Record<string, Body> = {
  'text/plain': { payload: 'hello', headers: { 'content-type': 'text/plain' } },
  form: {
    payload: 'sign_page_number=abc&location=Amsterdam',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
  multipart: { payload: multipart.payload, headers: multipart.headers },
  'xml without a parser': { payload: '<a/>', headers: { 'content-type': 'application/xml' } },
  'a body without a content type': { payload: '{"a":1}', headers: {} },
};

describe('request bodies and their media types', () => {
  let t: TestApp;
  let ada: TestUser;
  let adaToken: string;
  let documentId: string;
  let adaCard: string;

  beforeAll(async () => {
    t = await buildTestApp();
    t.deps.signer = fakeSigner();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    adaToken = await t.signIn(ada.email);
    adaCard = await cardFor(t.deps, ada.id);
    documentId = (await storedDocument(t.deps, { ownerId: ada.id, pages: 2 })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  const urlOf = (operation: ContractOperation): string =>
    `/api${operation.path.replaceAll('{id}', documentId)}`;

  async function call(operation: ContractOperation, body: Body, token: string | null = adaToken) {
    const response = await t.app.inject({
      method: operation.method as Method,
      url: urlOf(operation),
      headers: { ...body.headers, ...(token === null ? {} : bearer(token)) },
      ...(body.payload === undefined ? {} : { payload: body.payload }),
    });
    const json: unknown = response.body === '' ? undefined : response.json();
    expectMatchesContract(operation.operationId, response.statusCode, json);
    return { status: response.statusCode, json };
  }

  it('finds the JSON operations in the contract', () => {
    expect(JSON_OPERATIONS.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['createDocument', 'deleteDocuments', 'archiveDocuments', 'signDocument']),
    );
    for (const operation of JSON_OPERATIONS)
      expect(operation.requestBody?.mediaTypes).toEqual(['application/json']);
  });

  it.each(JSON_OPERATIONS.map((operation) => [operation.operationId, operation] as const))(
    '%s refuses every other media type with 415, and a missing body with 400',
    async (_name, operation) => {
      for (const [label, body] of Object.entries(STRAY_BODIES)) {
        const answer = await call(operation, body);
        expect({ label, ...answer }).toMatchObject({
          label,
          status: 415,
          json: { code: 'unsupported_media_type' },
        });
      }
      expect(await call(operation, { headers: {} })).toMatchObject({
        status: 400,
        json: { code: 'invalid_request' },
      });
      expect(
        await call(operation, { payload: '', headers: { 'content-type': 'application/json' } }),
      ).toMatchObject({ status: 400, json: { code: 'invalid_request' } });
      // Media type names are case-insensitive and may carry parameters: this one reaches validation.
      const withCharset = await call(operation, {
        payload: '{"unexpected": true}',
        headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      });
      expect([400, 422]).toContain(withCharset.status);
      // A stranger learns nothing from the body rules: the token is checked first.
      if (operation.requiresBearer) {
        expect(await call(operation, STRAY_BODIES['text/plain'] as Body, null)).toMatchObject({
          status: 401,
        });
      }
    },
  );

  it('a form-encoded sign request stores nothing and answers 415', async () => {
    const filesBefore = await storedFiles(t);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/documents/${documentId}/sign`,
      headers: { ...bearer(adaToken), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        smart_card_id: adaCard,
        location: 'Amsterdam',
        sign_page_number: 'abc',
      }).toString(),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
    expectMatchesContract('signDocument', 415, response.json());
    expect(await versionCount(t.deps)).toBe(0);
    expect(await storedFiles(t)).toEqual(filesBefore);
    const document = await t.deps.db
      .selectFrom('documents')
      .select('state')
      .where('id', '=', documentId)
      .executeTakeFirstOrThrow();
    expect(document.state).toBe('uploaded');
  });

  it('a text/plain createDocument answers 415 and one without a body 400', async () => {
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...bearer(adaToken), 'content-type': 'text/plain' },
      payload: '{"document":{}}',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toMatchObject({ code: 'unsupported_media_type' });
    const none = await t.app.inject({ method: 'POST', url: '/api/documents', headers: bearer(adaToken) });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'invalid_request' });
    expectMatchesContract('createDocument', 415, plain.json());
    expectMatchesContract('createDocument', 400, none.json());
    const documents = await t.deps.db.selectFrom('documents').select('id').execute();
    expect(documents).toEqual([{ id: documentId }]);
  });

  it.each(BODYLESS_WRITES.map((operation) => [operation.operationId, operation] as const))(
    '%s answers the same whatever body comes with it',
    async (_name, operation) => {
      // Read-only twins answer the same again; writes may change state, so each runs on a fresh
      // document and only the stray bodies are compared with each other.
      const answers: number[] = [];
      for (const body of [
        ...Object.values(STRAY_BODIES),
        { payload: '', headers: { 'content-type': 'application/json' } },
        { payload: 'not json', headers: { 'content-type': 'application/json' } },
      ]) {
        documentId = (await storedDocument(t.deps, { ownerId: ada.id, pages: 2 })).id;
        const answer = await call(operation, body);
        expect(answer.status).toBeLessThan(500);
        answers.push(answer.status);
      }
      documentId = (await storedDocument(t.deps, { ownerId: ada.id, pages: 2 })).id;
      const bare = await call(operation, { headers: {} });
      expect(answers).toEqual(answers.map(() => bare.status));
    },
  );

  // PostgreSQL text cannot hold U+0000: these answered 500 there before anything refused them.
  it('refuses NUL in an id (404), a query (400) and a body (400), storing nothing', async () => {
    const before = await t.deps.db.selectFrom('error_reports').select('id').execute();
    const byId = await t.app.inject({ url: `/api/documents/a%00b`, headers: bearer(adaToken) });
    expect(byId.statusCode).toBe(404);
    expectMatchesContract('getDocument', 404, byId.json());
    const byQuery = await t.app.inject({
      url: '/api/documents/active?search=a%00b',
      headers: bearer(adaToken),
    });
    expect(byQuery.statusCode).toBe(400);
    expect(byQuery.json()).toMatchObject({ code: 'invalid_request', field: 'search' });
    expectMatchesContract('listActiveDocuments', 400, byQuery.json());
    const byBody = await t.app.inject({
      method: 'POST',
      url: '/api/error_reports',
      payload: { message: 'broke\u0000here', url: '/app/documents' },
    });
    expect(byBody.statusCode).toBe(400);
    expect(byBody.json()).toMatchObject({ code: 'invalid_request', field: 'message' });
    expectMatchesContract('createErrorReport', 400, byBody.json());
    expect(await t.deps.db.selectFrom('error_reports').select('id').execute()).toEqual(before);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=ada%00%40example.test&password=x',
    });
    expect(signIn.statusCode).toBe(400);
  });

  describe('the sign-in and sign-up pages', () => {
    const pages = ['/sign_in', '/sign_up'];
    const bodies: Body[] = [
      {
        payload: JSON.stringify({ email: 'ada@example.test' }),
        headers: { 'content-type': 'application/json' },
      },
      { payload: 'email=ada', headers: { 'content-type': 'text/plain' } },
      { payload: multipart.payload, headers: multipart.headers },
      { payload: '', headers: { 'content-type': 'application/json' } },
      { headers: {} },
    ];
    it.each(pages)('POST %s never fails on an odd body', async (url) => {
      for (const body of bodies) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: body.headers,
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        });
        expect({ contentType: body.headers['content-type'], status: response.statusCode }).toMatchObject({
          status: expect.toSatisfy((status: number) => status >= 300 && status < 500),
        });
      }
    });
  });
});
