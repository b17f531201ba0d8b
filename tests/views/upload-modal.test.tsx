import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createIntl } from 'react-intl';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import { SAMPLE_TICKET } from '../samples';
import type { CreateDocumentInput, SendToStorageInput, UploadTicket } from '../../machines/types';
import { uploadMachine, type StorageEvent } from '../../machines/upload.machine';
import type { ModalActorRef } from '../../src/app/modal-context';
import { storageFailureCode } from '../../src/services/upload';
import { formatSizeLimit, UploadModal } from '../../src/views/upload/upload-modal';
import { findOpenDialog, renderView } from './render';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

const pdf = (name: string) => new File(['%PDF-1.7\n'], name, { type: 'application/pdf' });
const text = (name: string) => new File(['hello'], name, { type: 'text/plain' });
/** A PDF that reports `size` bytes without holding them (jsdom would have to allocate them). */
function pdfOfSize(name: string, size: number): File {
  const file = pdf(name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

let shell: TestShell;
let modal: ModalActorRef;

// The upload modal open in the shell, as the sidebar's Upload button leaves it.
beforeEach(() => {
  shell = createTestShell();
  const child = shell.getSnapshot().children.modal;
  if (!child) throw new Error('the shell has no modal');
  modal = child;
  modal.send({ type: 'modal.open', name: 'documentUpload' });
});

/**
 * The upload machine with fake effects: the storage POST reports `percent` and then waits forever. Resolves
 * once the dialog is the open, active modal (see findOpenDialog), with that dialog.
 */
async function renderModal({
  percent = 42,
  ticket = SAMPLE_TICKET,
}: { percent?: number; ticket?: UploadTicket } = {}) {
  const requestUpload = vi.fn(async (): Promise<UploadTicket> => ticket);
  const sendToStorage = vi.fn((_input: SendToStorageInput, sendBack: (event: StorageEvent) => void) => {
    sendBack({ type: 'upload.progress', percent });
  });
  const createDocument = vi.fn(async (_input: CreateDocumentInput) => ({ id: 'd-new' }));
  const logic = uploadMachine.provide({
    actors: {
      requestUpload: fromPromise<UploadTicket>(() => requestUpload()),
      sendToStorage: fromCallback<StorageEvent, SendToStorageInput>(({ input, sendBack }) => {
        sendToStorage(input, sendBack);
      }),
      createDocument: fromPromise<{ id: string }, CreateDocumentInput>(({ input }) => createDocument(input)),
    },
    actions: { closeModal: () => modal.send({ type: 'modal.close' }) },
  });
  renderView(
    <ShellHarness shell={shell}>
      <UploadModal logic={logic} />
    </ShellHarness>,
  );
  const dialog = await findOpenDialog('Upload a document');
  return { dialog, requestUpload, sendToStorage, createDocument };
}

describe('upload modal', () => {
  it('refuses a file that is not a PDF before any call, naming it', async () => {
    const { requestUpload } = await renderModal();
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(screen.getByLabelText('Choose a PDF'), text('notes.txt'));

    expect(screen.getByRole('alert').textContent).toBe(
      'notes.txt is not a PDF file. Save it as a PDF, then upload the PDF.',
    );
    expect(requestUpload).not.toHaveBeenCalled();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('refuses an empty PDF before any call, naming it, and takes another file', async () => {
    const { requestUpload } = await renderModal();
    const user = userEvent.setup();

    await user.upload(
      screen.getByLabelText('Choose a PDF'),
      new File([], 'blank.pdf', { type: 'application/pdf' }),
    );

    expect(screen.getByRole('alert').textContent).toBe(
      'blank.pdf is empty (0 bytes). Check that it was saved or downloaded completely, then choose it again.',
    );
    expect(requestUpload).not.toHaveBeenCalled();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));

    expect((await screen.findByRole('progressbar')).getAttribute('aria-valuenow')).toBe('42');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(requestUpload).toHaveBeenCalledTimes(1);
  });

  it('refuses two files dropped at once before any call', async () => {
    const { requestUpload } = await renderModal();

    fireEvent.drop(screen.getByRole('group', { name: 'Drag a PDF here or choose one' }), {
      dataTransfer: { files: [pdf('one.pdf'), pdf('two.pdf')], types: ['Files'] },
    });

    expect((await screen.findByRole('alert')).textContent).toBe('Upload one file at a time.');
    expect(requestUpload).not.toHaveBeenCalled();
  });

  it('shows the progress the storage upload reports', async () => {
    const { requestUpload, sendToStorage } = await renderModal({ percent: 42 });
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));

    const progress = await screen.findByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('42');
    expect(progress.getAttribute('aria-valuemax')).toBe('100');
    expect(screen.getByText('42%')).toBeVisible();
    expect(screen.getByText('Uploading contract.pdf')).toBeVisible();
    expect(requestUpload).toHaveBeenCalledTimes(1);
    expect(sendToStorage.mock.calls[0]?.[0].file.name).toBe('contract.pdf');
  });

  it('refuses a PDF over the limit at once, naming the limit, and offers another file', async () => {
    const { requestUpload, sendToStorage } = await renderModal();
    expect(SAMPLE_TICKET.maxFileSize).toBe(50 * 1024 * 1024);
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdfOfSize('scan.pdf', 60 * 1024 * 1024));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'scan.pdf is larger than 50 MB. Compress it or split it into smaller PDFs, then upload those.',
    );
    expect(sendToStorage).not.toHaveBeenCalled();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Choose another file' }));

    expect(screen.queryByRole('alert')).toBeNull();
    expect(requestUpload).toHaveBeenCalledTimes(1);
    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('smaller.pdf'));
    expect((await screen.findByRole('progressbar')).getAttribute('aria-valuenow')).toBe('42');
    expect(requestUpload).toHaveBeenCalledTimes(2);
    expect(sendToStorage.mock.calls.map(([input]) => input.file.name)).toEqual(['smaller.pdf']);
  });

  it.each([
    [
      'not_a_pdf',
      'contract.pdf is not a valid PDF, or it is damaged. Open it to check, save it as a PDF again, then upload the new file.',
    ],
    [
      'encrypted_pdf',
      'contract.pdf is protected by a password, and protected PDFs cannot be signed. Save a copy without the password, then upload that copy.',
    ],
    [
      'empty_file',
      'contract.pdf is empty (0 bytes). Check that it was saved or downloaded completely, then choose it again.',
    ],
    [
      'too_many_pages',
      'contract.pdf has too many pages. Split it into smaller PDFs and upload them one at a time.',
    ],
  ])(
    'says why the server refused the stored file (%s), naming it, and offers another file',
    async (code, message) => {
      const { requestUpload, sendToStorage, createDocument } = await renderModal();
      sendToStorage.mockImplementationOnce((_input, sendBack) => sendBack({ type: 'upload.stored' }));
      createDocument.mockRejectedValueOnce({ code, status: 422 });
      const user = userEvent.setup();

      await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));

      expect((await screen.findByRole('alert')).textContent).toBe(message);
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Choose another file' }));
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByLabelText('Choose a PDF').getAttribute('type')).toBe('file');
      expect(requestUpload).toHaveBeenCalledTimes(1);
    },
  );

  it('says that the file is empty when the store refuses it as too small', async () => {
    const { sendToStorage, createDocument } = await renderModal();
    const refusal =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooSmall</Code>' +
      '<Message>Your proposed upload is smaller than the minimum allowed size.</Message></Error>';
    sendToStorage.mockImplementationOnce((_input, sendBack) =>
      sendBack({ type: 'upload.failed', code: storageFailureCode(refusal) }),
    );
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'contract.pdf is empty (0 bytes). Check that it was saved or downloaded completely, then choose it again.',
    );
    expect(screen.getByRole('button', { name: 'Choose another file' }).tagName).toBe('BUTTON');
    expect(createDocument).not.toHaveBeenCalled();
  });

  it('keeps "Try again" for a failure that the same file can get past', async () => {
    const { requestUpload } = await renderModal();
    requestUpload.mockRejectedValueOnce({ code: 'internal_error', status: 500 });
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));
    await user.click(await screen.findByRole('button', { name: 'Try again' }));

    expect(screen.queryByRole('button', { name: 'Choose another file' })).toBeNull();
    expect(await screen.findByText('Uploading contract.pdf')).toBeVisible();
    expect(requestUpload).toHaveBeenCalledTimes(2);
  });

  it('closes through the modal machine on Escape', async () => {
    const { dialog } = await renderModal();
    const user = userEvent.setup();
    // Esc reaches the dialog from within.
    expect(dialog.contains(document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');

    expect(modal.getSnapshot().matches('closed')).toBe(true);
  });

  it('cancels silently from the cancel button', async () => {
    await renderModal();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await act(async () => {});
    expect(modal.getSnapshot().matches('closed')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('formatSizeLimit', () => {
  it.each([
    ['en', 52_428_800, '50 MB'],
    ['fr', 52_428_800, '50 Mo'],
    ['en', 2.5 * 1024 * 1024, '2.5 MB'],
  ])('in %s, %d bytes read as %s', (locale, bytes, expected) => {
    // Some locales put a no-break space between the number and the unit.
    expect(formatSizeLimit(createIntl({ locale }), bytes).replace(/\s/g, ' ')).toBe(expected);
  });
});

describe('storageFailureCode', () => {
  it('reads an S3 EntityTooLarge refusal as file_too_large', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooLarge</Code>' +
      '<Message>Your proposed upload exceeds the maximum allowed size.</Message></Error>';
    expect(storageFailureCode(xml)).toBe('file_too_large');
  });

  it('reads an S3 EntityTooSmall refusal as empty_file (the policy starts at 1 byte)', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooSmall</Code>' +
      '<Message>Your proposed upload is smaller than the minimum allowed size.</Message></Error>';
    expect(storageFailureCode(xml)).toBe('empty_file');
  });

  it.each([
    ['another S3 error', '<Error><Code>AccessDenied</Code></Error>'],
    ['an empty answer', ''],
    ['a message that only mentions the code', '<Error><Message>EntityTooLarge</Message></Error>'],
    ['a code that is an Object property', '<Error><Code>constructor</Code></Error>'],
  ])('reads %s as a storage failure', (_, body) => {
    expect(storageFailureCode(body)).toBe('storage');
  });
});
