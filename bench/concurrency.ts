// bench/concurrency: two people acting on one document in the same instant, against the real server in
// its own process. 50 rounds of two reviewers approving at once (both approvals must be recorded and the
// document must move on to awaiting_signs), and 50 rounds of two signatories refusing at once (exactly one
// refusal wins; the other is told the flow has ended). Prints the rounds whose outcome is inconsistent:
// the target is 0. The server serialises every action on one document (a transaction on the locked row),
// so without that lock two approvals would each see the other still pending and the review would never
// complete.
import type { Kysely } from 'kysely';
import { openDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { DEMO_ACCOUNTS } from '../server/seed.ts';
import { signInForApi } from './browser.ts';
import { round, type Bench, type BenchResult } from './report.ts';
import { insertReadyDocument, makeDataDir, startServer } from './server-process.ts';

const ROUNDS = 50;

type Round = { statuses: number[]; problem: string | null };

function emailOf(key: 'ada' | 'bob' | 'carol'): string {
  const account = DEMO_ACCOUNTS.find((entry) => entry.key === key);
  if (account === undefined) throw new Error(`no demo account ${key}`);
  return account.email;
}

// A bare document row for ada: the flow calls never read its file.
async function insertDocument(db: Kysely<Database>, ownerId: string): Promise<string> {
  return (await insertReadyDocument(db, { ownerId, name: 'concurrency', fileSize: 1000, pageCount: 1 })).id;
}

async function call(origin: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${origin}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function stateOf(db: Kysely<Database>, documentId: string) {
  const document = await db
    .selectFrom('documents')
    .select('state')
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  const participants = await db
    .selectFrom('sign_flow_participants')
    .innerJoin('sign_flows', 'sign_flows.id', 'sign_flow_participants.sign_flow_id')
    .select(['sign_flow_participants.role', 'sign_flow_participants.state'])
    .where('sign_flows.document_id', '=', documentId)
    .execute();
  const audit = await db
    .selectFrom('audit_events')
    .select('action')
    .where('document_id', '=', documentId)
    .execute();
  return { state: document.state, participants, actions: audit.map((entry) => entry.action) };
}

async function measure(): Promise<BenchResult> {
  const dataDir = await makeDataDir('concurrency');
  const server = await startServer({ dataDir, demo: true });
  const { db } = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL?.trim() || null });
  try {
    const { origin } = server;
    const [ada, bob, carol] = await Promise.all([
      signInForApi(origin, emailOf('ada')),
      signInForApi(origin, emailOf('bob')),
      signInForApi(origin, emailOf('carol')),
    ]);
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', emailOf('ada'))
      .executeTakeFirstOrThrow();

    const approvals: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      const documentId = await insertDocument(db, owner.id);
      const created = await call(origin, ada, 'POST', `/documents/${documentId}/sign_flow`, {
        sign_flow: {
          type: 'standard',
          reviewer_email_addresses: [emailOf('bob'), emailOf('carol')],
          signatory_email_addresses: [emailOf('ada')],
        },
      });
      if (created !== 201) throw new Error(`createSignFlow answered ${created}`);
      const statuses = await Promise.all([
        call(origin, bob, 'PATCH', `/documents/${documentId}/approve`),
        call(origin, carol, 'PATCH', `/documents/${documentId}/approve`),
      ]);
      const after = await stateOf(db, documentId);
      const reviewers = after.participants.filter((participant) => participant.role === 'reviewer');
      const approvedEntries = after.actions.filter((action) => action === 'sign_flow.approved').length;
      const consistent =
        statuses.every((status) => status === 200) &&
        after.state === 'awaiting_signs' &&
        reviewers.length === 2 &&
        reviewers.every((participant) => participant.state === 'approved') &&
        approvedEntries === 2;
      approvals.push({
        statuses,
        problem: consistent
          ? null
          : `statuses ${statuses.join('/')}, document ${after.state}, ${approvedEntries} approval entries`,
      });
    }

    const refusals: Round[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      const documentId = await insertDocument(db, owner.id);
      const created = await call(origin, ada, 'POST', `/documents/${documentId}/sign_flow`, {
        sign_flow: { type: 'standard', signatory_email_addresses: [emailOf('bob'), emailOf('carol')] },
      });
      if (created !== 201) throw new Error(`createSignFlow answered ${created}`);
      const statuses = await Promise.all([
        call(origin, bob, 'PATCH', `/documents/${documentId}/refuse_sign_flow`, { reason: 'bob' }),
        call(origin, carol, 'PATCH', `/documents/${documentId}/refuse_sign_flow`, { reason: 'carol' }),
      ]);
      const after = await stateOf(db, documentId);
      const states = after.participants.map((participant) => participant.state).sort();
      const refusedEntries = after.actions.filter((action) => action === 'sign_flow.refused').length;
      const consistent =
        [...statuses].sort().join() === '200,409' &&
        after.state === 'refused' &&
        states.join() === 'cancelled,refused' &&
        refusedEntries === 1;
      refusals.push({
        statuses,
        problem: consistent
          ? null
          : `statuses ${statuses.join('/')}, document ${after.state}, participants ${states.join('/')}, ${refusedEntries} refusal entries`,
      });
    }

    const inconsistentApprovals = approvals.filter((entry) => entry.problem !== null);
    const inconsistentRefusals = refusals.filter((entry) => entry.problem !== null);
    const problems = [
      ...inconsistentApprovals.slice(0, 3).map((entry) => `two approvals: ${entry.problem ?? ''}`),
      ...inconsistentRefusals.slice(0, 3).map((entry) => `two refusals: ${entry.problem ?? ''}`),
    ];
    return {
      name: 'concurrency',
      title: `${ROUNDS} rounds of two simultaneous approvals, and of two simultaneous refusals`,
      tables: [
        {
          title: 'Two people acting on one document at the same instant (target: 0 inconsistent)',
          columns: ['race', 'rounds', 'inconsistent', 'expected outcome'],
          rows: [
            [
              'two reviewers approve',
              ROUNDS,
              inconsistentApprovals.length,
              'both 200, both approved, document awaiting_signs, 2 audit entries',
            ],
            [
              'two signatories refuse',
              ROUNDS,
              inconsistentRefusals.length,
              'one 200 and one 409, document refused, 1 audit entry',
            ],
          ],
        },
      ],
      metrics: {
        rounds: ROUNDS,
        inconsistentApprovals: inconsistentApprovals.length,
        inconsistentRefusals: inconsistentRefusals.length,
        consistentShare: round(
          (2 * ROUNDS - inconsistentApprovals.length - inconsistentRefusals.length) / (2 * ROUNDS),
          3,
        ),
      },
      notes: [
        'each round is a fresh document; the two calls are sent with Promise.all over separate connections',
        process.env.DATABASE_URL ? 'database: PostgreSQL (DATABASE_URL)' : 'database: SQLite',
      ],
      problems,
    };
  } finally {
    await db.destroy();
    await server.stop();
  }
}

export const concurrencyBench: Bench = {
  name: 'concurrency',
  title: 'Two approvals or two refusals of one document at the same instant',
  run: measure,
};
