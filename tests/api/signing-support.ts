// Shared by the sign pipeline's API tests: real PDFs in the store, smart cards, the sign call, and a fake
// signer for the rules that need no real RSA signature.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { AppDeps } from '../../server/context.ts';
import { insertSmartCard } from '../../server/documents/signing-cards.ts';
import { PresignError, type SignatureRequest, type Signer } from '../../server/signing/signer.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import {
  bearer,
  expectMatchesContract,
  insertDocument,
  type InsertDocumentInput,
  type TestApp,
} from './helpers.ts';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A document row with a real PDF stored under its key; answers its id and the original bytes. */
export async function storedDocument(
  deps: AppDeps,
  input: InsertDocumentInput & { pages?: number },
): Promise<{ id: string; pdf: Buffer }> {
  const pdf = await makePdf({ pages: input.pages ?? input.pageCount ?? 1 });
  const id = await insertDocument(deps, { pageCount: input.pages ?? 1, ...input });
  const row = await deps.db
    .selectFrom('documents')
    .select('file_key')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await deps.store.put(row.file_key, pdf, 'application/pdf');
  await deps.db
    .updateTable('documents')
    .set({ sha256: sha256(pdf), file_size: pdf.length })
    .where('id', '=', id)
    .execute();
  return { id, pdf };
}

export function cardFor(
  deps: AppDeps,
  userId: string,
  smartCardType: 'personal_level3' | 'business_level4' = 'personal_level3',
) {
  return insertSmartCard(deps.db, {
    userId,
    smartCardType,
    description: `Card ${smartCardType}`,
    now: deps.clock(),
  });
}

export type SignBody = {
  smart_card_id: string;
  location: string;
  reason?: string;
  sign_page_number?: number;
  signature_top?: string;
  signature_left?: string;
};

export async function signCall(
  t: TestApp,
  token: string,
  documentId: string,
  body: SignBody | Record<string, unknown>,
) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/documents/${documentId}/sign`,
    headers: bearer(token),
    payload: body,
  });
  expectMatchesContract('signDocument', response.statusCode, response.json());
  return response;
}

/** The sign call that must succeed: answers the pending version's id. */
export async function requestSignature(
  t: TestApp,
  token: string,
  documentId: string,
  body: SignBody,
): Promise<string> {
  const response = await signCall(t, token, documentId, body);
  expect(response.statusCode, response.body).toBe(200);
  const version = response.json<{ data: { id: string; attributes: { state: string } } }>().data;
  expect(version.attributes.state).toBe('pending');
  return version.id;
}

export const SOLO_PLACEMENT = {
  sign_page_number: 1,
  signature_top: '0.5000',
  signature_left: '0.1000',
} as const;

export type FakeSigner = Signer & {
  calls: SignatureRequest[];
  // While set, each signature waits for it (to hold a signature "being applied").
  gate: Promise<void> | null;
  failWith: Error | null;
};

/** Appends a marker to the PDF: a new file with new hashes, in no time. */
export function fakeSigner(): FakeSigner {
  const fake: FakeSigner = {
    calls: [],
    gate: null,
    failWith: null,
    async sign(request) {
      fake.calls.push(request);
      if (fake.gate !== null) await fake.gate;
      if (fake.failWith !== null) throw fake.failWith;
      const pdf = Buffer.concat([
        Buffer.from(request.pdf),
        Buffer.from(`%signed by ${request.signer.email}\n`),
      ]);
      return { pdf, sha256Before: sha256(request.pdf), sha256After: sha256(pdf) };
    },
  };
  return fake;
}

export { PresignError };

export async function versionRow(deps: AppDeps, id: string) {
  return deps.db.selectFrom('document_versions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function documentRow(deps: AppDeps, id: string) {
  return deps.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function auditActions(deps: AppDeps, documentId: string): Promise<string[]> {
  const rows = await deps.db
    .selectFrom('audit_events')
    .select('action')
    .where('document_id', '=', documentId)
    .orderBy('at')
    .execute();
  return rows.map((row) => row.action);
}

export async function versionCount(deps: AppDeps): Promise<number> {
  const rows = await deps.db.selectFrom('document_versions').select('id').execute();
  return rows.length;
}

/** Every file the local store holds (paths under its bucket), to assert that nothing was written. */
export async function storedFiles(t: TestApp): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const path = await import('node:path');
  const root = path.join(t.config.dataDir, 'storage');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('.tmp'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}
