// Real e-mail in a real browser: Ada starts a sign flow; Bob's turn notification reaches his mailbox on
// the runner's SMTP server; on his phone he follows its link, is asked to sign in, lands on the document
// and signs it, confirming through the link of the identity app's message; then Ada's completion message
// leads her to the page where the signed PDF downloads. The messages' HTML is looked at too.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { linksIn, mailsTo, type StoredMail } from './mailbox.ts';
import {
  accessToken,
  baseUrl,
  closeWelcomeIfDue,
  IDP_CONFIRM_TIMEOUT_MS,
  personIn,
  snap,
  submitSignInForm,
  uploadViaApi,
} from './support.ts';

const ADA = 'ada@paraph.test';
const BOB = 'bob@paraph.test';
const PHONE = { width: 375, height: 812 };

/** The one message to `email` with this subject, once it has arrived (the sender job runs every few seconds). */
async function mailTo(email: string, subject: string): Promise<StoredMail> {
  await expect
    .poll(() => mailsTo(email).filter((mail) => mail.subject === subject).length, { timeout: 60_000 })
    .toBe(1);
  const mail = mailsTo(email).find((entry) => entry.subject === subject);
  if (!mail) throw new Error(`no message "${subject}" to ${email}`);
  return mail;
}

/** The message as a mail client shows its HTML, at the phone's and the desktop's widths. */
async function lookAt(page: Page, mail: StoredMail, name: string): Promise<void> {
  await page.setContent(mail.html);
  await snap(page, name);
}

test('Bob follows his e-mail to the document on his phone and signs it; Ada hears it is signed', async ({
  browser,
}) => {
  const ada = await personIn(browser, ADA);
  const token = (await accessToken(ada)) ?? '';
  const name = `Mailed lease ${Date.now()}.pdf`;
  const id = await uploadViaApi(ada, token, name, await makePdf({ pages: 1, text: 'Lease' }));
  const flow = await ada.request.post(`${baseUrl()}/api/documents/${id}/sign_flow`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { sign_flow: { type: 'standard', signatory_email_addresses: [BOB], comment: 'Sign <b>today</b>' } },
  });
  expect(flow.status()).toBe(201);

  // Bob's mailbox: his turn, from Ada, with one absolute link to the document's page and no token.
  const turn = await mailTo(BOB, `It is your turn to sign “${name}”`);
  expect(turn.text).toContain('from Ada Lovelace is waiting for you to sign it');
  // Her comment is her words: text in the message, never markup.
  expect(turn.text).toContain('Sign <b>today</b>');
  expect(turn.html).toContain('Sign &lt;b&gt;today&lt;/b&gt;');
  const documentUrl = `${baseUrl()}/app/document/${id}`;
  expect(linksIn(turn)).toEqual([documentUrl]);
  expect(turn.html).toContain(`href="${documentUrl}"`);

  const phone = await browser.newContext({ viewport: PHONE, isMobile: true });
  const bob = await phone.newPage();
  await lookAt(bob, turn, 'mail-turn');
  await bob.goto(documentUrl);
  // Not signed in on this phone: the app asks first, then comes back to the document.
  await expect(bob).toHaveURL(/\/app\/login\?returnUrl=/);
  await bob
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  await submitSignInForm(bob, BOB);
  await expect(bob).toHaveURL(new RegExp(`/app/document/${id}$`));
  await closeWelcomeIfDue(bob);
  const actions = bob.getByRole('complementary', { name: 'Document details' }).getByRole('group', {
    name: 'Actions',
  });
  await actions.getByRole('link', { name: 'Sign', exact: true }).click();
  await expect(bob).toHaveURL(new RegExp(`/app/sign/${id}$`));
  await bob.getByRole('textbox', { name: 'Location' }).fill('Utrecht');
  await bob.getByRole('button', { name: 'Continue' }).click();
  const dialog = bob.getByRole('dialog', { name: 'Confirm your signature' });
  await expect(dialog).toBeVisible();
  const shown = await dialog.getByRole('link', { name: 'Open the identity app' }).getAttribute('href');

  // The identity app's request reached his mailbox too, with the same link as the dialog.
  const request = await mailTo(BOB, `Confirm your signature on “${name}”`);
  const [confirmUrl] = linksIn(request);
  expect(confirmUrl).toBe(shown);
  const identityApp = await (await browser.newContext({ viewport: PHONE, isMobile: true })).newPage();
  await identityApp.goto(confirmUrl ?? '');
  await expect(identityApp).toHaveURL(/\/sign_in\?return_to=/);
  await submitSignInForm(identityApp, BOB);
  await expect(identityApp.getByRole('heading', { name: 'Confirm your signature' })).toBeVisible();
  await identityApp.getByRole('button', { name: 'Confirm' }).click({ timeout: IDP_CONFIRM_TIMEOUT_MS });
  await expect(identityApp.getByText(/^(Signed|Confirmed: the signature is being applied)$/)).toBeVisible({
    timeout: IDP_CONFIRM_TIMEOUT_MS,
  });
  await identityApp.context().close();

  // The flow is complete: Ada (the owner) and Bob both hear it, with the page the signed PDF downloads from.
  const completed = await mailTo(ADA, `“${name}” is signed`);
  expect(linksIn(completed)).toEqual([documentUrl]);
  expect(linksIn(await mailTo(BOB, `“${name}” is signed`))).toEqual([documentUrl]);
  await ada.goto(linksIn(completed)[0] ?? '');
  await expect(
    ada
      .getByRole('complementary', { name: 'Document details' })
      .getByRole('button', { name: 'Download', exact: true }),
  ).toBeVisible();
  await lookAt(ada, completed, 'mail-completed');
  await phone.close();
  await ada.context().close();
});
