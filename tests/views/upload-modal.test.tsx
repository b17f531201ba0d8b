import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type Actor } from 'xstate';
import { modalMachine } from '../../machines/modal.machine';
import { SAMPLE_TICKET } from '../../machines/samples';
import type { CreateDocumentInput, SendToStorageInput, UploadTicket } from '../../machines/types';
import { uploadMachine, type StorageEvent } from '../../machines/upload.machine';
import { ModalContext } from '../../src/app/modal-context';
import { UploadModal } from '../../src/views/upload/upload-modal';
import { renderView } from './render';

const pdf = (name: string) => new File(['%PDF-1.7\n'], name, { type: 'application/pdf' });
const text = (name: string) => new File(['hello'], name, { type: 'text/plain' });

let modal: Actor<typeof modalMachine>;

beforeEach(() => {
  modal = createActor(modalMachine).start();
  modal.send({ type: 'modal.open', name: 'documentUpload' });
});

afterEach(() => modal.stop());

/** The upload machine with fake effects: the storage POST reports `percent` and then waits forever. */
function renderModal({ percent = 42 }: { percent?: number } = {}) {
  const requestUpload = vi.fn(async (): Promise<UploadTicket> => SAMPLE_TICKET);
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
    <ModalContext.Provider value={modal}>
      <UploadModal logic={logic} />
    </ModalContext.Provider>,
  );
  return { requestUpload, sendToStorage, createDocument };
}

describe('upload modal', () => {
  it('refuses a file that is not a PDF before any call', async () => {
    const { requestUpload } = renderModal();
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(screen.getByLabelText('Choose a PDF'), text('notes.txt'));

    expect(within(screen.getByRole('alert')).getByText('Only PDF files can be uploaded.')).toBeTruthy();
    expect(requestUpload).not.toHaveBeenCalled();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('refuses two files dropped at once before any call', async () => {
    const { requestUpload } = renderModal();

    fireEvent.drop(screen.getByRole('group', { name: 'Drag a PDF here or choose one' }), {
      dataTransfer: { files: [pdf('one.pdf'), pdf('two.pdf')], types: ['Files'] },
    });

    expect(within(await screen.findByRole('alert')).getByText('Upload one file at a time.')).toBeTruthy();
    expect(requestUpload).not.toHaveBeenCalled();
  });

  it('shows the progress the storage upload reports', async () => {
    const { requestUpload, sendToStorage } = renderModal({ percent: 42 });
    const user = userEvent.setup();

    await user.upload(screen.getByLabelText('Choose a PDF'), pdf('contract.pdf'));

    const progress = await screen.findByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('42');
    expect(progress.getAttribute('aria-valuemax')).toBe('100');
    expect(screen.getByText('42%')).toBeTruthy();
    expect(screen.getByText('Uploading contract.pdf')).toBeTruthy();
    expect(requestUpload).toHaveBeenCalledTimes(1);
    expect(sendToStorage.mock.calls[0]?.[0].file.name).toBe('contract.pdf');
  });

  it('closes through the modal machine on Escape', async () => {
    renderModal();
    const user = userEvent.setup();
    expect(screen.getByRole('dialog', { name: 'Upload a document' })).toBeTruthy();

    await user.keyboard('{Escape}');

    expect(modal.getSnapshot().matches('closed')).toBe(true);
  });

  it('cancels silently from the cancel button', async () => {
    renderModal();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await act(async () => {});
    expect(modal.getSnapshot().matches('closed')).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
