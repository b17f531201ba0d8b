// Who may call the sign pipeline's operations: without a token nobody; the sign call only whoever
// the lifecycle lets sign now (the owner of a document without a flow, a signatory whose turn it is);
// someone who cannot see the document gets 404, a participant who may not sign 409; a version is read by
// its signer only. A refused call records nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';
import { cardFor, fakeSigner, SOLO_PLACEMENT, storedDocument, versionCount } from './signing-support.ts';

type Role = 'owner' | 'reviewer' | 'signatory' | 'stranger';
type Fixture = 'uploaded' | 'in_review' | 'awaiting_signs' | 'signed';

const EXPECTED: Record<Fixture, Record<Role, number>> = {
  uploaded: { owner: 200, reviewer: 404, signatory: 404, stranger: 404 },
  in_review: { owner: 409, reviewer: 409, signatory: 409, stranger: 404 },
  awaiting_signs: { owner: 409, reviewer: 409, signatory: 200, stranger: 404 },
  signed: { owner: 409, reviewer: 409, signatory: 409, stranger: 404 },
};

describe('access to the sign pipeline', () => {
  let t: TestApp;
  const people = {} as Record<Role, TestUser & { token: string; card: string }>;

  beforeAll(async () => {
    t = await buildTestApp();
    t.deps.signer = fakeSigner();
    for (const role of ['owner', 'reviewer', 'signatory', 'stranger'] as const) {
      const user = await t.createUser({ email: `${role}@example.test` });
      people[role] = { ...user, token: await t.signIn(user.email), card: await cardFor(t.deps, user.id) };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function fixture(kind: Fixture): Promise<string> {
    const { id } = await storedDocument(t.deps, {
      ownerId: people.owner.id,
      state: kind,
      signedFileKey: null,
    });
    if (kind === 'uploaded') return id;
    await insertSignFlow(t.deps, id, {
      state: kind,
      participants: [
        {
          role: 'reviewer',
          email: people.reviewer.email,
          userId: people.reviewer.id,
          state: kind === 'in_review' ? 'pending' : 'approved',
        },
        {
          role: 'signatory',
          email: people.signatory.email,
          userId: people.signatory.id,
          state: kind === 'in_review' ? 'waiting' : kind === 'signed' ? 'signed' : 'pending',
        },
      ],
    });
    return id;
  }

  it('needs a token for every operation', async () => {
    const id = crypto.randomUUID();
    const calls = [
      { operationId: 'listSmartCards', method: 'GET' as const, url: '/api/smart_cards' },
      { operationId: 'signDocument', method: 'PATCH' as const, url: `/api/documents/${id}/sign` },
      { operationId: 'getDocumentVersion', method: 'GET' as const, url: `/api/document_versions/${id}` },
    ];
    for (const call of calls) {
      const response = await t.app.inject({
        method: call.method,
        url: call.url,
        ...(call.method === 'PATCH' ? { payload: { smart_card_id: id, location: 'Paris' } } : {}),
      });
      expect(response.statusCode, call.operationId).toBe(401);
      expectMatchesContract(call.operationId, 401, response.json());
    }
  });

  for (const kind of Object.keys(EXPECTED) as Fixture[]) {
    for (const role of ['owner', 'reviewer', 'signatory', 'stranger'] as const) {
      it(`sign call on a ${kind} document by the ${role}: ${EXPECTED[kind][role]}`, async () => {
        const id = await fixture(kind);
        const before = await versionCount(t.deps);
        const person = people[role];
        const response = await t.app.inject({
          method: 'PATCH',
          url: `/api/documents/${id}/sign`,
          headers: bearer(person.token),
          payload: { smart_card_id: person.card, location: 'Paris', ...SOLO_PLACEMENT },
        });
        const status = EXPECTED[kind][role];
        expect(response.statusCode, response.body).toBe(status);
        expectMatchesContract('signDocument', status, response.json());
        expect(await versionCount(t.deps)).toBe(before + (status === 200 ? 1 : 0));
        if (status === 200) {
          const versionId = response.json<{ data: { id: string } }>().data.id;
          for (const reader of ['owner', 'reviewer', 'signatory', 'stranger'] as const) {
            const read = await t.app.inject({
              url: `/api/document_versions/${versionId}`,
              headers: bearer(people[reader].token),
            });
            expect(read.statusCode, reader).toBe(reader === role ? 200 : 404);
            expectMatchesContract('getDocumentVersion', read.statusCode, read.json());
          }
        }
      });
    }
  }
});
