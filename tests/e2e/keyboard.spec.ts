// The keyboard-only journey (Accessibility): sign in, upload, start a flow, place the
// signature, sign and confirm, with nothing but keys after the first page.goto. Each modal met on the way
// must take focus when it opens and give it back (never to <body>) when it closes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import type { FileChooser, Locator, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { accessToken, baseUrl, DEMO_PASSWORD, IDP_CONFIRM_TIMEOUT_MS } from './support.ts';

const EMAIL = 'erin@paraph.test';
const NAME = 'Erin Evans';
const FILE_NAME = 'Keyboard only agreement.pdf';

async function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/** Tab (or Shift+Tab) until the target has focus, as a person does; fails if it is never reached. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  if (await isFocused(target)) return;
  throw new Error(`${String(target)} was not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}`);
}

/**
 * Space on the focused file input opens the system's file chooser. Once, in a CI run with three journeys at
 * once, no chooser came within 15 s of the press while the input kept its focus; a person presses again,
 * and so does this, until one comes.
 */
async function openFileChooser(page: Page): Promise<FileChooser> {
  let chooser: FileChooser | null = null;
  await expect
    .poll(
      async () => {
        const next = page.waitForEvent('filechooser', { timeout: 5_000 }).catch(() => null);
        await page.keyboard.press('Space');
        chooser = await next;
        return chooser !== null;
      },
      { timeout: 30_000, intervals: [0] },
    )
    .toBe(true);
  if (chooser === null) throw new Error('no file chooser opened');
  return chooser;
}

/** Tab into the target's radio group (focus lands on its checked radio), then arrows to the target. */
async function chooseRadio(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  const group = await target.evaluate((element) => (element as HTMLInputElement).name);
  for (let presses = 0; presses < 80; presses += 1) {
    const inGroup = await page.evaluate(
      (name) => (document.activeElement as HTMLInputElement | null)?.name === name,
      group,
    );
    if (inGroup) break;
    await page.keyboard.press('Tab');
  }
  for (let presses = 0; presses < 10 && !(await isFocused(target)); presses += 1) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(target).toBeFocused();
  // Arrows check the radio they land on; Space covers a group whose first Tab left it unchecked.
  if (!(await target.isChecked())) await page.keyboard.press('Space');
  await expect(target).toBeChecked();
}

function focusIsIn(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((within) => document.activeElement?.closest(within) != null, selector);
}

/** Where focus is, for the "never <body>" checks: the tag name of document.activeElement. */
function focusedTag(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.tagName ?? 'BODY');
}

async function expectFocusInDialog(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect.poll(() => focusIsIn(page, '[role=dialog], [role=alertdialog]')).toBe(true);
}

async function expectFocusBackInPage(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  await expect.poll(() => focusedTag(page)).not.toBe('BODY');
  expect(await focusIsIn(page, '[role=dialog], [role=alertdialog]')).toBe(false);
}

async function welcomeIsDue(page: Page): Promise<boolean> {
  const response = await page.request.get(`${baseUrl()}/api/profiles`, {
    headers: { Authorization: `Bearer ${(await accessToken(page)) ?? ''}` },
  });
  expect(response.status()).toBe(200);
  const profile = (await response.json()) as { data: { attributes: { welcomeScreenWatched: boolean } } };
  return !profile.data.attributes.welcomeScreenWatched;
}

test('a keyboard-only journey: sign in, upload, start a flow, place, sign and confirm', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'paraph-e2e-keyboard-'));
  const pdfFile = path.join(dir, FILE_NAME);
  writeFileSync(pdfFile, await makePdf({ pages: 1, text: 'Keyboard only agreement' }));

  // Sign in: the login page's link, then the server's form.
  await page.goto(`${baseUrl()}/app/`);
  await expect(page).toHaveURL(/\/app\/login/);
  await tabTo(page, page.getByRole('link', { name: /sign in/i }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sign_in/);
  await tabTo(page, page.getByLabel('E-mail'));
  await page.keyboard.type(EMAIL);
  await tabTo(page, page.getByLabel('Password'));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/documents/);

  // Erin's first sign-in opens the welcome modal (unless another journey of this run met it first).
  const welcome = page.getByRole('dialog', { name: 'Welcome to Paraph' });
  if (await welcomeIsDue(page)) {
    await expectFocusInDialog(page, welcome);
    await tabTo(page, welcome.getByRole('button', { name: 'Get started' }));
    await page.keyboard.press('Enter');
    await expectFocusBackInPage(page, welcome);
  }

  // Upload: the modal takes focus, the file input opens the system's file chooser.
  const uploadButton = page.getByRole('button', { name: 'Upload', exact: true }).first();
  await tabTo(page, uploadButton);
  await page.keyboard.press('Enter');
  const upload = page.getByRole('dialog', { name: 'Upload a document' });
  await expectFocusInDialog(page, upload);
  await tabTo(page, upload.locator('input[type=file]'));
  await (await openFileChooser(page)).setFiles(pdfFile);
  await expect(upload.getByText(`${FILE_NAME} has been uploaded.`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expectFocusBackInPage(page, upload);

  // The new document is the selected row; open it.
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(list.getByRole('row', { name: new RegExp(FILE_NAME) })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await tabTo(page, page.getByRole('link', { name: 'Open document' }).first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app\/document\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: FILE_NAME })).toBeVisible();
  const documentUrl = page.url();
  const id = documentUrl.split('/').pop() ?? '';

  // A sign flow with Erin herself as the one signatory, her box placed on the page.
  await tabTo(
    page,
    page
      .getByRole('button', { name: 'Start a sign flow' })
      .or(page.getByRole('link', { name: 'Start a sign flow' }))
      .first(),
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}$`));
  await chooseRadio(page, page.getByRole('radio', { name: 'Signatory', exact: true }));
  const search = page.getByRole('combobox', { name: 'Add people' });
  await tabTo(page, search);
  await page.keyboard.type('erin');
  await expect(
    page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name: new RegExp(NAME) }),
  ).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Signatories' })).toContainText(NAME);
  await chooseRadio(page, page.getByRole('radio', { name: 'On the pages (place each signature)' }));
  await expect(page.getByText('0 of 1 signatures placed')).toBeVisible();
  await tabTo(page, page.getByRole('link', { name: 'Place the signatures' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}/signatures$`));
  // The page image is rendered in the background; the editor waits for it by itself.
  const sheet = page.getByRole('group', { name: 'Page 1: click the page to place a signature' });
  await expect(sheet.locator('canvas').last()).toBeVisible({ timeout: 60_000 });
  await tabTo(page, page.getByRole('button', { name: 'Place', exact: true }));
  await page.keyboard.press('Enter');
  // Place puts the box in the middle of the page and moves focus onto it; arrows move it.
  const box = page.getByRole('button', { name: new RegExp(`Move the signature 1: ${NAME}`) });
  await expect(box).toBeFocused();
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: `Signature of ${NAME} placed on page 1` }),
  ).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Save the signatures' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}$`));
  await expect(page.getByText('1 of 1 signatures placed')).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Start the sign flow' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));

  // Sign: location typed, the smart card chosen with arrows, Continue.
  await tabTo(page, page.getByRole('link', { name: 'Sign', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/sign/${id}$`));
  await expect(page.getByRole('heading', { name: 'Sign the document' })).toBeVisible();
  const location = page.getByRole('textbox', { name: 'Location' });
  await tabTo(page, location);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Brussels');
  await expect(location).toHaveValue('Brussels');
  await chooseRadio(page, page.getByRole('radio', { name: /Erin's ID card/ }));
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await tabTo(page, continueButton);
  await page.keyboard.press('Enter');
  const confirmation = page.getByRole('dialog', { name: 'Confirm your signature' });
  await expectFocusInDialog(page, confirmation);
  const link = await confirmation.getByRole('link', { name: 'Open the identity app' }).getAttribute('href');
  if (!link) throw new Error('the confirmation dialog has no link to the identity app');

  // The identity app, in another tab of the same browser (already signed in there): Tab to Confirm.
  const idp = await page.context().newPage();
  await idp.goto(link);
  await expect(idp.getByRole('heading', { name: 'Confirm your signature' })).toBeVisible();
  await tabTo(idp, idp.getByRole('button', { name: 'Confirm' }));
  await idp.keyboard.press('Enter');
  await expect(idp.getByText(/^(Signed|Confirmed: the signature is being applied)$/)).toBeVisible({
    timeout: IDP_CONFIRM_TIMEOUT_MS,
  });
  await idp.close();

  // Back in the app: the dialog notices on its next poll, and Enter opens the signed document.
  await expect(confirmation.getByText('Your signature has been confirmed.')).toBeVisible({
    timeout: 20_000,
  });
  await tabTo(page, confirmation.getByRole('button', { name: 'Open the document' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
  await expectFocusBackInPage(page, confirmation);
  const details = page.getByRole('complementary', { name: 'Document details' });
  await expect(details).toContainText('Signed (1/1)');
  await expect(details.getByRole('region', { name: 'Signatories' })).toContainText(
    new RegExp(`${NAME}\\s*Signed`),
  );
});
