// [5/6] in a real browser: Bob then Ada sign an ordered flow from the sign screen, each confirming on a
// phone-sized identity app page in a browser context of its own; the final PDF carries both signatures,
// valid for Debian's pdfsig, and both stamps where they were placed. Then the two confirmation errors reach
// their messages: Frank's plan is used up, and Ada's scanned invoice cannot be prepared.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import type { Browser, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { GEOCODED_CITY } from './global-setup.ts';
import {
  accessToken,
  baseUrl,
  documentNamed,
  IDP_CONFIRM_TIMEOUT_MS,
  personIn,
  signIn,
  snap,
  submitSignInForm,
  uploadViaApi,
} from './support.ts';

const OUT_DIR = 'test-results/signing';
// Where the faked position is; the geocoder stand-in names it GEOCODED_CITY.
const POSITION = { latitude: 52.0907, longitude: 5.1214 };
const BOB_BOX = { page: 1, top: 0.2, left: 0.1 };
const ADA_BOX = { page: 2, top: 0.55, left: 0.6 };

/** A person at their desk who lets the app know where they are. */
async function personAt(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    geolocation: POSITION,
    permissions: ['geolocation'],
  });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** The same person's phone: the identity app, reached from the confirmation dialog's link. */
const SIGNED = /^(Signed|Confirmed: the signature is being applied)$/;

async function confirmOnPhone(
  browser: Browser,
  email: string,
  link: string,
  { shot, outcome = SIGNED }: { shot?: string; outcome?: RegExp } = {},
): Promise<void> {
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  const page = await phone.newPage();
  await page.goto(link);
  // Not signed in on this device yet: the identity app asks first, then comes back to the request.
  await expect(page).toHaveURL(/\/sign_in\?return_to=/);
  await submitSignInForm(page, email);
  await expect(page).toHaveURL(link);
  await expect(page.getByRole('heading', { name: 'Confirm your signature' })).toBeVisible();
  if (shot) await page.screenshot({ path: `test-results/screens/${shot}-375.png`, fullPage: true });
  await page.getByRole('button', { name: 'Confirm' }).click({ timeout: IDP_CONFIRM_TIMEOUT_MS });
  // The identity app says how it ended, and offers nothing more to press.
  await expect(page.getByText(outcome)).toBeVisible({ timeout: IDP_CONFIRM_TIMEOUT_MS });
  await expect(page.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  await phone.close();
}

/** From the document page to the open confirmation dialog; answers the identity app's link. */
async function askToSign(page: Page, documentId: string, location: 'locate' | string): Promise<string> {
  await page.goto(`${baseUrl()}/app/document/${documentId}`);
  await page.getByRole('link', { name: 'Sign', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/app/sign/${documentId}$`));
  await expect(page.getByRole('heading', { name: 'Sign the document' })).toBeVisible();
  const field = page.getByRole('textbox', { name: 'Location' });
  if (location === 'locate') {
    await field.fill('');
    await page.getByRole('button', { name: 'Locate me' }).click();
    await expect(field).toHaveValue(GEOCODED_CITY);
  } else {
    await field.fill(location);
  }
  return continueToConfirmation(page);
}

async function continueToConfirmation(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm your signature' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'QR code of the link to the identity app' })).toBeVisible();
  const link = await dialog.getByRole('link', { name: 'Open the identity app' }).getAttribute('href');
  if (!link) throw new Error('the confirmation dialog has no link to the identity app');
  return link;
}

/** Reads a binary PGM (pdftoppm -gray): width, height and one byte per pixel. */
function readPgm(file: string): { width: number; height: number; pixels: Buffer } {
  const data = readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 64).toString('latin1'));
  if (!header?.[1] || !header[2]) throw new Error(`${file} is not a binary PGM`);
  const width = Number(header[1]);
  const height = Number(header[2]);
  return { width, height, pixels: data.subarray(header[0].length) };
}

/** The share of dark pixels inside a box given by its top-left corner in page fractions. */
function inkIn(
  image: { width: number; height: number; pixels: Buffer },
  box: { top: number; left: number },
): number {
  // Spec 001 §9: 28 % of the page width wide and 15 % of the page width high.
  const x0 = Math.round(box.left * image.width);
  const y0 = Math.round(box.top * image.height);
  const x1 = Math.min(image.width, x0 + Math.round(0.28 * image.width));
  const y1 = Math.min(image.height, y0 + Math.round(0.15 * image.width));
  let dark = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) if ((image.pixels[y * image.width + x] ?? 255) < 160) dark += 1;
  }
  return dark / ((x1 - x0) * (y1 - y0));
}

test('Bob then Ada sign an ordered flow, each confirming in the identity app; the PDF verifies', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  mkdirSync(OUT_DIR, { recursive: true });
  const ada = await personAt(browser, 'ada@paraph.test');
  const token = await accessToken(ada);
  if (!token) throw new Error('no token after sign-in');
  const name = 'Consulting agreement.pdf';
  const id = await uploadViaApi(ada, token, name, await makePdf({ pages: 2, text: 'Consulting agreement' }));
  // The flow itself was built through the form in [4/6]'s journeys; here it is set up directly.
  const fraction = (value: number) => value.toFixed(4);
  const flow = await ada.request.post(`${baseUrl()}/api/documents/${id}/sign_flow`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      sign_flow: {
        type: 'ordered',
        signatory_email_addresses: ['bob@paraph.test', 'ada@paraph.test'],
        signature_coordinates: [
          { email_address: 'bob@paraph.test', ...placed(BOB_BOX) },
          { email_address: 'ada@paraph.test', ...placed(ADA_BOX) },
        ],
      },
    },
  });
  expect(flow.status(), await flow.text()).toBe(201);
  function placed(box: typeof BOB_BOX) {
    return { sign_page_number: box.page, top: fraction(box.top), left: fraction(box.left) };
  }

  // Not Ada's turn yet: her document offers no Sign.
  await ada.goto(`${baseUrl()}/app/document/${id}`);
  await expect(ada.getByRole('heading', { name })).toBeVisible();
  await expect(ada.getByRole('link', { name: 'Sign', exact: true })).toHaveCount(0);

  // Bob signs first; the location comes from his faked position through the local geocoder.
  const bob = await personAt(browser, 'bob@paraph.test');
  await bob.goto(`${baseUrl()}/app/document/${id}`);
  await bob.getByRole('link', { name: 'Sign', exact: true }).click();
  await expect(bob.getByRole('link', { name: 'Preview where you sign' })).toBeVisible();
  await bob.getByRole('textbox', { name: 'Reason (optional)' }).fill('Agreed on behalf of Baker BV');
  await snap(bob, 'sign-screen');
  const bobLink = await askToSign(bob, id, 'locate');
  expect(new URL(bobLink).pathname).toMatch(/^\/idp\/requests\/[0-9a-f-]{36}$/);
  await snap(bob, 'sign-confirmation');
  await confirmOnPhone(browser, 'bob@paraph.test', bobLink, { shot: 'idp-request' });
  // The dialog notices on its next poll (every 5 s) and offers the document.
  await expect(bob.getByText('Your signature has been confirmed.')).toBeVisible({ timeout: 20_000 });
  await bob.getByRole('button', { name: 'Open the document' }).click();
  await expect(bob).toHaveURL(new RegExp(`/app/document/${id}$`));

  // Now Ada's turn; she confirms from the identity app's list of her requests.
  const adaLink = await askToSign(ada, id, 'Amsterdam');
  const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true });
  const adaPhone = await phone.newPage();
  await adaPhone.goto(`${baseUrl()}/idp/`);
  await submitSignInForm(adaPhone, 'ada@paraph.test');
  await expect(adaPhone.getByRole('heading', { name: 'Signature requests' })).toBeVisible();
  await adaPhone.screenshot({ path: 'test-results/screens/idp-list-375.png', fullPage: true });
  await adaPhone.getByRole('link', { name: new RegExp(name) }).click();
  await expect(adaPhone).toHaveURL(adaLink);
  await adaPhone.getByRole('button', { name: 'Confirm' }).click({ timeout: IDP_CONFIRM_TIMEOUT_MS });
  await expect(adaPhone.getByText(SIGNED)).toBeVisible({ timeout: IDP_CONFIRM_TIMEOUT_MS });
  await phone.close();
  await expect(ada.getByText('Your signature has been confirmed.')).toBeVisible({ timeout: 20_000 });
  await ada.getByRole('button', { name: 'Open the document' }).click();
  await expect(ada).toHaveURL(new RegExp(`/app/document/${id}$`));

  // The final file: two valid signatures, the last covering the whole file, both stamps where placed.
  const read = await ada.request.get(`${baseUrl()}/api/documents/${id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const attributes = ((await read.json()) as { data: { attributes: Record<string, unknown> } }).data
    .attributes;
  expect(attributes.state).toBe('signed');
  const download = await ada.request.get(new URL(String(attributes.pdfDownloadUrl), baseUrl()).toString());
  expect(download.status()).toBe(200);
  const signedFile = path.join(OUT_DIR, 'consulting-agreement-signed.pdf');
  writeFileSync(signedFile, await download.body());
  // pdfsig exits 1 for an untrusted issuer (the local CA): its report is what matters.
  let report = '';
  try {
    report = execFileSync('pdfsig', [signedFile], { encoding: 'utf8' });
  } catch (error) {
    report = String((error as { stdout?: string }).stdout ?? '');
  }
  expect(report.split('Signature is Valid.').length - 1, report).toBe(2);
  expect(report).toMatch(/Signature #2[\s\S]*Total document signed/);
  expect(report).toContain('Bob Baker');
  expect(report).toContain('Ada Lovelace');

  for (const [person, box] of [
    ['bob', BOB_BOX],
    ['ada', ADA_BOX],
  ] as const) {
    const prefix = path.join(OUT_DIR, `${person}-page`);
    execFileSync('pdftoppm', [
      '-r',
      '40',
      '-gray',
      '-f',
      String(box.page),
      '-l',
      String(box.page),
      signedFile,
      prefix,
    ]);
    execFileSync('pdftoppm', [
      '-r',
      '60',
      '-png',
      '-f',
      String(box.page),
      '-l',
      String(box.page),
      signedFile,
      prefix,
    ]);
    const image = readPgm(`${prefix}-${box.page}.pgm`);
    // The stamp's box is inked; the same box on the other side of the page is not.
    expect(inkIn(image, box), `${person}'s stamp`).toBeGreaterThan(0.02);
    expect(inkIn(image, { top: box.top, left: box.left > 0.4 ? 0.05 : 0.65 }), 'beside it').toBeLessThan(
      0.01,
    );
  }
});

test("the confirmation's errors: a plan's monthly limit, and a PDF that cannot be prepared", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // Frank's basic plan is used up this month: his own expense report, on a signature page at the end.
  const frank = await personIn(browser, 'frank@paraph.test');
  await frank.goto(`${baseUrl()}/app/document/${await documentNamed(frank, 'Expense report')}`);
  await frank.getByRole('link', { name: 'Sign', exact: true }).click();
  await frank.getByRole('radio', { name: 'On a signature page' }).check();
  await frank.getByRole('radio', { name: 'At the end' }).check();
  await frank.getByRole('textbox', { name: 'Location' }).fill('Berlin');
  const frankLink = await continueToConfirmation(frank);
  await confirmOnPhone(browser, 'frank@paraph.test', frankLink, {
    outcome: /^The monthly signing limit of your plan is reached$/,
  });
  await expect(frank.getByText(/maximum number of signatures within your current plan/)).toBeVisible({
    timeout: 20_000,
  });
  await snap(frank, 'sign-limit');
  await frank.getByRole('button', { name: 'Back to the form' }).click();
  // The form keeps what was typed.
  await expect(frank.getByRole('textbox', { name: 'Location' })).toHaveValue('Berlin');

  // Ada's scanned invoice parses but cannot be prepared for a signature.
  const ada = await personIn(browser, 'ada@paraph.test');
  await ada.goto(`${baseUrl()}/app/document/${await documentNamed(ada, 'Scanned invoice')}`);
  await ada.getByRole('link', { name: 'Sign', exact: true }).click();
  await ada.getByRole('radio', { name: 'On a signature page' }).check();
  await ada.getByRole('radio', { name: 'At the start' }).check();
  await ada.getByRole('textbox', { name: 'Location' }).fill('London');
  const adaLink = await continueToConfirmation(ada);
  await confirmOnPhone(browser, 'ada@paraph.test', adaLink, {
    outcome: /^The document could not be prepared for signing$/,
  });
  await expect(ada.getByText(/could not be prepared/i)).toBeVisible({ timeout: 20_000 });
  await snap(ada, 'sign-presign-error');
});
