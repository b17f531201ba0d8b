// The demo's signed documents are really signed: every document the demo shows is downloaded as its
// viewers get it and read by poppler's pdfsig, which must find as many valid signatures as the document
// claims, by the people its flow says signed, in their order. Then the demo's signature waiting for Ada is
// confirmed through the real pipeline and lands beside Bob's on the same signature page.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirmDocumentVersion } from '../../server/documents/signing-confirm.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../../server/seed.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';
import {
  documentTimeStamps,
  parsePdfsigReport,
  signaturePageIndexes,
  signatureWidgetCount,
  type PdfsigSignature,
  onlyValidationDataAfterLastSignature,
} from './pdf-signatures.ts';
import { documentRow, requestSignature, sha256 } from './signing-support.ts';

const run = promisify(execFile);

type ListedDocument = {
  id: string;
  attributes: {
    originalFilename: string;
    state: string;
    signedCount: number;
    signatoryCount: number;
    pdfUrl: string | null;
    pdfDownloadUrl: string | null;
  };
};

async function pdfsigReport(t: TestApp, pdf: Buffer): Promise<string> {
  const file = path.join(t.config.dataDir, `check-${sha256(pdf).slice(0, 12)}.pdf`);
  await writeFile(file, pdf);
  try {
    return (await run('pdfsig', [file])).stdout;
  } catch (error) {
    // pdfsig exits non-zero for a file without signatures or with one that does not verify.
    return String((error as { stdout?: unknown }).stdout ?? '');
  }
}

async function pdfsig(t: TestApp, pdf: Buffer): Promise<PdfsigSignature[]> {
  return parsePdfsigReport(await pdfsigReport(t, pdf));
}

async function download(t: TestApp, url: string | null): Promise<Buffer> {
  expect(url).not.toBeNull();
  const response = await t.app.inject({ method: 'GET', url: String(url) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

/** Every document any demo account sees, once, as the API describes it. */
async function demoDocuments(t: TestApp): Promise<ListedDocument[]> {
  const seen = new Map<string, ListedDocument>();
  for (const account of DEMO_ACCOUNTS) {
    const token = await t.signIn(account.email, DEMO_PASSWORD);
    const response = await t.app.inject({ url: '/api/documents/active', headers: bearer(token) });
    const body = response.json<{ data: ListedDocument[] }>();
    expectMatchesContract('listActiveDocuments', 200, body);
    for (const document of body.data) seen.set(document.id, document);
  }
  return [...seen.values()];
}

/** The full names of a document's signatories who signed, in the flow's order. */
async function signedNames(t: TestApp, documentId: string): Promise<string[]> {
  const rows = await t.deps.db
    .selectFrom('sign_flow_participants')
    .innerJoin('sign_flows', 'sign_flows.id', 'sign_flow_participants.sign_flow_id')
    .innerJoin('users', 'users.id', 'sign_flow_participants.user_id')
    .select('users.full_name')
    .where('sign_flows.document_id', '=', documentId)
    .where('sign_flow_participants.role', '=', 'signatory')
    .where('sign_flow_participants.state', '=', 'signed')
    .orderBy('sign_flow_participants.position')
    .execute();
  return rows.map((row) => row.full_name);
}

function signatureWidgetsOnSignaturePages(doc: PDFDocument): number[] {
  return signaturePageIndexes(doc).map((index) => signatureWidgetCount(doc, index));
}

describe('the demo’s signed documents', () => {
  let t: TestApp;

  beforeEach(async () => {
    t = await buildTestApp();
    await seedDemo(t.deps);
  });
  afterEach(async () => {
    await t.close();
  });

  it('carry as many valid signatures as they claim, by the people who signed, in order', async () => {
    const documents = await demoDocuments(t);
    expect(documents).toHaveLength(8);
    const claims = documents.map((document) => document.attributes.signedCount).sort();
    // Not vacuous: the demo shows a document signed by two and one waiting after a first signature.
    expect(claims.filter((count) => count > 0)).toEqual([1, 2]);

    for (const document of documents) {
      const { originalFilename: name, signedCount, signatoryCount, state } = document.attributes;
      const pdf = await download(t, document.attributes.pdfUrl);
      const shown = await pdfsig(t, pdf);
      expect(shown, name).toHaveLength(signedCount);
      expect(
        shown.every((signature) => signature.isValid),
        name,
      ).toBe(true);
      expect(
        shown.map((signature) => signature.commonName),
        name,
      ).toEqual(await signedNames(t, document.id));
      if (signedCount > 0) expect(onlyValidationDataAfterLastSignature(pdf), name).toBe(true);

      // A completed flow ends with a document time-stamp over the whole file (B-LTA); one still under
      // way has none yet.
      expect(documentTimeStamps(await pdfsigReport(t, pdf)), name).toEqual(
        state === 'signed' ? [{ isTotal: true }] : [],
      );

      if (state === 'signed') {
        // What "Download" gives is the same signed file, with every signatory's signature.
        const downloaded = await pdfsig(t, await download(t, document.attributes.pdfDownloadUrl));
        expect(downloaded, name).toEqual(shown);
        expect(downloaded, name).toHaveLength(signatoryCount);
      }
    }
  });

  it('the signature waiting for Ada goes beside Bob’s through the real confirmation, both valid', async () => {
    const lease = await t.deps.db
      .selectFrom('documents')
      .selectAll()
      .where('original_filename', '=', 'Office lease 2025.pdf')
      .executeTakeFirstOrThrow();
    const ada = await t.deps.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ada@paraph.test')
      .executeTakeFirstOrThrow();
    const token = await t.signIn('ada@paraph.test', DEMO_PASSWORD);
    const cards = (await t.app.inject({ url: '/api/smart_cards', headers: bearer(token) })).json<{
      data: { id: string }[];
    }>();
    const versionId = await requestSignature(t, token, lease.id, {
      smart_card_id: cards.data[0]?.id ?? '',
      location: 'London',
      reason: 'Agreed for Acme Ltd.',
    });
    expect(
      await confirmDocumentVersion(t.deps, { versionId, userId: ada.id, ip: null, userAgent: null }),
    ).toEqual({ outcome: 'signed' });

    const after = await documentRow(t.deps, lease.id);
    expect(after.state).toBe('signed');
    const pdf = await t.deps.store.getBuffer(after.signed_file_key ?? '');
    expect((await pdfsig(t, pdf)).map(({ isValid, commonName }) => ({ isValid, commonName }))).toEqual([
      { isValid: true, commonName: 'Bob Baker' },
      { isValid: true, commonName: 'Ada Lovelace' },
    ]);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    // The lease's four pages and one signature page holding both boxes.
    expect(doc.getPageCount()).toBe(5);
    expect(signatureWidgetsOnSignaturePages(doc)).toEqual([2]);
  });
});
