import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleFlowSigning } from '../samples/signing';
import type { DocumentVersionState } from '../../machines/signing-rules';
import { flush } from '../machines/support';
import { findOpenDialog, waitForDialogsClosed } from './render';
import { PENDING, renderSignScreen } from './sign-render';

async function openConfirmation() {
  const rendered = renderSignScreen({ data: sampleFlowSigning() });
  const proceed = await screen.findByRole('button', { name: 'Continue' });
  // Continue stays focusable but inert until the form is editable (the smart cards and the location
  // are still being read); a click before that does nothing.
  await waitFor(() => expect(proceed.getAttribute('aria-disabled')).not.toBe('true'));
  await rendered.user.click(proceed);
  const dialog = await findOpenDialog('Confirm your signature');
  const answer = async (state: DocumentVersionState) => {
    await act(async () => {
      rendered.versions.last().result.resolve(state);
      await flush();
    });
  };
  return { ...rendered, dialog, answer };
}

describe('sign confirmation dialog', () => {
  // The QR code's module loads lazily on first use; transforming it cold on a busy machine can outlast a
  // wait, so the first test is not the one that pays for it.
  beforeAll(async () => {
    await import('../../src/views/sign/qr-code');
  });

  it('shows the link of the identity app and a QR code of it while it waits', async () => {
    const { dialog } = await openConfirmation();
    const view = within(dialog);
    expect(view.getByRole('link', { name: /Open the identity app/ }).getAttribute('href')).toBe(
      PENDING.confirmationUrl,
    );
    expect(view.getByText('Waiting for your confirmation…')).toBeVisible();
    expect(view.getByText(/You can still confirm in the identity app/)).toBeVisible();
    // The code arrives lazily; when its fallback is swapped, jsdom's focus manager may mark the dialog
    // hidden (see findOpenDialog), which a browser does not: the code is looked up regardless.
    const qr = await view.findByRole('img', {
      hidden: true,
      name: 'QR code of the link to the identity app',
    });
    expect(qr.querySelectorAll('rect').length).toBeGreaterThan(10);
  });

  it('resends the confirmation, and disables the button meanwhile', async () => {
    const { dialog, user, resend } = await openConfirmation();
    const button = within(dialog).getByRole('button', { name: 'Resend Confirmation' });
    await user.click(button);
    expect(resend.last().input).toEqual({ versionId: 'v1' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await act(async () => {
      resend.last().result.reject({ code: 'network' });
      await flush();
    });
    expect(within(dialog).getByText('The confirmation could not be sent again.')).toBeVisible();
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });

  it('says the signature is confirmed, and opens the document on close', async () => {
    const { dialog, user, answer, goToDocument } = await openConfirmation();
    await answer('signed');
    expect(await within(dialog).findByText('Your signature has been confirmed.')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Open the document' }));
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'sign_limit_exceeded',
      'You have reached the maximum number of signatures within your current plan. Please check your account plan.',
    ],
    [
      'presign_error',
      'The document could not be prepared for signing. Please validate the PDF, correct it and upload it again.',
    ],
    ['denied', 'The signature was denied or cancelled in the identity app.'],
  ] as const)('a %s version says so, and goes back to the form with the input', async (state, text) => {
    const { dialog, user, answer, goToDocument } = await openConfirmation();
    await answer(state);
    expect(await within(dialog).findByText(text)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Back to the form' }));
    await waitForDialogsClosed();
    const location = screen.getByRole('textbox', { name: /Location/ }) as HTMLInputElement;
    expect(location.value).toBe('London');
    expect(goToDocument).not.toHaveBeenCalled();
  });

  it('closing while it waits goes to the document page', async () => {
    const { dialog, user, goToDocument } = await openConfirmation();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(goToDocument).toHaveBeenCalledTimes(1);
  });
});
