// The sign pipeline's rules (docs/decisions.md "Signing on the server"), with a fake signer: the
// sign call and its bad input (a 4xx and nothing signed or stored), the version the app polls, replacing
// and expiring requests, deny, answering twice, the monthly limit, a PDF that cannot be prepared, the
// owner signing alone, and a confirmation that waits for another signature being applied.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import {
  confirmDocumentVersion,
  denyDocumentVersion,
  pendingVersionsFor,
  versionForSigner,
} from '../../server/documents/signing-confirm.ts';
import { runSigningExpiry, SIGNING_GRACE_MS } from '../../server/documents/signing-expiry.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp, type TestUser } from './helpers.ts';
import { queuedMessages } from './mail-support.ts';
import {
  auditActions,
  cardFor,
  documentRow,
  fakeSigner,
  PresignError,
  requestSignature,
  signCall,
  SOLO_PLACEMENT,
  storedDocument,
  storedFiles,
  versionCount,
  versionRow,
  type FakeSigner,
} from './signing-support.ts';

type DocumentResponse = components['schemas']['DocumentResponse'];
type VersionResponse = components['schemas']['DocumentVersionResponse'];

const START = new Date('2025-03-10T09:00:00.000Z');

describe('the sign pipeline', () => {
  let t: TestApp;
  let now: Date;
  let signer: FakeSigner;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let adaToken: string;
  let bobToken: string;
  let carolToken: string;
  let adaCard: string;
  let bobCard: string;

  async function build(env: Record<string, string> = {}) {
    now = START;
    t = await buildTestApp({ clock: () => now, env });
    signer = fakeSigner();
    t.deps.signer = signer;
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    carol = await t.createUser({ email: 'carol@example.test', fullName: 'Carol Chen' });
    [adaToken, bobToken, carolToken] = await Promise.all([
      t.signIn(ada.email),
      t.signIn(bob.email),
      t.signIn(carol.email),
    ]);
    adaCard = await cardFor(t.deps, ada.id);
    bobCard = await cardFor(t.deps, bob.id, 'business_level4');
    await cardFor(t.deps, carol.id);
  }

  beforeEach(async () => {
    await build();
  });
  afterEach(async () => {
    await t.close();
  });

  const input = (versionId: string, user: TestUser) => ({
    versionId,
    userId: user.id,
    ip: '192.0.2.1',
    userAgent: 'test',
  });

  async function flow(documentId: string, type: 'ordered' | 'standard', signatories: string[], extra = {}) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${documentId}/sign_flow`,
      headers: bearer(adaToken),
      payload: { sign_flow: { type, signatory_email_addresses: signatories, ...extra } },
    });
    expect(response.statusCode, response.body).toBe(201);
  }

  async function getDocument(token: string, id: string) {
    const response = await t.app.inject({ url: `/api/documents/${id}`, headers: bearer(token) });
    expect(response.statusCode).toBe(200);
    expectMatchesContract('getDocument', 200, response.json());
    return response.json<DocumentResponse>().data.attributes;
  }

  async function getVersion(token: string, id: string) {
    const response = await t.app.inject({ url: `/api/document_versions/${id}`, headers: bearer(token) });
    expectMatchesContract('getDocumentVersion', response.statusCode, response.json());
    return response;
  }

  it('lists only the caller’s smart cards', async () => {
    const response = await t.app.inject({ url: '/api/smart_cards', headers: bearer(bobToken) });
    expect(response.statusCode).toBe(200);
    expectMatchesContract('listSmartCards', 200, response.json());
    expect(response.json()).toEqual({
      data: [
        {
          id: bobCard,
          type: 'smartCards',
          attributes: { smartCardType: 'business_level4', description: 'Card business_level4' },
        },
      ],
    });
  });

  it('refuses bad input with a clear 4xx, and nothing is signed, stored or recorded', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, originalFilename: 'plan.pdf', pages: 2 });
    const ordered = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(ordered.id, 'ordered', [ada.email, bob.email]);
    const filesBefore = await storedFiles(t);
    const good = { smart_card_id: adaCard, location: 'Amsterdam', ...SOLO_PLACEMENT };
    const cases: {
      token: string;
      documentId: string;
      body: Record<string, unknown>;
      status: number;
      code: string;
    }[] = [
      {
        token: adaToken,
        documentId: id,
        body: { ...good, location: 'A' },
        status: 400,
        code: 'invalid_request',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, location: 'x'.repeat(129) },
        status: 400,
        code: 'invalid_request',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, location: '  A  ' },
        status: 422,
        code: 'validation.location',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, reason: 'r'.repeat(129) },
        status: 400,
        code: 'invalid_request',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, smart_card_id: crypto.randomUUID() },
        status: 422,
        code: 'smart_card.unknown',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, smart_card_id: bobCard },
        status: 422,
        code: 'smart_card.unknown',
      },
      {
        token: adaToken,
        documentId: id,
        body: { smart_card_id: adaCard, location: 'Amsterdam' },
        status: 422,
        code: 'sign.placement_required',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, sign_page_number: 3 },
        status: 422,
        code: 'validation.sign_page_number',
      },
      // A signature page may go after the last page (3 = after page 2), no further.
      {
        token: adaToken,
        documentId: id,
        body: { smart_card_id: adaCard, location: 'Amsterdam', sign_page_number: 4 },
        status: 422,
        code: 'validation.sign_page_number',
      },
      // Half a box is no box.
      {
        token: adaToken,
        documentId: id,
        body: {
          smart_card_id: adaCard,
          location: 'Amsterdam',
          sign_page_number: 1,
          signature_top: '0.5000',
        },
        status: 422,
        code: 'sign.placement_required',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, signature_left: '0.9000' },
        status: 422,
        code: 'validation.signature_coordinates',
      },
      // Spec 001 §9: coordinates are strings of exactly 4 decimals (docs/decisions.md).
      {
        token: adaToken,
        documentId: id,
        body: { ...good, signature_top: '0.5' },
        status: 400,
        code: 'invalid_request',
      },
      {
        token: adaToken,
        documentId: id,
        body: { ...good, signature_left: 0.1 },
        status: 400,
        code: 'invalid_request',
      },
      // Not bob's document: he cannot see it.
      {
        token: bobToken,
        documentId: id,
        body: { ...good, smart_card_id: bobCard },
        status: 404,
        code: 'not_found',
      },
      // Bob is second in an ordered flow: not his turn yet.
      {
        token: bobToken,
        documentId: ordered.id,
        body: { smart_card_id: bobCard, location: 'Utrecht' },
        status: 409,
        code: 'action_not_allowed',
      },
      // Carol takes no part in it.
      {
        token: carolToken,
        documentId: ordered.id,
        body: { smart_card_id: bobCard, location: 'Utrecht' },
        status: 404,
        code: 'not_found',
      },
    ];
    for (const entry of cases) {
      const response = await signCall(t, entry.token, entry.documentId, entry.body);
      expect(
        [response.statusCode, response.json<{ code: string }>().code],
        JSON.stringify(entry.body),
      ).toEqual([entry.status, entry.code]);
    }
    const location = await signCall(t, adaToken, id, { ...good, location: ' A ' });
    expect(location.json()).toMatchObject({
      field: 'location',
      validations: { location: [expect.any(String)] },
    });

    expect(await versionCount(t.deps)).toBe(0);
    expect(signer.calls).toHaveLength(0);
    expect(await storedFiles(t)).toEqual(filesBefore);
    expect(await auditActions(t.deps, id)).toEqual([]);
    expect((await documentRow(t.deps, id)).state).toBe('uploaded');
    expect((await documentRow(t.deps, ordered.id)).state).toBe('awaiting_signs');
  });

  it('answers a pending version with its confirmation link; only its signer may read it', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    const response = await signCall(t, adaToken, id, {
      smart_card_id: adaCard,
      location: ' Amsterdam ',
      ...SOLO_PLACEMENT,
    });
    expect(response.statusCode).toBe(200);
    const version = response.json<VersionResponse>().data;
    expect(version.attributes).toEqual({
      state: 'pending',
      documentId: id,
      confirmationUrl: `http://localhost:8080/idp/requests/${version.id}`,
      createdAt: START.toISOString(),
    });
    const row = await versionRow(t.deps, version.id);
    expect(row).toMatchObject({
      location: 'Amsterdam',
      reason: '',
      participant_id: null,
      page_number: 1,
      top_fraction: '0.5000',
    });
    expect(await auditActions(t.deps, id)).toEqual(['document.sign_requested']);
    // The identity app's message to the signer.
    const outbox = await queuedMessages(t.deps.db, { to: ada.email });
    expect(outbox.map((message) => message.body).join('\n')).toContain(`/idp/requests/${version.id}`);

    const own = await getVersion(adaToken, version.id);
    expect(own.statusCode).toBe(200);
    expect(own.json<VersionResponse>().data.attributes.state).toBe('pending');
    expect((await getVersion(bobToken, version.id)).statusCode).toBe(404);
    expect((await getVersion(bobToken, crypto.randomUUID())).statusCode).toBe(404);
    // Someone else's version is not theirs to answer either.
    await expect(confirmDocumentVersion(t.deps, input(version.id, bob))).rejects.toMatchObject({
      status: 404,
    });
    await expect(denyDocumentVersion(t.deps, input(version.id, bob))).rejects.toMatchObject({ status: 404 });
    expect(await versionForSigner(t.deps, version.id, bob.id)).toBeNull();
    expect(await pendingVersionsFor(t.deps, bob.id)).toEqual([]);
    expect(await pendingVersionsFor(t.deps, ada.id)).toEqual([
      expect.objectContaining({
        id: version.id,
        documentId: id,
        signerName: 'Ada Lovelace',
        smartCardType: 'personal_level3',
        location: 'Amsterdam',
      }),
    ]);
    expect((await versionRow(t.deps, version.id)).state).toBe('pending');
  });

  it('takes its public origin from PARAPH_PUBLIC_ORIGIN when set', async () => {
    await t.close();
    await build({ PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test/' });
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    const versionId = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Amsterdam',
      ...SOLO_PLACEMENT,
    });
    const body = (await getVersion(adaToken, versionId)).json<VersionResponse>();
    expect(body.data.attributes.confirmationUrl).toBe(`https://sign.example.test/idp/requests/${versionId}`);
  });

  it('replaces a pending request by a new one, and cancels a request after 10 minutes', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    const body = { smart_card_id: adaCard, location: 'Amsterdam', ...SOLO_PLACEMENT };
    const first = await requestSignature(t, adaToken, id, body);
    const second = await requestSignature(t, adaToken, id, body);
    expect((await getVersion(adaToken, first)).json<VersionResponse>().data.attributes.state).toBe(
      'cancelled',
    );
    expect(await confirmDocumentVersion(t.deps, input(first, ada))).toEqual({ outcome: 'already_answered' });

    now = new Date(START.getTime() + 10 * 60 * 1000);
    expect((await getVersion(adaToken, second)).json<VersionResponse>().data.attributes.state).toBe(
      'cancelled',
    );
    expect(await confirmDocumentVersion(t.deps, input(second, ada))).toEqual({ outcome: 'already_answered' });
    expect(signer.calls).toHaveLength(0);
    expect((await documentRow(t.deps, id)).state).toBe('uploaded');
  });

  it('lets the owner sign alone on a signature page instead of a placed box', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, pages: 2 });
    const versionId = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Amsterdam',
      sign_page_number: 3,
    });
    expect(await versionRow(t.deps, versionId)).toMatchObject({
      sign_page_number: 3,
      page_number: null,
      top_fraction: null,
      left_fraction: null,
    });
    expect(await confirmDocumentVersion(t.deps, input(versionId, ada))).toEqual({ outcome: 'signed' });
    expect(signer.calls).toEqual([
      expect.objectContaining({ placement: { kind: 'page', signPageNumber: 3 }, signatureIndex: 0 }),
    ]);
    expect((await documentRow(t.deps, id)).state).toBe('signed');
  });

  it('writes the stamp in the signer’s profile language, as it is when they confirm', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id, pages: 1 });
    const versionId = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Madrid',
      sign_page_number: 0,
    });
    const settings = await t.app.inject({
      method: 'PATCH',
      url: '/api/profiles/update_settings',
      headers: bearer(adaToken),
      payload: { settings: { locale: 'es' } },
    });
    expect(settings.statusCode).toBe(200);
    expect(await confirmDocumentVersion(t.deps, input(versionId, ada))).toEqual({ outcome: 'signed' });
    expect(signer.calls.map((call) => call.locale)).toEqual(['es']);
  });

  it('lets the owner sign a document without a flow, which then is done and downloadable', async () => {
    const { id, pdf } = await storedDocument(t.deps, { ownerId: ada.id, pages: 2 });
    const before = await getDocument(adaToken, id);
    expect(before).toMatchObject({
      state: 'uploaded',
      currentUserCanSign: true,
      pdfDownloadUrl: null,
      smartCardType: null,
    });
    // Signing alone is no flow waiting for her: the document stays in "uploaded", not in to_do.
    const toDo = await t.app.inject({ url: '/api/documents/to_do', headers: bearer(adaToken) });
    expect(toDo.json<{ data: unknown[] }>().data).toEqual([]);

    const versionId = await requestSignature(t, adaToken, id, {
      smart_card_id: adaCard,
      location: 'Amsterdam',
      reason: 'Approved',
      sign_page_number: 2,
      signature_top: '0.7000',
      signature_left: '0.2000',
    });
    // Kept as the strings that were sent.
    expect(await versionRow(t.deps, versionId)).toMatchObject({
      top_fraction: '0.7000',
      left_fraction: '0.2000',
    });
    expect((await documentRow(t.deps, id)).state).toBe('uploaded');
    expect(await confirmDocumentVersion(t.deps, input(versionId, ada))).toEqual({ outcome: 'signed' });

    expect(signer.calls).toEqual([
      expect.objectContaining({
        placement: { kind: 'inline', pageNumber: 2, top: 0.7, left: 0.2 },
        signer: { userId: ada.id, fullName: 'Ada Lovelace', email: ada.email },
        smartCardType: 'personal_level3',
        location: 'Amsterdam',
        reason: 'Approved',
        signatureIndex: 0,
      }),
    ]);
    expect(Buffer.from(signer.calls[0]?.pdf ?? []).equals(pdf)).toBe(true);
    const row = await documentRow(t.deps, id);
    expect(row.state).toBe('signed');
    expect(row.signed_file_key).not.toBeNull();
    expect((await t.deps.store.getBuffer(row.file_key)).equals(pdf)).toBe(true);
    const version = await versionRow(t.deps, versionId);
    expect(version).toMatchObject({ state: 'signed', file_key: row.signed_file_key });
    const after = await getDocument(adaToken, id);
    expect(after).toMatchObject({
      state: 'signed',
      currentUserCanSign: false,
      smartCardType: 'personal_level3',
    });
    expect(after.pdfDownloadUrl).not.toBeNull();
    expect((await getVersion(adaToken, versionId)).json<VersionResponse>().data.attributes.state).toBe(
      'signed',
    );
    const audit = await t.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('document_id', '=', id)
      .where('action', '=', 'document.signed')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      actor_id: ada.id,
      ip: '192.0.2.1',
      user_agent: 'test',
      sha256_before: version.sha256_before,
      sha256_after: version.sha256_after,
    });
    // The page images are rendered again, from the signed file.
    const jobs = await t.deps.db.selectFrom('jobs').select('kind').where('document_id', '=', id).execute();
    expect(jobs).toHaveLength(1);
    // Answering again is harmless.
    expect(await confirmDocumentVersion(t.deps, input(versionId, ada))).toEqual({
      outcome: 'already_answered',
    });
    expect(await denyDocumentVersion(t.deps, input(versionId, ada))).toEqual({ outcome: 'already_answered' });
    expect(signer.calls).toHaveLength(1);
  });

  it('denies a request: nothing is signed, and a later confirmation is harmless', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(id, 'standard', [bob.email]);
    const versionId = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    expect(await denyDocumentVersion(t.deps, input(versionId, bob))).toEqual({ outcome: 'denied' });
    expect(await denyDocumentVersion(t.deps, input(versionId, bob))).toEqual({ outcome: 'already_answered' });
    expect(await confirmDocumentVersion(t.deps, input(versionId, bob))).toEqual({
      outcome: 'already_answered',
    });
    expect((await getVersion(bobToken, versionId)).json<VersionResponse>().data.attributes.state).toBe(
      'denied',
    );
    expect(signer.calls).toHaveLength(0);
    expect((await documentRow(t.deps, id)).state).toBe('awaiting_signs');
    expect(await auditActions(t.deps, id)).toContain('document.sign_denied');
  });

  it('cancels a request whose signer may no longer sign (a refusal meanwhile)', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(id, 'standard', [bob.email, carol.email]);
    const versionId = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/documents/${id}/refuse_sign_flow`,
      headers: bearer(carolToken),
      payload: {},
    });
    expect(refused.statusCode).toBe(200);
    expect(await confirmDocumentVersion(t.deps, input(versionId, bob))).toEqual({ outcome: 'cancelled' });
    expect(signer.calls).toHaveLength(0);
    expect((await documentRow(t.deps, id)).state).toBe('refused');
  });

  it('stops at the plan’s monthly limit: sign_limit_exceeded, nothing signed', async () => {
    await t.close();
    await build({ PARAPH_SIGN_LIMIT_BASIC: '1' });
    const first = await storedDocument(t.deps, { ownerId: ada.id });
    const second = await storedDocument(t.deps, { ownerId: ada.id });
    const body = { smart_card_id: adaCard, location: 'Amsterdam', ...SOLO_PLACEMENT };
    const one = await requestSignature(t, adaToken, first.id, body);
    expect(await confirmDocumentVersion(t.deps, input(one, ada))).toEqual({ outcome: 'signed' });
    const two = await requestSignature(t, adaToken, second.id, body);
    expect(await confirmDocumentVersion(t.deps, input(two, ada))).toEqual({ outcome: 'sign_limit_exceeded' });
    expect((await getVersion(adaToken, two)).json<VersionResponse>().data.attributes.state).toBe(
      'sign_limit_exceeded',
    );
    const row = await documentRow(t.deps, second.id);
    expect([row.state, row.signed_file_key]).toEqual(['uploaded', null]);
    expect(signer.calls).toHaveLength(1);

    // Only this calendar month counts: the signature made in February does not.
    await t.deps.db
      .updateTable('audit_events')
      .set({ at: '2025-02-28T23:59:59.000Z' })
      .where('action', '=', 'document.signed')
      .execute();
    const three = await requestSignature(t, adaToken, second.id, body);
    expect(await confirmDocumentVersion(t.deps, input(three, ada))).toEqual({ outcome: 'signed' });
  });

  it('ends in presign_error when the PDF cannot be prepared, the stored file untouched', async () => {
    const { id, pdf } = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(id, 'standard', [bob.email, carol.email]);
    const filesBefore = await storedFiles(t);
    signer.failWith = new PresignError('The PDF cannot be read');
    const versionId = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    expect(await confirmDocumentVersion(t.deps, input(versionId, bob))).toEqual({ outcome: 'presign_error' });
    expect((await getVersion(bobToken, versionId)).json<VersionResponse>().data.attributes.state).toBe(
      'presign_error',
    );
    const row = await documentRow(t.deps, id);
    expect([row.state, row.signed_file_key]).toEqual(['awaiting_signs', null]);
    expect((await t.deps.store.getBuffer(row.file_key)).equals(pdf)).toBe(true);
    expect(await storedFiles(t)).toEqual(filesBefore);
    expect(await auditActions(t.deps, id)).toContain('document.sign_failed');
    // Bob may try again once the file is fixed; nothing stays locked.
    expect((await getDocument(bobToken, id)).currentUserCanSign).toBe(true);
  });

  it('makes a confirmation wait while another signature of the document is applied', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(id, 'standard', [bob.email, carol.email]);
    const carolCard = (
      await t.deps.db
        .selectFrom('smart_cards')
        .select('id')
        .where('user_id', '=', carol.id)
        .executeTakeFirstOrThrow()
    ).id;
    const bobVersion = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    const carolVersion = await requestSignature(t, carolToken, id, {
      smart_card_id: carolCard,
      location: 'Delft',
    });
    let release = (): void => undefined;
    signer.gate = new Promise((resolve) => {
      release = resolve;
    });
    const bobDone = confirmDocumentVersion(t.deps, input(bobVersion, bob));
    // Bob's signature is being applied: the document is `signing` and nobody else may act on it.
    await expect.poll(async () => (await documentRow(t.deps, id)).state).toBe('signing');
    expect((await getDocument(carolToken, id)).currentUserCanSign).toBe(false);
    const carolDone = confirmDocumentVersion(t.deps, input(carolVersion, carol));
    await expect.poll(() => signer.calls.length).toBe(1);
    signer.gate = null;
    release();
    expect(await Promise.all([bobDone, carolDone])).toEqual([{ outcome: 'signed' }, { outcome: 'signed' }]);
    // Carol signed the file Bob's signature produced.
    expect(Buffer.from(signer.calls[1]?.pdf ?? []).toString('latin1')).toContain(`%signed by ${bob.email}`);
    const row = await documentRow(t.deps, id);
    expect(row.state).toBe('signed');
    const signed = (await auditActions(t.deps, id)).filter((action) => action === 'document.signed');
    expect(signed).toHaveLength(2);
    // Only the latest signed file is kept beside the original: it holds every signature.
    const files = (await storedFiles(t)).filter((file) => file.includes('/signed/'));
    expect(files).toHaveLength(1);
    expect(files[0]).toContain(carolVersion);
  });

  it('aborts a signature left `signing` by a crashed process after the grace period', async () => {
    const { id } = await storedDocument(t.deps, { ownerId: ada.id });
    await flow(id, 'standard', [bob.email]);
    const versionId = await requestSignature(t, bobToken, id, {
      smart_card_id: bobCard,
      location: 'Utrecht',
    });
    // What a process that died in the middle leaves behind.
    signer.failWith = new Error('the process died');
    signer.gate = new Promise(() => undefined);
    void confirmDocumentVersion(t.deps, input(versionId, bob));
    await expect.poll(async () => (await versionRow(t.deps, versionId)).state).toBe('signing');
    expect((await documentRow(t.deps, id)).state).toBe('signing');

    expect(await runSigningExpiry(t.deps)).toBe(0);
    now = new Date(START.getTime() + SIGNING_GRACE_MS + 1000);
    expect(await runSigningExpiry(t.deps)).toBe(1);
    expect((await documentRow(t.deps, id)).state).toBe('awaiting_signs');
    expect((await versionRow(t.deps, versionId)).state).toBe('cancelled');
    expect((await getDocument(bobToken, id)).currentUserCanSign).toBe(true);
  });
});
