// The sign pipeline end to end with the real signer (the local certificate authority): an ordered flow of
// two signers whose final file carries both signatures, valid in Debian's pdfsig; two signers of a
// standard flow confirming at the same instant (both signatures, one completion); and the demo data's
// sign limit and damaged PDF.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { runPendingImageJobs } from '../../server/images/worker.ts';
import { DEMO_PASSWORD, seedDemo } from '../../server/seed.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';
import { queuedMessages } from './mail-support.ts';
import {
  auditActions,
  cardFor,
  documentRow,
  requestSignature,
  sha256,
  SOLO_PLACEMENT,
  storedDocument,
  versionRow,
} from './signing-support.ts';

type DocumentResponse = components['schemas']['DocumentResponse'];
type CardsResponse = components['schemas']['SmartCardListResponse'];

function pdfsig(t: TestApp, pdf: Buffer): string {
  const file = path.join(t.config.dataDir, `check-${sha256(pdf).slice(0, 12)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (error) {
    // pdfsig exits non-zero when a signature does not verify; its report is what the test reads.
    return String((error as { stdout?: unknown }).stdout ?? '');
  }
}

const validCount = (report: string): number => report.split('Signature is Valid.').length - 1;

// The real signer signs and time-stamps each signature and pdfsig checks the file: about 6 s on a quiet
// machine, and over 30 s (the suite's limit) with CI's other runs beside it. A failure still shows.
describe('the sign pipeline with the real signer', { timeout: 120_000 }, () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let adaToken: string;
  let bobToken: string;
  let adaCard: string;
  let bobCard: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    [adaToken, bobToken] = await Promise.all([t.signIn(ada.email), t.signIn(bob.email)]);
    adaCard = await cardFor(t.deps, ada.id);
    bobCard = await cardFor(t.deps, bob.id, 'business_level4');
  });
  afterEach(async () => {
    await t.close();
  });

  const input = (versionId: string, user: TestUser) => ({
    versionId,
    userId: user.id,
    ip: '192.0.2.7',
    userAgent: 'pipeline',
  });

  async function startFlow(
    documentId: string,
    type: 'ordered' | 'standard',
    extra: Record<string, unknown> = {},
  ) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type, signatory_email_addresses: [ada.email, bob.email], ...extra } },
    });
    expect(response.statusCode, response.body).toBe(201);
  }

  it('signs an ordered flow of two: the final file carries both signatures, valid', async () => {
    const { id, pdf } = await storedDocument(t.deps, { ownerId: ada.id, pages: 2 });
    await startFlow(id, 'ordered', {
      signature_coordinates: [
        { email_address: ada.email, top: '0.2000', left: '0.1000', sign_page_number: 1 },
        { email_address: bob.email, top: '0.6000', left: '0.5000', sign_page_number: 2 },
      ],
    });
    const adaVersion = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Amsterdam',
    });
    expect(await confirmDocumentVersion(t.deps, input(adaVersion, ada))).toEqual({ outcome: 'signed' });
    const afterAda = await documentRow(t.deps, id);
    expect(afterAda.state).toBe('awaiting_signs');
    const first = await t.deps.store.getBuffer(afterAda.signed_file_key ?? '');
    expect(validCount(pdfsig(t, first))).toBe(1);
    // Bob's turn has come: he is told so.
    const outbox = await queuedMessages(t.deps.db, { to: bob.email });
    expect(outbox.map((message) => message.subject).join('\n')).toContain('It is your turn to sign');

    const bobVersion = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
      reason: 'Agreed',
    });
    expect(await confirmDocumentVersion(t.deps, input(bobVersion, bob))).toEqual({ outcome: 'signed' });
    const row = await documentRow(t.deps, id);
    expect(row.state).toBe('signed');
    const final = await t.deps.store.getBuffer(row.signed_file_key ?? '');
    const report = pdfsig(t, final);
    expect(validCount(report), report).toBe(2);
    expect(report).toContain('Total document signed');
    // The original is kept as it was uploaded; the versions record the hashes each signature saw.
    expect((await t.deps.store.getBuffer(row.file_key)).equals(pdf)).toBe(true);
    const [adaRow, bobRow] = [await versionRow(t.deps, adaVersion), await versionRow(t.deps, bobVersion)];
    expect(adaRow.sha256_before).toBe(sha256(pdf));
    expect(bobRow.sha256_before).toBe(adaRow.sha256_after);
    expect(bobRow.sha256_after).toBe(sha256(final));
    expect(adaRow).toMatchObject({ page_number: 1, top_fraction: '0.2000', left_fraction: '0.1000' });

    // The document is done: its download link serves the final file, and the page images show the stamps.
    const response = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(bobToken) });
    expectMatchesContract('getDocument', 200, response.json());
    const attributes = response.json<DocumentResponse>().data.attributes;
    expect(attributes).toMatchObject({ state: 'signed', smartCardType: 'business_level4' });
    expect(attributes.pdfDownloadUrl).not.toBeNull();
    expect(await runPendingImageJobs(t.deps)).toBe(2);
    expect((await documentRow(t.deps, id)).images_state).toBe('ready');
    const audit = await auditActions(t.deps, id);
    expect(audit.filter((action) => action === 'document.signed')).toHaveLength(2);
  });

  it('two signers of a standard flow confirming at the same instant: both signatures, one completion', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    await startFlow(id, 'standard');
    const adaVersion = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Amsterdam',
    });
    const bobVersion = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    const outcomes = await Promise.all([
      confirmDocumentVersion(t.deps, input(adaVersion, ada)),
      confirmDocumentVersion(t.deps, input(bobVersion, bob)),
    ]);
    expect(outcomes).toEqual([{ outcome: 'signed' }, { outcome: 'signed' }]);
    const row = await documentRow(t.deps, id);
    expect(row.state).toBe('signed');
    const report = pdfsig(t, await t.deps.store.getBuffer(row.signed_file_key ?? ''));
    expect(validCount(report), report).toBe(2);
    const completions = await t.deps.db
      .selectFrom('audit_events')
      .select('details')
      .where('document_id', '=', id)
      .where('action', '=', 'document.signed')
      .execute();
    expect(completions.map((entry) => (JSON.parse(entry.details) as { state: string }).state).sort()).toEqual(
      ['awaiting_signs', 'signed'],
    );
  });

  it('demo data: two card levels each, frank at his limit, and a PDF that cannot be prepared', async () => {
    await seedDemo(t.deps);
    const userOf = (email: string) =>
      t.deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    for (const email of [
      'ada@paraph.test',
      'bob@paraph.test',
      'carol@paraph.test',
      'erin@paraph.test',
      'frank@paraph.test',
    ]) {
      const token = await t.signIn(email, DEMO_PASSWORD);
      const cards = (
        await t.app.inject({ url: '/api/smart_cards', headers: bearer(token) })
      ).json<CardsResponse>();
      expectMatchesContract('listSmartCards', 200, cards);
      expect(
        new Set(cards.data.map((card) => card.attributes.smartCardType)).size,
        email,
      ).toBeGreaterThanOrEqual(2);
    }

    const documentOf = async (title: string) =>
      t.deps.db
        .selectFrom('documents')
        .selectAll()
        .where('original_filename', '=', title)
        .executeTakeFirstOrThrow();
    const frank = await userOf('frank@paraph.test');
    const frankToken = await t.signIn('frank@paraph.test', DEMO_PASSWORD);
    const frankCards = (
      await t.app.inject({ url: '/api/smart_cards', headers: bearer(frankToken) })
    ).json<CardsResponse>();
    const expense = await documentOf('Expense report.pdf');
    const frankVersion = await requestSignature(t, frankToken, expense.id, {
      smart_card_id: frankCards.data[0]?.id ?? '',
      location: 'Berlin',
      ...SOLO_PLACEMENT,
    });
    expect(await confirmDocumentVersion(t.deps, input(frankVersion, { ...ada, id: frank.id }))).toEqual({
      outcome: 'sign_limit_exceeded',
    });

    const demoAda = await userOf('ada@paraph.test');
    const demoAdaToken = await t.signIn('ada@paraph.test', DEMO_PASSWORD);
    const adaCards = (
      await t.app.inject({ url: '/api/smart_cards', headers: bearer(demoAdaToken) })
    ).json<CardsResponse>();
    const damaged = await documentOf('Scanned invoice.pdf');
    const original = await t.deps.store.getBuffer(damaged.file_key);
    const adaVersion = await requestSignature(t, demoAdaToken, damaged.id, {
      smart_card_id: adaCards.data[0]?.id ?? '',
      location: 'London',
      ...SOLO_PLACEMENT,
    });
    expect(await confirmDocumentVersion(t.deps, input(adaVersion, { ...ada, id: demoAda.id }))).toEqual({
      outcome: 'presign_error',
    });
    const after = await documentRow(t.deps, damaged.id);
    expect([after.state, after.signed_file_key]).toEqual(['uploaded', null]);
    expect((await t.deps.store.getBuffer(after.file_key)).equals(original)).toBe(true);
    // It is still a document the viewer can show: its pages render.
    await runPendingImageJobs(t.deps);
    expect((await documentRow(t.deps, damaged.id)).images_state).toBe('ready');
  });
});
