// Who may do what with a sign flow: only the owner creates, edits or cancels; only a reviewer
// approves or rejects; only a signatory refuses. Someone who cannot see the document gets 404; a
// participant without that right gets 409 `action_not_allowed`; and a refused call changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../server/context.ts';
import { actionDb } from '../../server/documents/access.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';

type Role = 'owner' | 'reviewer' | 'signatory' | 'stranger';
type Fixture = 'ended' | 'in_review' | 'awaiting_signs';
type Operation = {
  operationId: string;
  method: 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  fixture: Fixture;
  payload?: (people: People) => Record<string, unknown>;
  allowed: Role;
  status: number;
};
type People = Record<Role, TestUser>;

const flowBody = (people: People) => ({
  sign_flow: {
    type: 'standard',
    signatory_email_addresses: [people.signatory.email],
    reviewer_email_addresses: [people.reviewer.email],
  },
});

const OPERATIONS: Operation[] = [
  // An ended flow: its participants still see the document, so they are told "not allowed", not 404.
  {
    operationId: 'createSignFlow',
    method: 'POST',
    path: 'sign_flow',
    fixture: 'ended',
    payload: flowBody,
    allowed: 'owner',
    status: 201,
  },
  {
    operationId: 'updateSignFlow',
    method: 'PUT',
    path: 'sign_flow',
    fixture: 'in_review',
    payload: flowBody,
    allowed: 'owner',
    status: 200,
  },
  {
    operationId: 'cancelSignFlow',
    method: 'DELETE',
    path: 'sign_flow',
    fixture: 'in_review',
    allowed: 'owner',
    status: 200,
  },
  {
    operationId: 'approveDocument',
    method: 'PATCH',
    path: 'approve',
    fixture: 'in_review',
    allowed: 'reviewer',
    status: 200,
  },
  {
    operationId: 'rejectDocument',
    method: 'PATCH',
    path: 'reject',
    fixture: 'in_review',
    allowed: 'reviewer',
    status: 200,
  },
  {
    operationId: 'refuseSignFlow',
    method: 'PATCH',
    path: 'refuse_sign_flow',
    fixture: 'awaiting_signs',
    payload: () => ({ reason: 'Not like this.' }),
    allowed: 'signatory',
    status: 200,
  },
];

const ROLES: Role[] = ['owner', 'reviewer', 'signatory', 'stranger'];

const CASES = OPERATIONS.flatMap((operation) =>
  ROLES.map((role) => ({
    operation,
    role,
    expected: role === operation.allowed ? operation.status : role === 'stranger' ? 404 : 409,
  })),
);

async function makeFixture(deps: AppDeps, people: People, fixture: Fixture): Promise<string> {
  const state = fixture === 'ended' ? 'cancelled' : fixture;
  const documentId = await insertDocument(deps, { ownerId: people.owner.id, state, pageCount: 2 });
  await insertSignFlow(deps, documentId, {
    state,
    participants: [
      {
        role: 'reviewer',
        email: people.reviewer.email,
        userId: people.reviewer.id,
        state: fixture === 'in_review' ? 'pending' : fixture === 'ended' ? 'cancelled' : 'approved',
      },
      {
        role: 'signatory',
        email: people.signatory.email,
        userId: people.signatory.id,
        state: fixture === 'awaiting_signs' ? 'pending' : fixture === 'ended' ? 'cancelled' : 'waiting',
      },
    ],
  });
  return documentId;
}

// Everything a flow call could change about one document.
async function snapshot(deps: AppDeps, documentId: string) {
  const db = actionDb(deps.db);
  const document = await db
    .selectFrom('documents')
    .select(['state', 'updated_at'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  const flows = await db.selectFrom('sign_flows').selectAll().where('document_id', '=', documentId).execute();
  const participants = await db
    .selectFrom('sign_flow_participants')
    .selectAll()
    .where('sign_flow_id', 'in', ['', ...flows.map((flow) => flow.id)])
    .orderBy('id')
    .execute();
  const audit = await db
    .selectFrom('audit_events')
    .select('action')
    .where('document_id', '=', documentId)
    .execute();
  const outbox = await db.selectFrom('mail_queue').select('id').execute();
  const invites = await db.selectFrom('invites').select('id').where('document_id', '=', documentId).execute();
  return { document, flows, participants, audit, outbox: outbox.length, invites };
}

describe('sign flow access (table-driven)', () => {
  let t: TestApp;
  let people: People;
  const tokens = new Map<Role, string>();

  beforeAll(async () => {
    t = await buildTestApp();
    people = {
      owner: await t.createUser({ email: 'owner@example.test', fullName: 'Olive Owner' }),
      reviewer: await t.createUser({ email: 'reviewer@example.test', fullName: 'Rita Reviewer' }),
      signatory: await t.createUser({ email: 'signatory@example.test', fullName: 'Sam Signatory' }),
      stranger: await t.createUser({ email: 'stranger@example.test', fullName: 'Stan Stranger' }),
    };
    for (const role of ROLES) tokens.set(role, await t.signIn(people[role].email));
  });

  afterAll(async () => {
    await t.close();
  });

  it.each(CASES.map((entry) => [entry.operation.operationId, entry.role, entry.expected, entry] as const))(
    '%s by the %s answers %i',
    async (_name, role, expected, { operation }) => {
      const documentId = await makeFixture(t.deps, people, operation.fixture);
      const before = await snapshot(t.deps, documentId);
      const response = await t.app.inject({
        method: operation.method,
        url: `/api/documents/${documentId}/${operation.path}`,
        headers: { ...bearer(tokens.get(role) ?? ''), 'user-agent': 'access-table' },
        ...(operation.payload === undefined ? {} : { payload: operation.payload(people) }),
      });
      expect(response.statusCode, response.body).toBe(expected);
      expectMatchesContract(operation.operationId, expected, response.json());
      const after = await snapshot(t.deps, documentId);
      if (expected === 404) {
        expect(response.json<{ code: string }>().code).toBe('not_found');
        expect(after).toEqual(before);
      } else if (expected === 409) {
        expect(response.json<{ code: string }>().code).toBe('action_not_allowed');
        expect(after).toEqual(before);
      } else {
        // The allowed call did change the document and left its trace in the audit trail.
        expect(after.audit.length).toBe(before.audit.length + 1);
        expect(after).not.toEqual(before);
      }
    },
  );
});
