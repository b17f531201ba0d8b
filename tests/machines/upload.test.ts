import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { SAMPLE_TICKET, SAMPLE_TICKET_TINY_LIMIT, sampleFile } from '../samples';
import type { CreateDocumentInput, SendToStorageInput, UploadTicket } from '../../machines/types';
import { nextProgress, uploadMachine, type StorageEvent } from '../../machines/upload.machine';
import { controlledPromise, flush } from './support';

const PDF = sampleFile('contract.pdf', 'application/pdf');

function startUpload() {
  const requestUpload = controlledPromise<UploadTicket>();
  const createDocument = controlledPromise<{ id: string }, CreateDocumentInput>();
  const storage = {
    inputs: [] as SendToStorageInput[],
    report: (_event: StorageEvent) => {},
    abort: vi.fn(),
  };
  const effects = { showDocument: vi.fn(), refreshList: vi.fn(), closeModal: vi.fn() };
  const machine = uploadMachine.provide({
    actors: {
      requestUpload: requestUpload.logic,
      createDocument: createDocument.logic,
      sendToStorage: fromCallback<StorageEvent, SendToStorageInput>(({ input, sendBack }) => {
        storage.inputs.push(input);
        storage.report = sendBack;
        return () => storage.abort();
      }),
    },
    actions: {
      showDocument: (_, params) => effects.showDocument(params),
      refreshList: (_, params) => effects.refreshList(params),
      closeModal: () => effects.closeModal(),
    },
  });
  const clock = new SimulatedClock();
  const actor = createActor(machine, { clock }).start();
  return { actor, clock, requestUpload, createDocument, storage, effects };
}

type Upload = ReturnType<typeof startUpload>;

async function uploadedToStorage(): Promise<Upload> {
  const upload = startUpload();
  upload.actor.send({ type: 'file.selected', files: [PDF] });
  upload.requestUpload.last().result.resolve(SAMPLE_TICKET);
  await flush();
  return upload;
}

describe('upload', () => {
  it.each([
    ['a text file', [sampleFile('notes.txt', 'text/plain')], 'not_pdf'],
    ['a .pdf name without the PDF type', [sampleFile('scan.pdf', '')], 'not_pdf'],
    ['two PDFs', [PDF, sampleFile('annex.pdf', 'application/pdf')], 'one_file_only'],
  ])('refuses %s before any call', (_, files, code) => {
    const { actor, requestUpload } = startUpload();
    actor.send({ type: 'file.selected', files });
    expect(actor.getSnapshot().matches({ waiting: 'rejected' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe(code);
    expect(requestUpload.calls).toHaveLength(0);
  });

  it('refuses an empty PDF before any call, keeping it so that the message can name it', () => {
    const { actor, requestUpload } = startUpload();
    const blank = sampleFile('blank.pdf', 'application/pdf', '');
    expect(blank.size).toBe(0);
    actor.send({ type: 'file.selected', files: [blank] });
    expect(actor.getSnapshot().matches({ waiting: 'rejected' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: 'empty_file', file: blank });
    expect(requestUpload.calls).toHaveLength(0);
  });

  it('keeps a refused file that is not a PDF, and no file for several', () => {
    const { actor } = startUpload();
    const notes = sampleFile('notes.txt', 'text/plain');
    actor.send({ type: 'file.selected', files: [notes] });
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: 'not_pdf', file: notes });
    actor.send({ type: 'file.selected', files: [PDF, sampleFile('annex.pdf', 'application/pdf')] });
    expect(actor.getSnapshot().context).toMatchObject({ errorCode: 'one_file_only', file: null });
  });

  it('ignores an empty selection', () => {
    const { actor } = startUpload();
    expect(actor.getSnapshot().can({ type: 'file.selected', files: [] })).toBe(false);
    actor.send({ type: 'file.selected', files: [] });
    expect(actor.getSnapshot().matches({ waiting: 'idle' })).toBe(true);
  });

  it('accepts a PDF after a refused choice', () => {
    const { actor, requestUpload } = startUpload();
    actor.send({ type: 'file.selected', files: [sampleFile('notes.txt', 'text/plain')] });
    actor.send({ type: 'file.selected', files: [PDF] });
    expect(actor.getSnapshot().matches({ uploading: 'requesting' })).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(requestUpload.calls).toHaveLength(1);
  });

  it('posts the file to storage with the presigned fields and reports progress that never goes back', async () => {
    const { actor, storage } = await uploadedToStorage();
    expect(actor.getSnapshot().matches({ uploading: 'sending' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(storage.inputs).toEqual([{ ticket: SAMPLE_TICKET, file: PDF }]);

    storage.report({ type: 'upload.progress', percent: 30 });
    expect(actor.getSnapshot().context.progress).toBe(30);
    storage.report({ type: 'upload.progress', percent: 10 });
    expect(actor.getSnapshot().context.progress).toBe(30);
    storage.report({ type: 'upload.progress', percent: 150 });
    expect(actor.getSnapshot().context.progress).toBe(100);
  });

  it('creates the document, shows it, refreshes the list at 1 s and closes the modal at 3 s', async () => {
    const { actor, clock, storage, createDocument, effects } = await uploadedToStorage();
    storage.report({ type: 'upload.stored' });
    expect(actor.getSnapshot().matches({ uploading: 'creating' })).toBe(true);
    expect(createDocument.last().input).toEqual({
      originalFilename: 'contract.pdf',
      fileUrl: `${SAMPLE_TICKET.url}/${SAMPLE_TICKET.key}`,
      filename: SAMPLE_TICKET.key,
    });
    createDocument.last().result.resolve({ id: 'doc-new' });
    await flush();

    expect(actor.getSnapshot().value).toBe('finished');
    expect(actor.getSnapshot().context).toMatchObject({ documentId: 'doc-new', progress: 100 });
    expect(effects.showDocument).toHaveBeenCalledWith({ documentId: 'doc-new' });

    clock.increment(999);
    expect(effects.refreshList).not.toHaveBeenCalled();
    clock.increment(1);
    expect(effects.refreshList).toHaveBeenCalledWith({ documentId: 'doc-new' });
    clock.increment(1_999);
    expect(effects.closeModal).not.toHaveBeenCalled();
    expect(actor.getSnapshot().can({ type: 'upload.cancel' })).toBe(false);
    clock.increment(1);
    expect(effects.closeModal).toHaveBeenCalledTimes(1);
    expect(effects.refreshList).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('aborts the storage POST silently when the user cancels', async () => {
    const { actor, storage, createDocument, effects } = await uploadedToStorage();
    storage.report({ type: 'upload.progress', percent: 45 });
    actor.send({ type: 'upload.cancel' });
    expect(storage.abort).toHaveBeenCalledTimes(1);
    expect(effects.closeModal).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(actor.getSnapshot().hasTag('error')).toBe(false);
    expect(createDocument.calls).toHaveLength(0);
    expect(effects.showDocument).not.toHaveBeenCalled();
  });

  it('shows a storage failure and retries with the same file and a new ticket', async () => {
    const { actor, storage, requestUpload } = await uploadedToStorage();
    storage.report({ type: 'upload.progress', percent: 60 });
    storage.report({ type: 'upload.failed', code: 'storage' });
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('storage');
    expect(storage.abort).toHaveBeenCalledTimes(1);

    actor.send({ type: 'upload.retry' });
    expect(actor.getSnapshot().matches({ uploading: 'requesting' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ file: PDF, progress: 0, errorCode: null });
    expect(requestUpload.calls).toHaveLength(2);
  });

  it('refuses a file over the ticket limit without sending it to storage', async () => {
    const { actor, requestUpload, storage, createDocument } = startUpload();
    actor.send({ type: 'file.selected', files: [PDF] });
    expect(PDF.size).toBeGreaterThan(SAMPLE_TICKET_TINY_LIMIT.maxFileSize);
    requestUpload.last().result.resolve(SAMPLE_TICKET_TINY_LIMIT);
    await flush();

    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      errorCode: 'file_too_large',
      maxFileSize: SAMPLE_TICKET_TINY_LIMIT.maxFileSize,
      progress: 0,
    });
    expect(storage.inputs).toEqual([]);
    expect(createDocument.calls).toHaveLength(0);
  });

  it('sends a file exactly at the limit', async () => {
    const { actor, requestUpload, storage } = startUpload();
    actor.send({ type: 'file.selected', files: [PDF] });
    const ticket = { ...SAMPLE_TICKET, maxFileSize: PDF.size };
    requestUpload.last().result.resolve(ticket);
    await flush();

    expect(actor.getSnapshot().matches({ uploading: 'sending' })).toBe(true);
    expect(actor.getSnapshot().context.maxFileSize).toBe(PDF.size);
    expect(storage.inputs).toEqual([{ ticket, file: PDF }]);
  });

  it('goes back to choosing a file when a too-large file is retried, without a new request', async () => {
    const { actor, requestUpload } = startUpload();
    actor.send({ type: 'file.selected', files: [PDF] });
    requestUpload.last().result.resolve(SAMPLE_TICKET_TINY_LIMIT);
    await flush();

    actor.send({ type: 'upload.retry' });

    expect(actor.getSnapshot().matches({ waiting: 'idle' })).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ file: null, ticket: null, errorCode: null });
    expect(requestUpload.calls).toHaveLength(1);

    const smaller = sampleFile('smaller.pdf', 'application/pdf');
    actor.send({ type: 'file.selected', files: [smaller] });
    expect(actor.getSnapshot().matches({ uploading: 'requesting' })).toBe(true);
    expect(actor.getSnapshot().context.file).toBe(smaller);
    expect(requestUpload.calls).toHaveLength(2);
  });

  it.each([
    [
      'the store refuses the file as too large',
      (upload: Upload) => upload.storage.report({ type: 'upload.failed', code: 'file_too_large' }),
    ],
    [
      'the API refuses the stored file as too large',
      async (upload: Upload) => {
        upload.storage.report({ type: 'upload.stored' });
        upload.createDocument.last().result.reject({ code: 'file_too_large', status: 422 });
        await flush();
      },
    ],
  ])('also offers another file when %s', async (_, refuse) => {
    const upload = await uploadedToStorage();
    await refuse(upload);
    expect(upload.actor.getSnapshot().context).toMatchObject({
      errorCode: 'file_too_large',
      maxFileSize: SAMPLE_TICKET.maxFileSize,
    });

    upload.actor.send({ type: 'upload.retry' });

    expect(upload.actor.getSnapshot().matches({ waiting: 'idle' })).toBe(true);
    expect(upload.requestUpload.calls).toHaveLength(1);
  });

  it('reads the store refusing an empty file as empty_file and offers another file', async () => {
    const upload = await uploadedToStorage();
    upload.storage.report({ type: 'upload.failed', code: 'empty_file' });
    expect(upload.actor.getSnapshot().context).toMatchObject({ errorCode: 'empty_file', file: PDF });

    upload.actor.send({ type: 'upload.retry' });

    expect(upload.actor.getSnapshot().matches({ waiting: 'idle' })).toBe(true);
    expect(upload.requestUpload.calls).toHaveLength(1);
  });

  it.each(['not_a_pdf', 'encrypted_pdf', 'empty_file', 'too_many_pages'])(
    'goes back to choosing a file when the API refused it as %s, without a new request',
    async (code) => {
      const { actor, storage, createDocument, requestUpload } = await uploadedToStorage();
      storage.report({ type: 'upload.stored' });
      createDocument.last().result.reject({ code, status: 422 });
      await flush();
      expect(actor.getSnapshot().value).toBe('error');
      expect(actor.getSnapshot().context).toMatchObject({ errorCode: code, file: PDF });

      actor.send({ type: 'upload.retry' });

      expect(actor.getSnapshot().matches({ waiting: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context).toMatchObject({ file: null, errorCode: null });
      expect(requestUpload.calls).toHaveLength(1);
      expect(createDocument.calls).toHaveLength(1);
    },
  );

  it('keeps the API code when the server refuses the document', async () => {
    const { actor, storage, createDocument } = await uploadedToStorage();
    storage.report({ type: 'upload.stored' });
    createDocument.last().result.reject({ code: 'not_a_pdf', status: 422 });
    await flush();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.errorCode).toBe('not_a_pdf');
  });

  it('reports a failed upload request as a network error when the API was not reached', async () => {
    const { actor, requestUpload } = startUpload();
    actor.send({ type: 'file.selected', files: [PDF] });
    requestUpload.last().result.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().context.errorCode).toBe('network');
  });
});

describe('nextProgress', () => {
  it.each([
    [0, 42.4, 42],
    [50, 20, 50],
    [50, 120, 100],
    [0, -5, 0],
    [30, Number.NaN, 30],
  ])('from %d, a report of %d gives %d', (current, reported, expected) => {
    expect(nextProgress(current, reported)).toBe(expected);
  });
});
