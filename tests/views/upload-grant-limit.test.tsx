// The upload grant limit as the person sees it: a 429 from POST /upload_requests says to wait a minute,
// not that the document could not be uploaded for no reason.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it } from 'vitest';
import { fromCallback, fromPromise } from 'xstate';
import type { CreateDocumentInput, SendToStorageInput, UploadTicket } from '../../machines/types';
import { uploadMachine, type StorageEvent } from '../../machines/upload.machine';
import type { ModalActorRef } from '../../src/app/modal-context';
import { UploadModal } from '../../src/views/upload/upload-modal';
import { renderView } from './render';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

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

it('asks to wait a minute when too many uploads were started', async () => {
  const logic = uploadMachine.provide({
    actors: {
      requestUpload: fromPromise<UploadTicket>(() =>
        Promise.reject({ code: 'too_many_requests', status: 429 }),
      ),
      sendToStorage: fromCallback<StorageEvent, SendToStorageInput>(() => undefined),
      createDocument: fromPromise<{ id: string }, CreateDocumentInput>(() => Promise.resolve({ id: 'd' })),
    },
    actions: { closeModal: () => modal.send({ type: 'modal.close' }) },
  });
  renderView(
    <ShellHarness shell={shell}>
      <UploadModal logic={logic} />
    </ShellHarness>,
  );
  const user = userEvent.setup();

  await user.upload(
    screen.getByLabelText('Choose a PDF'),
    new File(['%PDF-1.7\n'], 'contract.pdf', { type: 'application/pdf' }),
  );

  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain(
    'You have started many uploads in a short time. Wait a minute, then try again.',
  );
});
