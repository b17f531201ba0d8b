import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordAudit } from '../../server/audit.ts';
import { describeAction } from '../../server/documents/audit-trail-pdf.ts';
import {
  bearer,
  buildTestApp,
  expectMatchesContract,
  insertDocument,
  insertSignFlow,
  type TestApp,
  type TestUser,
} from './helpers.ts';

const BEFORE = 'a'.repeat(64);
const AFTER = 'b'.repeat(64);
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

// pdftotext (poppler) reads the PDF independently of pdf-lib, as any reader would.
async function textOf(bytes: Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'paraph-audit-'));
  try {
    const file = path.join(dir, 'trail.pdf');
    await fs.writeFile(file, bytes);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('GET /documents/{id}/audit_trail', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let adaToken: string;

  beforeEach(async () => {
    t = await buildTestApp();
    ada = await t.createUser({ email: 'ada@example.test', fullName: 'Ada Lovelace' });
    bob = await t.createUser({ email: 'bob@example.test', fullName: 'Bob Baker' });
    adaToken = await t.signIn(ada.email);
  });
  afterEach(async () => {
    await t.close();
  });

  const fetchTrail = (id: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/documents/${id}/audit_trail`, headers });

  async function documentWithHistory(originalFilename = 'Supplier agreement.pdf'): Promise<string> {
    const id = await insertDocument(t.deps, { ownerId: ada.id, originalFilename, pageCount: 3 });
    await insertSignFlow(t.deps, id, {
      state: 'awaiting_signs',
      participants: [{ role: 'signatory', email: bob.email, userId: bob.id, state: 'pending' }],
    });
    // Recorded out of order: the trail sorts by time.
    await recordAudit(t.deps.db, {
      documentId: id,
      actorId: bob.id,
      action: 'document.signed',
      at: new Date('2030-01-03T10:00:00.000Z'),
      ip: '203.0.113.9',
      userAgent: UA,
      sha256Before: BEFORE,
      sha256After: AFTER,
    });
    await recordAudit(t.deps.db, {
      documentId: id,
      actorId: ada.id,
      action: 'document.uploaded',
      at: new Date('2030-01-01T09:00:00.000Z'),
      ip: '198.51.100.7',
      userAgent: UA,
      sha256After: BEFORE,
    });
    await recordAudit(t.deps.db, {
      documentId: id,
      actorId: ada.id,
      action: 'sign_flow.created',
      at: new Date('2030-01-02T08:30:00.000Z'),
      details: { state: 'awaiting_signs' },
    });
    await recordAudit(t.deps.db, {
      documentId: id,
      actorId: null,
      action: 'document.rendering_failed',
      at: new Date('2030-01-02T09:00:00.000Z'),
    });
    return id;
  }

  it('answers the owner a PDF attachment listing every event in time order', async () => {
    const id = await documentWithHistory();
    const response = await fetchTrail(id, bearer(adaToken));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Supplier agreement - audit trail.pdf"; filename*=UTF-8''Supplier%20agreement%20-%20audit%20trail.pdf`,
    );
    const bytes = response.rawPayload;
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);

    const text = await textOf(bytes);
    expect(text).toContain('Audit trail');
    expect(text).toContain('File name: Supplier agreement.pdf');
    expect(text).toContain(`Document id: ${id}`);
    expect(text).toContain(`Original SHA-256: ${'0'.repeat(64)}`);
    expect(text).toContain('Pages: 3');
    expect(text).toContain('Owner: Ada Lovelace <ada@example.test>');
    expect(text).toContain('Events (4)');
    const order = [
      '2030-01-01T09:00:00.000Z Document uploaded',
      '2030-01-02T08:30:00.000Z Sign flow started (the document is now awaiting signatures)',
      '2030-01-02T09:00:00.000Z The page images could not be made',
      '2030-01-03T10:00:00.000Z Signed',
    ].map((line) => text.replace(/ +/g, ' ').indexOf(line));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('By: Bob Baker <bob@example.test>');
    expect(text).toContain('By: system');
    expect(text).toContain('IP address: 203.0.113.9');
    expect(text).toContain('User agent: Mozilla/5.0 (X11; Linux x86_64)');
    expect(text).toContain(`SHA-256 before: ${BEFORE}`);
    expect(text).toContain(`SHA-256 after: ${AFTER}`);
  });

  it('includes what the API itself recorded, and reading the trail records nothing', async () => {
    const id = await documentWithHistory();
    const archive = await t.app.inject({
      method: 'PATCH',
      url: `/api/documents/${id}/archive`,
      headers: { ...bearer(adaToken), 'user-agent': 'ArchiveAgent/1.0' },
    });
    expect(archive.statusCode).toBe(200);
    const count = async () =>
      (await t.deps.db.selectFrom('audit_events').select('id').where('document_id', '=', id).execute())
        .length;
    const before = await count();
    const response = await fetchTrail(id, bearer(adaToken));
    expect(response.statusCode).toBe(200);
    expect(await count()).toBe(before);
    const text = await textOf(response.rawPayload);
    expect(text).toContain('Archived (for this person only)');
    expect(text).toContain('User agent: ArchiveAgent/1.0');
  });

  it('is the participants’ too, and a 404 for anyone else, an unknown id, and 401 without a token', async () => {
    const id = await documentWithHistory();
    const bobToken = await t.signIn(bob.email);
    expect((await fetchTrail(id, bearer(bobToken))).statusCode).toBe(200);

    const eve = await t.createUser({ email: 'eve@example.test', fullName: 'Eve' });
    const stranger = await fetchTrail(id, bearer(await t.signIn(eve.email)));
    expect(stranger.statusCode).toBe(404);
    expectMatchesContract('getDocumentAuditTrail', 404, stranger.json());
    expect(stranger.json()).toMatchObject({ code: 'not_found' });

    const unknown = await fetchTrail('no-such-document', bearer(adaToken));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(stranger.json());

    const anonymous = await fetchTrail(id, {});
    expect(anonymous.statusCode).toBe(401);
    expectMatchesContract('getDocumentAuditTrail', 401, anonymous.json());
  });

  it('a participant who deleted the document for themselves gets 404', async () => {
    const id = await documentWithHistory();
    await t.deps.db
      .insertInto('document_hides')
      .values({ document_id: id, user_id: bob.id, hidden_at: new Date().toISOString() })
      .execute();
    expect((await fetchTrail(id, bearer(await t.signIn(bob.email)))).statusCode).toBe(404);
  });

  it('shows characters Helvetica cannot draw as "?" and encodes the file name for the header', async () => {
    const id = await documentWithHistory('合同 “final” €.pdf');
    await recordAudit(t.deps.db, {
      documentId: id,
      actorId: bob.id,
      action: 'sign_flow.refused',
      at: new Date('2030-01-04T00:00:00.000Z'),
      details: { reason: 'Wrong amount 🙃\nsee page 2' },
    });
    const response = await fetchTrail(id, bearer(adaToken));
    expect(response.statusCode).toBe(200);
    const disposition = response.headers['content-disposition'];
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent('合同 “final” €')}`);
    expect(disposition).toContain('%20-%20audit%20trail.pdf');
    const text = await textOf(response.rawPayload);
    expect(text).toContain('File name: ?? “final” €.pdf');
    expect(text).toContain('Refused to sign, giving the reason “Wrong amount ? see page 2”');
  });

  it('runs a long trail onto several pages, numbered', async () => {
    const id = await insertDocument(t.deps, { ownerId: ada.id, originalFilename: 'long.pdf' });
    const start = Date.parse('2030-02-01T00:00:00.000Z');
    for (let index = 0; index < 90; index += 1) {
      await recordAudit(t.deps.db, {
        documentId: id,
        actorId: ada.id,
        action: index % 2 === 0 ? 'sign_flow.updated' : 'document.signed',
        at: new Date(start + index * 60_000),
        ip: `192.0.2.${index}`,
        userAgent: UA,
        sha256Before: BEFORE,
        sha256After: AFTER,
      });
    }
    const response = await fetchTrail(id, bearer(adaToken));
    expect(response.statusCode).toBe(200);
    const pages = (await PDFDocument.load(response.rawPayload)).getPageCount();
    expect(pages).toBeGreaterThan(2);
    const text = await textOf(response.rawPayload);
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain('IP address: 192.0.2.0');
    expect(text).toContain('IP address: 192.0.2.89');
    expect(text).toContain(new Date(start + 89 * 60_000).toISOString());
  });
});

describe('describeAction', () => {
  // Every code the server writes (grep recordAudit / audit( in server/): none falls back to the raw code.
  const CODES = [
    'document.uploaded',
    'document.rendering_failed',
    'document.archived',
    'document.deleted_for_participant',
    'document.deleted',
    'document.autodeleted',
    'document.sign_requested',
    'document.signed',
    'document.sign_denied',
    'document.sign_cancelled',
    'document.sign_failed',
    'document.sign_limit_exceeded',
    'sign_flow.created',
    'sign_flow.updated',
    'sign_flow.approved',
    'sign_flow.rejected',
    'sign_flow.refused',
    'sign_flow.cancelled',
    'invite.accepted',
  ];

  it('has words for every action code', () => {
    for (const code of CODES) expect(describeAction(code, {}), code).not.toContain(code);
    expect(describeAction('something.new', {})).toBe('Event something.new');
  });

  it('says how a signature was made, or why it was not', () => {
    expect(
      describeAction('document.signed', {
        smartCardType: 'personal_level3',
        location: 'Leiden',
        reason: 'Agreed',
        state: 'signed',
      }),
    ).toBe(
      'Signed with a personal level 3 smart card, in “Leiden”, giving the reason “Agreed” (the document is now signed)',
    );
    expect(describeAction('document.sign_failed', { reason: 'presign_error' })).toBe(
      'Signature failed: the PDF could not be prepared for signing',
    );
    expect(describeAction('document.sign_cancelled', { reason: 'something_else' })).toBe(
      'Signature request cancelled',
    );
    expect(describeAction('sign_flow.approved', { reviewComplete: true, state: 'awaiting_signs' })).toBe(
      'Approved; the review is complete (the document is now awaiting signatures)',
    );
  });
});
