// bench/signing: the two signing budgets.
// (a) From "Confirm" to the signed version, for a 20-page PDF: confirmDocumentVersion on an in-process
//     app with the real signer (stamp, PAdES signature, the two locked transactions), median of 10 after
//     one warm-up (the first signature creates the certificate authority and the signer's certificate).
//     Target: 1.5 s on these machines.
// (b) 50 rounds of two signers of a standard flow confirming at the same instant, against the real
//     server in its own process, through the identity app's confirm form (/idp/requests/{id}/confirm with
//     the session cookie and the form's CSRF token). A round is bad unless both signatures are present and
//     valid in pdfsig and exactly one `document.signed` entry completed the document. Target: 0.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { confirmDocumentVersion } from '../server/documents/signing-confirm.ts';
import { signInSession, type ApiSession } from './browser.ts';
import { createStore } from '../server/storage/create-store.ts';
import type { ObjectStore } from '../server/storage/object-store.ts';
import { makePdf } from '../tests/fixtures/pdfs.ts';
import { ms, ratio, round, type Bench, type BenchResult } from './report.ts';
import { insertReadyDocument, makeDataDir, startServer } from './server-process.ts';

const RUNS = 10;
const PAGES = 20;
const TARGET_MS = 1500;
const ROUNDS = 50;
// Every round signs twice per person: the free plan's monthly limit would stop the bench, not the code.
const UNLIMITED = { PARAPH_SIGN_LIMIT_BASIC: 'unlimited' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function insertDocument(db: Kysely<Database>, store: ObjectStore, ownerId: string, pdf: Buffer) {
  const { id, fileKey } = await insertReadyDocument(db, {
    ownerId,
    name: 'signing',
    fileSize: pdf.length,
    pageCount: PAGES,
  });
  await store.put(fileKey, pdf, 'application/pdf');
  return id;
}

function validSignatures(file: string): number {
  let report: string;
  try {
    report = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (error) {
    report = String((error as { stdout?: unknown }).stdout ?? '');
  }
  return report.split('Signature is Valid.').length - 1;
}

// ------------------------------------------------------------------ (a) confirm to signed, in process

async function confirmToSigned(): Promise<{ samples: number[] }> {
  const dataDir = await makeDataDir('signing-a');
  const config = loadConfig({
    PARAPH_DATA_DIR: dataDir,
    PARAPH_DEMO: '0',
    PARAPH_LOG_LEVEL: 'warn',
    ...UNLIMITED,
  });
  const app = await buildApp(config);
  try {
    const { db, store } = app.deps;
    const userId = randomUUID();
    await db
      .insertInto('users')
      .values({
        id: userId,
        email: 'bench-signer@example.test',
        full_name: 'Bench Signer',
        initials: 'BS',
        password_hash: 'not-used',
        locale: 'en',
        country_code: 'nl',
        location: '',
        welcome_screen_watched: 0,
        plan: 'basic',
        created_at: new Date().toISOString(),
        last_seen_at: null,
      })
      .execute();
    const cardId = randomUUID();
    await db
      .insertInto('smart_cards')
      .values({
        id: cardId,
        user_id: userId,
        smart_card_type: 'personal_level3',
        description: 'Bench card',
        created_at: new Date().toISOString(),
      })
      .execute();
    const pdf = await makePdf({ pages: PAGES });
    const samples: number[] = [];
    for (let run = 0; run <= RUNS; run += 1) {
      const documentId = await insertDocument(db, store, userId, pdf);
      // The sign call's row, as PATCH /documents/{id}/sign writes it for the owner signing alone.
      const versionId = randomUUID();
      const now = new Date();
      await db
        .insertInto('document_versions')
        .values({
          id: versionId,
          document_id: documentId,
          user_id: userId,
          participant_id: null,
          smart_card_id: cardId,
          smart_card_type: 'personal_level3',
          location: 'Amsterdam',
          reason: 'Benchmark',
          sign_page_number: 1,
          page_number: 1 + (run % PAGES),
          top_fraction: '0.5000',
          left_fraction: '0.1000',
          state: 'pending',
          file_key: null,
          sha256_before: null,
          sha256_after: null,
          created_at: now.toISOString(),
          answered_at: null,
          expires_at: new Date(now.getTime() + 600_000).toISOString(),
          notified_at: null,
        })
        .execute();
      const startedAt = performance.now();
      const { outcome } = await confirmDocumentVersion(app.deps, {
        versionId,
        userId,
        ip: null,
        userAgent: 'bench',
      });
      const elapsed = performance.now() - startedAt;
      if (outcome !== 'signed') throw new Error(`confirmation ended ${outcome}`);
      // The first run creates the certificate authority and the signer's key: not the budget's business.
      if (run > 0) samples.push(elapsed);
    }
    return { samples };
  } finally {
    await app.close();
    const { rm } = await import('node:fs/promises');
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ (b) two confirmations at once

type Session = ApiSession;

async function api(origin: string, session: Session, method: string, url: string, body?: unknown) {
  const response = await fetch(`${origin}/api${url}`, {
    method,
    headers: {
      authorization: `Bearer ${session.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return text === '' ? null : (JSON.parse(text) as { data: { id: string } });
}

async function requestSignature(origin: string, session: Session, documentId: string): Promise<string> {
  const cards = (await api(origin, session, 'GET', '/smart_cards')) as unknown as { data: { id: string }[] };
  const cardId = cards.data[0]?.id;
  if (cardId === undefined) throw new Error('no smart card');
  const version = await api(origin, session, 'PATCH', `/documents/${documentId}/sign`, {
    smart_card_id: cardId,
    location: 'Amsterdam',
  });
  if (version === null) throw new Error('the sign call answered no version');
  return version.data.id;
}

// The identity app's page carries the form's CSRF token; the answer is a redirect once the signature is
// applied.
async function confirmInIdp(origin: string, session: Session, versionId: string): Promise<number> {
  const headers = { cookie: `paraph_session=${session.cookie}` };
  const page = await fetch(`${origin}/idp/requests/${versionId}`, { headers });
  const html = await page.text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (csrf === undefined) throw new Error(`no confirm form on the request page (${page.status})`);
  const response = await fetch(`${origin}/idp/requests/${versionId}/confirm`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrf.replaceAll('&amp;', '&') }),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  return response.status;
}

async function simultaneousConfirmations(): Promise<{ bad: string[] }> {
  const dataDir = await makeDataDir('signing-b');
  const server = await startServer({ dataDir, demo: true, env: UNLIMITED });
  const config = loadConfig({ PARAPH_DATA_DIR: dataDir, PARAPH_DEMO: '0' });
  const { db } = await openDatabase({ dataDir, databaseUrl: process.env.DATABASE_URL?.trim() || null });
  try {
    const store = await createStore(config, db);
    const { origin } = server;
    const [ada, bob] = await Promise.all([
      signInSession(origin, 'ada@paraph.test'),
      signInSession(origin, 'bob@paraph.test'),
    ]);
    const owner = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ada@paraph.test')
      .executeTakeFirstOrThrow();
    const pdf = await makePdf({ pages: 2 });
    const bad: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const documentId = await insertDocument(db, store, owner.id, pdf);
      await api(origin, ada, 'POST', `/documents/${documentId}/sign_flow`, {
        sign_flow: { type: 'standard', signatory_email_addresses: ['ada@paraph.test', 'bob@paraph.test'] },
      });
      const [adaVersion, bobVersion] = await Promise.all([
        requestSignature(origin, ada, documentId),
        requestSignature(origin, bob, documentId),
      ]);
      const statuses = await Promise.all([
        confirmInIdp(origin, ada, adaVersion),
        confirmInIdp(origin, bob, bobVersion),
      ]);
      const row = await db
        .selectFrom('documents')
        .select(['state', 'signed_file_key'])
        .where('id', '=', documentId)
        .executeTakeFirstOrThrow();
      const entries = await db
        .selectFrom('audit_events')
        .select('details')
        .where('document_id', '=', documentId)
        .where('action', '=', 'document.signed')
        .execute();
      const completions = entries.filter(
        (entry) => (JSON.parse(entry.details) as { state?: string }).state === 'signed',
      ).length;
      let valid = 0;
      if (row.signed_file_key !== null) {
        const file = path.join(dataDir, `round-${round}.pdf`);
        await writeFile(file, await store.getBuffer(row.signed_file_key));
        valid = validSignatures(file);
      }
      if (row.state !== 'signed' || valid !== 2 || completions !== 1 || entries.length !== 2) {
        bad.push(
          `round ${round}: confirm answers ${statuses.join('/')}, document ${row.state}, ${valid} valid signatures, ${completions} completions`,
        );
      }
    }
    return { bad };
  } finally {
    await db.destroy();
    await server.stop();
  }
}

async function measure(): Promise<BenchResult> {
  const { samples } = await confirmToSigned();
  const middle = median(samples);
  const { bad } = await simultaneousConfirmations();
  return {
    name: 'signing',
    title: `Confirm to signed for a ${PAGES}-page PDF, and ${ROUNDS} rounds of two simultaneous confirmations`,
    tables: [
      {
        title: `From Confirm to the signed version, ${PAGES}-page PDF (median of ${RUNS}; target ${ms(TARGET_MS)})`,
        columns: ['median', 'fastest', 'slowest', 'ratio to target'],
        rows: [[ms(middle), ms(Math.min(...samples)), ms(Math.max(...samples)), ratio(middle / TARGET_MS)]],
      },
      {
        title: 'Two signers of a standard flow confirming at the same instant (target: 0 bad rounds)',
        columns: ['rounds', 'bad rounds', 'expected outcome'],
        rows: [[ROUNDS, bad.length, 'document signed, 2 valid signatures in pdfsig, exactly 1 completion']],
      },
    ],
    metrics: {
      confirmToSignedMedianMs: round(middle, 1),
      confirmToSignedRatio: round(middle / TARGET_MS, 3),
      rounds: ROUNDS,
      badRounds: bad.length,
    },
    notes: [
      '(a) runs confirmDocumentVersion on an in-process app with the real signer; the first run (creating the CA) is not counted',
      '(b) confirms through the identity app’s form (/idp/requests/{id}/confirm) on the real server process',
      process.env.DATABASE_URL ? 'database: PostgreSQL (DATABASE_URL)' : 'database: SQLite',
      ...bad.slice(0, 3),
    ],
    problems: [],
  };
}

export const signingBench: Bench = {
  name: 'signing',
  title: 'Confirm to signed, and two confirmations of one document at the same instant',
  run: measure,
};
