// The seven lists and the permission flags come from one rule set (server/documents/permissions.ts and its
// SQL twin in list-query.ts). These tests build one document per situation and check both agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentState } from '../../server/db/schema.ts';
import {
  isInCategory,
  type DocumentCategory,
  type DocumentPermissions,
} from '../../server/documents/permissions.ts';
import {
  archiveFor,
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type InsertParticipant,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type Attributes = DocumentPermissions & { originalFilename: string; state: DocumentState };
type ListBody = { data: { id: string; attributes: Attributes }[] };

const OPERATIONS: Record<DocumentCategory, string> = {
  active: 'listActiveDocuments',
  to_do: 'listToDoDocuments',
  in_progress: 'listInProgressDocuments',
  uploaded: 'listUploadedDocuments',
  done: 'listDoneDocuments',
  failed: 'listFailedDocuments',
  archived: 'listArchivedDocuments',
};

describe('document categories and permission flags', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let token: string;
  const names = new Map<string, string>();

  async function make(
    name: string,
    owner: TestUser,
    state: DocumentState,
    participants: ((ada: TestUser, bob: TestUser) => InsertParticipant[]) | null,
    options: { archivedByAda?: boolean } = {},
  ): Promise<void> {
    const id = await insertDocument(t.deps, { ownerId: owner.id, originalFilename: `${name}.pdf`, state });
    names.set(id, name);
    if (participants !== null) {
      const flowState = state === 'uploaded' || state === 'error' ? 'cancelled' : state;
      await insertSignFlow(t.deps, id, {
        state: flowState === 'signing' ? 'awaiting_signs' : flowState,
        participants: participants(ada, bob),
      });
    }
    if (options.archivedByAda === true) await archiveFor(t.deps, id, ada.id);
  }

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    token = await t.signIn(ada.email);

    await make('own-uploaded', ada, 'uploaded', null);
    await make('own-review-waiting', ada, 'in_review', (_a, b) => [
      { role: 'reviewer', email: b.email, userId: b.id, state: 'pending' },
    ]);
    await make('review-for-ada', bob, 'in_review', (a) => [
      { role: 'reviewer', email: a.email, userId: a.id, state: 'pending' },
    ]);
    await make('reviewed-by-ada', bob, 'in_review', (a, b) => [
      { role: 'reviewer', email: a.email, userId: a.id, state: 'approved' },
      { role: 'reviewer', email: b.email, userId: b.id, state: 'pending' },
    ]);
    await make('sign-for-ada', bob, 'awaiting_signs', (a) => [
      { role: 'signatory', email: a.email, userId: a.id, state: 'pending' },
    ]);
    await make('ada-signed-waits', bob, 'awaiting_signs', (a, b) => [
      { role: 'signatory', email: a.email, userId: a.id, state: 'signed' },
      { role: 'signatory', email: b.email, userId: b.id, state: 'pending' },
    ]);
    await make('ada-not-yet-her-turn', bob, 'awaiting_signs', (a, b) => [
      { role: 'signatory', email: b.email, userId: b.id, state: 'pending' },
      { role: 'signatory', email: a.email, userId: a.id, state: 'waiting' },
    ]);
    await make('own-awaiting', ada, 'awaiting_signs', (_a, b) => [
      { role: 'signatory', email: b.email, userId: b.id, state: 'pending' },
    ]);
    await make('own-signing', ada, 'signing', (_a, b) => [
      { role: 'signatory', email: b.email, userId: b.id, state: 'pending' },
    ]);
    await make('own-signed', ada, 'signed', (_a, b) => [
      { role: 'signatory', email: b.email, userId: b.id, state: 'signed' },
    ]);
    await make('refused', bob, 'refused', (a) => [
      { role: 'signatory', email: a.email, userId: a.id, state: 'refused' },
    ]);
    await make('rejected', bob, 'rejected', (a) => [
      { role: 'reviewer', email: a.email, userId: a.id, state: 'rejected' },
    ]);
    await make('cancelled', ada, 'cancelled', (_a, b) => [
      { role: 'signatory', email: b.email, userId: b.id, state: 'cancelled' },
    ]);
    await make('invalid-file', ada, 'error', null);
    await make('archived-signed', ada, 'signed', null, { archivedByAda: true });
    await make(
      'archived-to-sign',
      bob,
      'awaiting_signs',
      (a) => [{ role: 'signatory', email: a.email, userId: a.id, state: 'pending' }],
      {
        archivedByAda: true,
      },
    );
    await make('bob-only', bob, 'uploaded', null);
  });
  afterAll(async () => {
    await t.close();
  });

  async function listNames(category: DocumentCategory): Promise<{ names: string[]; body: ListBody }> {
    const response = await t.app.inject({ url: `/api/documents/${category}`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    const body = response.json<ListBody>();
    expectMatchesContract(OPERATIONS[category], 200, body);
    return { names: body.data.map((doc) => names.get(doc.id) ?? doc.id).sort(), body };
  }

  it.each<[DocumentCategory, string[]]>([
    [
      'active',
      [
        'ada-not-yet-her-turn',
        'ada-signed-waits',
        'cancelled',
        'invalid-file',
        'own-awaiting',
        'own-review-waiting',
        'own-signed',
        'own-signing',
        'own-uploaded',
        'refused',
        'rejected',
        'review-for-ada',
        'reviewed-by-ada',
        'sign-for-ada',
      ],
    ],
    ['to_do', ['review-for-ada', 'sign-for-ada']],
    [
      'in_progress',
      [
        'ada-not-yet-her-turn',
        'ada-signed-waits',
        'own-awaiting',
        'own-review-waiting',
        'own-signing',
        'reviewed-by-ada',
      ],
    ],
    ['uploaded', ['own-uploaded']],
    ['done', ['own-signed']],
    ['failed', ['cancelled', 'invalid-file', 'refused', 'rejected']],
    ['archived', ['archived-signed', 'archived-to-sign']],
  ])('%s lists exactly the documents of its definition', async (category, expected) => {
    const { names: listed, body } = await listNames(category);
    expect(listed).toEqual(expected);
    // The flags the list sends put each document in this same category.
    for (const doc of body.data) {
      expect(isInCategory(category, doc.attributes.state, doc.attributes), names.get(doc.id)).toBe(true);
    }
  });

  it('every visible document sits in the categories its flags say, and no others', async () => {
    const all = new Map<string, Attributes>();
    for (const category of ['active', 'archived'] as const) {
      for (const doc of (await listNames(category)).body.data) all.set(doc.id, doc.attributes);
    }
    for (const category of Object.keys(OPERATIONS) as DocumentCategory[]) {
      const listed = new Set((await listNames(category)).body.data.map((doc) => doc.id));
      for (const [id, attributes] of all) {
        expect(listed.has(id), `${names.get(id)} in ${category}`).toBe(
          isInCategory(category, attributes.state, attributes),
        );
      }
    }
  });

  it('gives the owner of an uploaded document: create sign flow, sign it alone, archive and delete', async () => {
    const { body } = await listNames('uploaded');
    expect(body.data[0]?.attributes).toMatchObject({
      isOwner: true,
      currentUserCanCreateSignFlow: true,
      currentUserCanArchive: true,
      currentUserCanDelete: true,
      // [5/6]: the owner may sign a document without a flow themself.
      currentUserCanSign: true,
      currentUserCanReview: false,
      currentUserCanEditSignFlow: false,
      currentUserCanCancel: false,
    });
  });

  it('gives a pending signatory of an awaiting_signs document: sign and refuse, but not delete', async () => {
    const { body } = await listNames('to_do');
    const signing = body.data.find((doc) => names.get(doc.id) === 'sign-for-ada');
    expect(signing?.attributes).toMatchObject({
      isOwner: false,
      currentUserCanSign: true,
      currentUserCanRefuse: true,
      currentUserSigned: false,
      currentUserCanDelete: false,
      currentUserCanCreateSignFlow: false,
    });
    const reviewing = body.data.find((doc) => names.get(doc.id) === 'review-for-ada');
    expect(reviewing?.attributes).toMatchObject({ currentUserCanReview: true, currentUserCanSign: false });
  });

  it('gives the owner of a running flow: edit and cancel; and nobody archive or delete while signing', async () => {
    const { body } = await listNames('in_progress');
    const byName = (name: string) => body.data.find((doc) => names.get(doc.id) === name)?.attributes;
    expect(byName('own-awaiting')).toMatchObject({
      currentUserCanEditSignFlow: true,
      currentUserCanCancel: true,
      currentUserCanDelete: true,
    });
    expect(byName('own-review-waiting')).toMatchObject({
      currentUserCanEditSignFlow: true,
      currentUserCanCancel: true,
    });
    expect(byName('own-signing')).toMatchObject({
      currentUserCanCancel: false,
      currentUserCanArchive: false,
      currentUserCanDelete: false,
    });
    expect(byName('ada-signed-waits')).toMatchObject({
      currentUserSigned: true,
      currentUserCanSign: false,
      currentUserCanEditSignFlow: false,
    });
  });

  it('counts what the list shows and what the profile badge says', async () => {
    const { body } = await listNames('active');
    const waits = body.data.find((doc) => names.get(doc.id) === 'ada-signed-waits')
      ?.attributes as unknown as Record<string, number>;
    expect(waits).toMatchObject({ signedCount: 1, signatoryCount: 2, reviewerCount: 0, approvedCount: 0 });
    const reviewed = body.data.find((doc) => names.get(doc.id) === 'reviewed-by-ada')
      ?.attributes as unknown as Record<string, number>;
    expect(reviewed).toMatchObject({ reviewerCount: 2, approvedCount: 1 });

    const profile = await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    expectMatchesContract('getProfile', 200, profile.json());
    expect(
      profile.json<{ data: { attributes: { pendingSignFlows: number } } }>().data.attributes.pendingSignFlows,
    ).toBe(2);
  });
});
