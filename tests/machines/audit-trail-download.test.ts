import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { auditTrailDownloadMachine, auditTrailFileName } from '../../machines/audit-trail-download.machine';
import { controlledPromise, flush } from './support';

function startDownload(originalFilename = 'Supplier agreement.pdf') {
  const fetchAuditTrail = controlledPromise<Blob, { documentId: string }>();
  const saveFile = vi.fn();
  const machine = auditTrailDownloadMachine.provide({
    actors: { fetchAuditTrail: fetchAuditTrail.logic },
    actions: { saveFile: (_, params) => saveFile(params.blob, params.fileName) },
  });
  const actor = createActor(machine, { input: { documentId: 'd1', originalFilename } }).start();
  return { actor, fetchAuditTrail, saveFile };
}

describe('audit-trail-download', () => {
  it('fetches the PDF for the document and saves it under the audit trail name', async () => {
    const { actor, fetchAuditTrail, saveFile } = startDownload();
    expect(fetchAuditTrail.calls).toHaveLength(0);
    actor.send({ type: 'download.request' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(fetchAuditTrail.last().input).toEqual({ documentId: 'd1' });
    // A second click while it runs starts nothing.
    actor.send({ type: 'download.request' });
    expect(fetchAuditTrail.calls).toHaveLength(1);

    const pdf = new Blob(['%PDF-1.7'], { type: 'application/pdf' });
    fetchAuditTrail.last().result.resolve(pdf);
    await flush();
    expect(saveFile).toHaveBeenCalledWith(pdf, 'Supplier agreement - audit trail.pdf');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('says a download failed until dismissed, and can try again', async () => {
    const { actor, fetchAuditTrail, saveFile } = startDownload();
    actor.send({ type: 'download.request' });
    fetchAuditTrail.last().result.reject({ code: 'not_found', status: 404 });
    await flush();
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('not_found');
    expect(saveFile).not.toHaveBeenCalled();

    actor.send({ type: 'message.dismiss' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();

    actor.send({ type: 'download.request' });
    fetchAuditTrail.last().result.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('network');
    actor.send({ type: 'download.request' });
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(fetchAuditTrail.calls).toHaveLength(3);
  });

  it('names the file after the document, without its .pdf', () => {
    expect(auditTrailFileName('Contract.PDF')).toBe('Contract - audit trail.pdf');
    expect(auditTrailFileName('notes.pdf.pdf')).toBe('notes.pdf - audit trail.pdf');
    expect(auditTrailFileName('scan')).toBe('scan - audit trail.pdf');
    expect(auditTrailFileName('.pdf')).toBe('document - audit trail.pdf');
  });
});
