// A time-stamping authority or OCSP responder that is down while someone confirms a signature
// (docs/decisions.md "When the time-stamping authority or OCSP responder is down"): the request stays
// pending, the document goes back to where it was, nothing is stored, the attempt is audited and counted,
// the identity app answers 503 with Retry-After and says to press Confirm again, the auto-confirmation
// backs off; once the service is back, confirming again signs (pdfsig checks the file). A failure of the
// embedded services is a bug, not an outage: the request is cancelled, as before. The remote TSA is a
// local HTTP server that hangs, fails, answers garbage, or answers with the deployment's own TSA key.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../server/db/connection-errors.ts';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { runIdpAutoconfirm, type AutoconfirmBackoff } from '../../server/jobs/idp-autoconfirm.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { RevocationUnavailableError } from '../../server/signing/pki/errors.ts';
import { embeddedTsa } from '../../server/signing/pki/tsa.ts';
import { signingServices, type SigningServices } from '../../server/signing/services.ts';
import type { Signer } from '../../server/signing/signer.ts';
import { bearer, buildTestApp, type TestApp, type TestUser } from './helpers.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import { answerWith, startServer, type TestServer } from './pki-support.ts';
import {
  auditActions,
  cardFor,
  documentRow,
  requestSignature,
  SOLO_PLACEMENT,
  storedDocument,
  storedFiles,
  versionRow,
} from './signing-support.ts';

const run = promisify(execFile);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CSRF_FIELD = /name="csrf_token" value="([^"]+)"/;
// Short, so that a TSA that never answers costs the test a fraction of a second.
const TEST_TIMEOUT_MS = 300;

type TsaMode = 'hang' | 'error' | 'garbage' | 'up';

let t: TestApp;
let now: Date;
let dir: string;
let tsa: TestServer;
let tsaMode: TsaMode = 'error';
let ada: TestUser;
let bob: TestUser;
let adaToken: string;
let bobToken: string;
let adaCard: string;
let bobCard: string;
let adaCookie: string;
let appSigner: Signer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-outage-'));
  // Up, it answers with the deployment's own TSA key: the token then validates with the deployment's CA.
  tsa = await startServer(async (body, request, response) => {
    if (tsaMode === 'hang') return new Promise<void>(() => undefined);
    if (tsaMode === 'error') {
      return answerWith('text/plain', () => Buffer.from('Internal Server Error'), 500)(
        body,
        request,
        response,
      );
    }
    if (tsaMode === 'garbage') {
      return answerWith('application/timestamp-reply', () => Buffer.from('<html>maintenance</html>'))(
        body,
        request,
        response,
      );
    }
    const pki = await t.deps.pki();
    const answer = await embeddedTsa({ ...pki.tsa, clock: () => new Date() }).answer(body);
    return answerWith('application/timestamp-reply', () => answer)(body, request, response);
  });
  now = new Date(Math.floor(Date.now() / 1000) * 1000);
  t = await buildTestApp({ clock: () => now, env: { PARAPH_TSA_URL: `${tsa.url}/tsr` } });
  await t.deps.pki();
  ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
  bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker', locale: 'fr' });
  [adaToken, bobToken] = await Promise.all([t.signIn(ada.email), t.signIn(bob.email)]);
  adaCard = await cardFor(t.deps, ada.id);
  bobCard = await cardFor(t.deps, bob.id);
  adaCookie = await idpSession(ada);
  appSigner = t.deps.signer;
}, 120_000);

afterAll(async () => {
  await t?.close();
  await tsa?.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  // Each test starts with the app's own signer (PARAPH_TSA_URL, the default timeout), the TSA down, and
  // no request of an earlier test still pending (the auto-confirmation would take them too).
  t.deps.signer = appSigner;
  tsaMode = 'error';
  await t.deps.db
    .updateTable('document_versions')
    .set({ state: 'cancelled' })
    .where('state', '=', 'pending')
    .execute();
});

/** The app's PKI behind a signer whose services are `wrap`'s take on the real ones (short timeouts). */
async function useServices(
  wrap: (services: SigningServices) => SigningServices,
  tsaUrl: string | null,
): Promise<void> {
  const pki = await t.deps.pki();
  const services = signingServices(pki, { tsaUrl }, t.deps.clock, { remoteTimeoutMs: TEST_TIMEOUT_MS });
  t.deps.signer = createLocalSigner({ pki, services: wrap(services), clock: t.deps.clock });
}

/** The app's embedded services, its OCSP responder throwing what `failure` gives (null: it answers). */
async function useOcspFailing(failure: () => Error | null): Promise<void> {
  await useServices(
    (services) => ({
      ...services,
      ocsp: {
        ...services.ocsp,
        responseFor: async (certificate) => {
          const error = failure();
          if (error !== null) throw error;
          return services.ocsp.responseFor(certificate);
        },
      },
    }),
    null,
  );
}

async function idpSession(user: TestUser): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sign_in',
    headers: FORM,
    payload: new URLSearchParams({
      email: user.email,
      password: user.password,
      return_to: '/idp/',
    }).toString(),
  });
  expect(response.statusCode).toBe(303);
  const cookie = response.cookies.find((entry) => entry.name === 'paraph_session');
  if (cookie === undefined) throw new Error('no session cookie');
  return cookie.value;
}

async function confirmOnIdp(versionId: string, cookie: string) {
  const page = await t.app.inject({ url: `/idp/requests/${versionId}`, cookies: { paraph_session: cookie } });
  const csrf = CSRF_FIELD.exec(page.body)?.[1];
  if (csrf === undefined) throw new Error('no Confirm form on the request page');
  return t.app.inject({
    method: 'POST',
    url: `/idp/requests/${versionId}/confirm`,
    headers: FORM,
    cookies: { paraph_session: cookie },
    payload: new URLSearchParams({ csrf_token: csrf }).toString(),
  });
}

async function soloRequest(): Promise<{ documentId: string; versionId: string }> {
  const { id } = await storedDocument(t.deps, { ownerId: ada.id });
  const versionId = await requestSignature(t, adaToken, id, {
    smart_card_id: adaCard,
    location: 'Amsterdam',
    ...SOLO_PLACEMENT,
  });
  return { documentId: id, versionId };
}

/** Ada's document in a standard flow for Bob, and Bob's pending request. */
async function flowRequest(): Promise<{ documentId: string; versionId: string }> {
  const { id } = await storedDocument(t.deps, { ownerId: ada.id });
  const created = await t.app.inject({
    method: 'POST',
    url: `/api/documents/${id}/sign_flow`,
    headers: bearer(adaToken),
    payload: { sign_flow: { type: 'standard', signatory_email_addresses: [bob.email] } },
  });
  expect(created.statusCode, created.body).toBe(201);
  const versionId = await requestSignature(t, bobToken, id, { smart_card_id: bobCard, location: 'Lyon' });
  return { documentId: id, versionId };
}

async function failures(documentId: string): Promise<unknown[]> {
  const rows = await t.deps.db
    .selectFrom('audit_events')
    .select('details')
    .where('document_id', '=', documentId)
    .where('action', '=', 'document.sign_failed')
    .orderBy('at')
    .execute();
  return rows.map((row) => JSON.parse(row.details) as unknown);
}

async function polledState(versionId: string, token: string): Promise<string> {
  const response = await t.app.inject({ url: `/api/document_versions/${versionId}`, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { attributes: { state: string } } }>().data.attributes.state;
}

async function signatureCount(outcome: string): Promise<number> {
  const line = (await t.deps.metrics.text())
    .split('\n')
    .find((entry) => entry.startsWith(`paraph_signatures_total{outcome="${outcome}"} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

let fileCount = 0;
async function pdfsigValid(documentId: string): Promise<boolean[]> {
  const row = await documentRow(t.deps, documentId);
  if (row.signed_file_key === null) throw new Error('no signed file');
  fileCount += 1;
  const file = path.join(dir, `signed-${fileCount}.pdf`);
  await writeFile(file, await t.deps.store.getBuffer(row.signed_file_key));
  let report: string;
  try {
    report = (await run('pdfsig', [file])).stdout;
  } catch (error) {
    // pdfsig exits non-zero when it does not trust a certificate; its report is still complete.
    report = (error as { stdout: string }).stdout;
  }
  return parsePdfsigReport(report).map((signature) => signature.isValid);
}

/** What an outage must leave exactly as it was. */
async function snapshot(documentId: string, versionId: string) {
  const row = await documentRow(t.deps, documentId);
  const version = await versionRow(t.deps, versionId);
  return {
    document: { state: row.state, signed_file_key: row.signed_file_key },
    version: {
      state: version.state,
      answered_at: version.answered_at,
      file_key: version.file_key,
      sha256_after: version.sha256_after,
      page_number: version.page_number,
      sign_page_number: version.sign_page_number,
    },
    files: await storedFiles(t),
  };
}

describe('a remote TSA that is down', () => {
  it('answers 503 with Retry-After in the identity app and keeps the request pending; confirming again once it is back signs', async () => {
    const { documentId, versionId } = await soloRequest();
    const before = await snapshot(documentId, versionId);
    const unavailableBefore = await signatureCount('service_unavailable');
    const requestsBefore = tsa.requests;

    const response = await confirmOnIdp(versionId, adaCookie);

    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('data-code="signing_service_unavailable"');
    expect(response.body).toContain(
      'The signing service is temporarily unavailable, so nothing was signed. Your request is still open: press Confirm again in a few moments.',
    );
    // The same request, with its buttons: Confirm again is one press away.
    expect(response.body).toContain(`action="/idp/requests/${versionId}/confirm"`);
    expect(tsa.requests).toBe(requestsBefore + 1);

    expect(await snapshot(documentId, versionId)).toEqual(before);
    expect(before.version.state).toBe('pending');
    expect(before.document.state).toBe('uploaded');
    expect(await failures(documentId)).toEqual([{ versionId, reason: 'time_stamp_unavailable' }]);
    expect(await auditActions(t.deps, documentId)).not.toContain('document.signed');
    expect(await signatureCount('service_unavailable')).toBe(unavailableBefore + 1);
    // The app's confirmation dialog, polling, sees a request still waiting for its answer.
    expect(await polledState(versionId, adaToken)).toBe('pending');
    expect(t.logs()).toContain('signing service unavailable; the request stays pending');

    tsaMode = 'up';
    const again = await confirmOnIdp(versionId, adaCookie);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/idp/requests/${versionId}`);
    expect((await versionRow(t.deps, versionId)).state).toBe('signed');
    expect((await documentRow(t.deps, documentId)).state).toBe('signed');
    expect(await pdfsigValid(documentId)).toEqual([true]);
    expect(await polledState(versionId, adaToken)).toBe('signed');
  }, 60_000);

  it.each([
    ['does not answer in time', 'hang'],
    ['answers garbage', 'garbage'],
  ] as const)(
    'leaves the request pending when it %s',
    async (_name, mode) => {
      await useServices((services) => services, `${tsa.url}/tsr`);
      tsaMode = mode;
      const { documentId, versionId } = await soloRequest();
      const before = await snapshot(documentId, versionId);
      const started = Date.now();

      const result = await confirmDocumentVersion(t.deps, {
        versionId,
        userId: ada.id,
        ip: null,
        userAgent: null,
      });

      expect(result).toEqual({ outcome: 'service_unavailable', reason: 'time_stamp_unavailable' });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await snapshot(documentId, versionId)).toEqual(before);
      expect(await failures(documentId)).toEqual([{ versionId, reason: 'time_stamp_unavailable' }]);
    },
    60_000,
  );

  it('says so in the signer’s language', async () => {
    const spanish = await t.createUser({ email: 'sol@example.test', fullName: 'Sol Ruiz', locale: 'es' });
    const card = await cardFor(t.deps, spanish.id);
    const token = await t.signIn(spanish.email);
    const { id } = await storedDocument(t.deps, { ownerId: spanish.id });
    const versionId = await requestSignature(t, token, id, {
      smart_card_id: card,
      location: 'Sevilla',
      ...SOLO_PLACEMENT,
    });
    const response = await confirmOnIdp(versionId, await idpSession(spanish));
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain(
      '<p class="outcome warning" role="alert" lang="es" data-code="signing_service_unavailable">El servicio de firma no está disponible en este momento, así que no se ha firmado nada. Su solicitud sigue abierta: vuelva a pulsar «Confirm» dentro de unos instantes.</p>',
    );

    const flow = await flowRequest();
    const french = await confirmOnIdp(flow.versionId, await idpSession(bob));
    expect(french.statusCode).toBe(503);
    expect(french.body).toContain('lang="fr"');
    expect(french.body).toContain(
      'Le service de signature est momentanément indisponible : rien n’a été signé. Votre demande reste ouverte : appuyez de nouveau sur « Confirm » dans quelques instants.',
    );
  }, 60_000);

  it('makes the auto-confirmation back off, and sign once the TSA is back', async () => {
    const first = await soloRequest();
    const second = await soloRequest();
    const backoff: AutoconfirmBackoff = { failures: 0, until: 0 };
    const requestsBefore = tsa.requests;

    expect(await runIdpAutoconfirm(t.deps, { delayMs: 0, backoff })).toBe(0);
    // The batch stopped at the first outage: the second request was not tried.
    expect(tsa.requests).toBe(requestsBefore + 1);
    expect(backoff).toEqual({ failures: 1, until: now.getTime() + 5_000 });
    expect((await versionRow(t.deps, first.versionId)).state).toBe('pending');
    expect((await versionRow(t.deps, second.versionId)).state).toBe('pending');

    // The next ticks within the wait try nothing.
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 0, backoff })).toBe(0);
    now = new Date(now.getTime() + 4_000);
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 0, backoff })).toBe(0);
    expect(tsa.requests).toBe(requestsBefore + 1);

    // Still down after the wait: tried once more, then a longer wait.
    now = new Date(now.getTime() + 1_000);
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 0, backoff })).toBe(0);
    expect(tsa.requests).toBe(requestsBefore + 2);
    expect(backoff).toEqual({ failures: 2, until: now.getTime() + 10_000 });
    expect(t.logs()).toContain('auto-confirmation paused: a signing service is unavailable');

    tsaMode = 'up';
    now = new Date(now.getTime() + 10_000);
    expect(await runIdpAutoconfirm(t.deps, { delayMs: 0, backoff })).toBe(2);
    expect(backoff.failures).toBe(0);
    expect((await versionRow(t.deps, first.versionId)).state).toBe('signed');
    expect((await versionRow(t.deps, second.versionId)).state).toBe('signed');
    expect(await pdfsigValid(second.documentId)).toEqual([true]);
  }, 60_000);
});

describe('an OCSP responder that is down', () => {
  it('puts the flow back and keeps the request pending; confirming again once it is back signs', async () => {
    let down = true;
    await useOcspFailing(() =>
      down ? new RevocationUnavailableError('no answer within 300 ms', { service: 'test' }) : null,
    );
    const { documentId, versionId } = await flowRequest();
    const before = await snapshot(documentId, versionId);
    const participant = await t.deps.db
      .selectFrom('sign_flow_participants')
      .select('state')
      .where('user_id', '=', bob.id)
      .executeTakeFirstOrThrow();

    const input = { versionId, userId: bob.id, ip: null, userAgent: null };
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({
      outcome: 'service_unavailable',
      reason: 'revocation_unavailable',
    });
    expect(await snapshot(documentId, versionId)).toEqual(before);
    expect(before.document.state).toBe('awaiting_signs');
    expect(
      await t.deps.db
        .selectFrom('sign_flow_participants')
        .select('state')
        .where('user_id', '=', bob.id)
        .executeTakeFirstOrThrow(),
    ).toEqual(participant);
    expect(await failures(documentId)).toEqual([{ versionId, reason: 'revocation_unavailable' }]);
    expect(await polledState(versionId, bobToken)).toBe('pending');

    down = false;
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'signed' });
    expect((await documentRow(t.deps, documentId)).state).toBe('signed');
    expect(await pdfsigValid(documentId)).toEqual([true]);
  }, 60_000);
});

describe('a failure of an embedded service', () => {
  it('is a bug, not an outage: the request is cancelled and the failure logged', async () => {
    const pki = await t.deps.pki();
    const tsaKey = embeddedTsa({ ...pki.tsa, clock: () => new Date() });
    // The embedded TSA answering for other data: its token does not check out.
    await useServices(
      (services) => ({
        ...services,
        timeStamper: { timeStamp: () => tsaKey.timeStamp(Buffer.alloc(32, 7)) },
      }),
      null,
    );
    const { documentId, versionId } = await soloRequest();
    const filesBefore = await storedFiles(t);

    const result = await confirmDocumentVersion(t.deps, {
      versionId,
      userId: ada.id,
      ip: null,
      userAgent: null,
    });

    expect(result).toEqual({ outcome: 'cancelled' });
    expect((await versionRow(t.deps, versionId)).state).toBe('cancelled');
    expect((await documentRow(t.deps, documentId)).state).toBe('uploaded');
    expect(await storedFiles(t)).toEqual(filesBefore);
    expect(await failures(documentId)).toEqual([{ versionId, reason: 'error' }]);
    expect(t.logs()).toContain('The embedded time-stamping authority failed');
  }, 60_000);
});

describe('the database away while the signature reads it', () => {
  // What PostgreSQL's driver throws, classified, on a connection a restart closed: the embedded OCSP
  // responder reads the signer's certificate's status from the database while the signature is made.
  const restartError = () =>
    new DatabaseUnavailableError(
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    );
  async function ocspAwayFor(failures: number): Promise<void> {
    let left = failures;
    await useOcspFailing(() => {
      if (left <= 0) return null;
      left -= 1;
      return restartError();
    });
  }

  it('makes the signature again once it is back: signed, not cancelled', async () => {
    await ocspAwayFor(2);
    const { documentId, versionId } = await flowRequest();
    const input = { versionId, userId: bob.id, ip: null, userAgent: null };

    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'signed' });
    expect((await versionRow(t.deps, versionId)).state).toBe('signed');
    expect((await documentRow(t.deps, documentId)).state).toBe('signed');
    expect(await failures(documentId)).toEqual([]);
    expect(await pdfsigValid(documentId)).toEqual([true]);
    expect(t.logs()).toContain('the database is unavailable while signing; signing again shortly');
  }, 60_000);

  it('keeps the request pending while it stays away, as when the TSA is down; confirming again signs', async () => {
    await ocspAwayFor(Number.POSITIVE_INFINITY);
    const { documentId, versionId } = await flowRequest();
    const before = await snapshot(documentId, versionId);
    const input = { versionId, userId: bob.id, ip: null, userAgent: null };

    expect(await confirmDocumentVersion(t.deps, input)).toEqual({
      outcome: 'service_unavailable',
      reason: 'database_unavailable',
    });
    expect(await snapshot(documentId, versionId)).toEqual(before);
    expect(await failures(documentId)).toEqual([{ versionId, reason: 'database_unavailable' }]);
    expect(await polledState(versionId, bobToken)).toBe('pending');

    await ocspAwayFor(0);
    expect(await confirmDocumentVersion(t.deps, input)).toEqual({ outcome: 'signed' });
    expect(await pdfsigValid(documentId)).toEqual([true]);
  }, 60_000);
});
