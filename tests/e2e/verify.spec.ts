// Verifying a signed PDF at /app/verify: the demo's signed agreement (signed by the server for Ada and
// Bob) is downloaded as Ada would download it, then checked from the sidebar while signed in, and from the
// login page by a visitor with no session at all; a file that is not a PDF gets a clear refusal.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { accessToken, baseUrl, signIn, snap } from './support.ts';

type DemoPdf = { name: string; mimeType: string; buffer: Buffer };

/** A signed document from Ada's "done" list, as its download link gives it. */
async function signedDemoPdf(page: Page): Promise<DemoPdf> {
  const token = await accessToken(page);
  const response = await page.request.get(`${baseUrl()}/api/documents/done?search=Non-disclosure`, {
    headers: { Authorization: `Bearer ${token ?? ''}` },
  });
  expect(response.status()).toBe(200);
  const list = (await response.json()) as {
    data: { attributes: { originalFilename: string; state: string; pdfDownloadUrl: string | null } }[];
  };
  // The seeded agreement by name: other journeys on the same server may have signed newer documents.
  const signed = list.data.find(
    (document) =>
      document.attributes.state === 'signed' &&
      document.attributes.originalFilename === 'Non-disclosure agreement.pdf',
  );
  const url = signed?.attributes.pdfDownloadUrl;
  if (!signed || !url) throw new Error('the demo has no signed document for Ada');
  const file = await page.request.get(new URL(url, baseUrl()).toString());
  expect(file.status()).toBe(200);
  return { name: signed.attributes.originalFilename, mimeType: 'application/pdf', buffer: await file.body() };
}

async function expectValidReport(page: Page, pdf: DemoPdf): Promise<void> {
  await page.getByLabel('Choose a PDF').setInputFiles(pdf);
  await expect(page.getByRole('heading', { level: 2, name: 'All signatures are valid' })).toBeVisible();
  await expect(page.getByText(`File: ${pdf.name}`)).toBeVisible();
  const first = page.getByRole('article', { name: 'Signature 1: Ada Lovelace' });
  const second = page.getByRole('article', { name: 'Signature 2: Bob Baker' });
  await expect(first.getByText('Valid', { exact: true })).toBeVisible();
  await expect(second.getByText('Valid', { exact: true })).toBeVisible();
  // Ada's signature is followed by Bob's, an allowed update; the file's last revision is covered whole.
  await expect(
    first.getByText(
      'Only later signatures, time-stamps or validation data, which do not change the content.',
    ),
  ).toBeVisible();
  await expect(second.getByText('The chain ends at a certificate this service trusts.')).toBeVisible();
  await expect(
    page
      .getByRole('article')
      .last()
      .getByText(/^The whole file \(/),
  ).toBeVisible();
}

test('a signed PDF shows its report at /app/verify, signed in from the sidebar and signed out from the login page', async ({
  browser,
  page,
}) => {
  await signIn(page, 'ada@paraph.test');
  const pdf = await signedDemoPdf(page);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Verify a signed PDF' })
    .click();
  await expect(page).toHaveURL(/\/app\/verify$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Verify a signed PDF' })).toBeVisible();
  await expectValidReport(page, pdf);
  await snap(page, 'verify-report-signed-in');

  // Someone who was sent the file and has no account: no session in this browser at all.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visitor = await context.newPage();
  await visitor.goto(`${baseUrl()}/app/login`);
  await visitor.getByRole('link', { name: 'Received a signed PDF? Verify its signatures' }).click();
  await expect(visitor).toHaveURL(/\/app\/verify$/);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Verify a signed PDF' })).toBeVisible();
  await snap(visitor, 'verify-signed-out');
  await expectValidReport(visitor, pdf);
  expect(await accessToken(visitor)).toBeNull();
  await snap(visitor, 'verify-report-signed-out');

  await visitor.getByRole('button', { name: 'Verify another PDF' }).click();
  await visitor
    .getByLabel('Choose a PDF')
    .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a document') });
  await expect(visitor.getByRole('alert')).toHaveText('notes.pdf is not a valid PDF, or it is damaged.');
  await expect(visitor.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await snap(visitor, 'verify-refused-signed-out');
  await visitor.getByRole('button', { name: 'Choose another file' }).click();
  await expect(visitor.getByLabel('Choose a PDF')).toBeAttached();
  await context.close();
});
