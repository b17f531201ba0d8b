import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { sampleFile } from '../samples';
import type { SelectedFile } from '../../machines/types';
import { verificationMachine, type VerificationReport } from '../../machines/verification.machine';
import { sampleVerificationReport } from '../samples/verification';
import { controlledPromise, flush } from './support';

const PDF = sampleFile('contract.pdf', 'application/pdf');
const OTHER = sampleFile('annex.pdf', 'application/pdf');

function startVerification() {
  const verifyPdf = controlledPromise<VerificationReport, SelectedFile>();
  const actor = createActor(verificationMachine.provide({ actors: { verifyPdf: verifyPdf.logic } })).start();
  return { actor, verifyPdf };
}

async function failedWith(code: string) {
  const verification = startVerification();
  verification.actor.send({ type: 'file.selected', files: [PDF] });
  verification.verifyPdf.last().result.reject({ code, status: code === 'network' ? undefined : 422 });
  await flush();
  return verification;
}

describe('verification', () => {
  it('sends one chosen PDF and keeps its report', async () => {
    const { actor, verifyPdf } = startVerification();
    expect(actor.getSnapshot().matches({ idle: 'waiting' })).toBe(true);
    actor.send({ type: 'file.selected', files: [PDF] });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(verifyPdf.last().input).toBe(PDF);
    const report = sampleVerificationReport();
    verifyPdf.last().result.resolve(report);
    await flush();
    expect(actor.getSnapshot().matches('report')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ file: PDF, report, errorCode: null });
  });

  it.each([
    ['a text file', [sampleFile('notes.txt', 'text/plain')], 'not_pdf'],
    ['two PDFs', [PDF, OTHER], 'one_file_only'],
    ['an empty PDF', [sampleFile('blank.pdf', 'application/pdf', '')], 'empty_file'],
  ])('refuses %s before any call', (_, files, code) => {
    const { actor, verifyPdf } = startVerification();
    actor.send({ type: 'file.selected', files });
    expect(actor.getSnapshot().matches({ idle: 'rejected' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe(code);
    expect(verifyPdf.calls).toHaveLength(0);
  });

  it('takes a dragged .pdf that the browser gave no type, and ignores an empty selection', () => {
    const { actor, verifyPdf } = startVerification();
    actor.send({ type: 'file.selected', files: [] });
    expect(actor.getSnapshot().matches({ idle: 'waiting' })).toBe(true);
    actor.send({ type: 'file.selected', files: [sampleFile('scan.PDF', '')] });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(verifyPdf.calls).toHaveLength(1);
  });

  it('does not start a second call while one file is being checked', () => {
    const { actor, verifyPdf } = startVerification();
    actor.send({ type: 'file.selected', files: [PDF] });
    actor.send({ type: 'file.selected', files: [OTHER] });
    expect(verifyPdf.calls).toHaveLength(1);
    expect(actor.getSnapshot().context.file).toBe(PDF);
  });

  it('retries the same file after a failure that was not the file’s fault', async () => {
    const { actor, verifyPdf } = await failedWith('network');
    expect(actor.getSnapshot().matches('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('network');
    expect(actor.getSnapshot().can({ type: 'verification.retry' })).toBe(true);
    actor.send({ type: 'verification.retry' });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(verifyPdf.calls.map((call) => call.input)).toEqual([PDF, PDF]);
  });

  it.each(['not_a_pdf', 'encrypted_pdf', 'file_too_large', 'pdf_too_complex'])(
    'offers only another file once the server refused the file itself (%s)',
    async (code) => {
      const { actor, verifyPdf } = await failedWith(code);
      expect(actor.getSnapshot().can({ type: 'verification.retry' })).toBe(false);
      actor.send({ type: 'verification.retry' });
      expect(actor.getSnapshot().matches('error')).toBe(true);
      actor.send({ type: 'verification.reset' });
      expect(actor.getSnapshot().matches({ idle: 'waiting' })).toBe(true);
      expect(actor.getSnapshot().context).toEqual({ file: null, report: null, errorCode: null });
      expect(verifyPdf.calls).toHaveLength(1);
    },
  );

  it('checks another file from a report or an error, at once or back at the drop zone', async () => {
    const { actor, verifyPdf } = startVerification();
    actor.send({ type: 'file.selected', files: [PDF] });
    verifyPdf.last().result.resolve(sampleVerificationReport());
    await flush();
    actor.send({ type: 'file.selected', files: [OTHER] });
    expect(actor.getSnapshot().matches('uploading')).toBe(true);
    expect(actor.getSnapshot().context.report).toBeNull();
    expect(verifyPdf.last().input).toBe(OTHER);
    verifyPdf.last().result.reject({ code: 'too_many_requests', status: 429 });
    await flush();
    actor.send({ type: 'file.selected', files: [PDF] });
    expect(verifyPdf.last().input).toBe(PDF);
    verifyPdf.last().result.resolve(sampleVerificationReport());
    await flush();
    actor.send({ type: 'verification.reset' });
    expect(actor.getSnapshot().matches({ idle: 'waiting' })).toBe(true);
    expect(actor.getSnapshot().context.report).toBeNull();
  });
});
