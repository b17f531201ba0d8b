// The first journey of [1/6], as a person does it: sign in through the server's page, see the list,
// upload a PDF made by code, find it selected, open it in the viewer, log out.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { baseUrl, seriousAxeViolations, signIn, snap } from './support.ts';

async function writeFixture(name: string, bytes: Uint8Array | string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'paraph-e2e-files-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  // Rows fade in one after another; contrast is judged on what stays on screen, not mid-animation.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  expect(await seriousAxeViolations(page)).toEqual([]);
}

test('sign in, upload a PDF, see it selected, open it, log out', async ({ page }) => {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  await page.goto(`${baseUrl()}/app/`);
  await expect(page).toHaveURL(/\/app\/login/);
  await expect(page.getByRole('heading', { name: 'Digital document signing' })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  await snap(page, 'login');

  await signIn(page, 'ada@paraph.test');
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(list).toBeVisible();
  // The seeded demo documents are there, each owned by Ada and marked as hers.
  await expect(list.getByText('Ada Lovelace (you)').first()).toBeVisible();
  await expect(page).toHaveTitle(/ · Paraph$/);
  await expectNoSeriousAxeViolations(page);
  await snap(page, 'documents');

  await page.getByRole('button', { name: 'Upload' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await expect(dialog).toBeVisible();
  await snap(page, 'upload-modal');

  // A file that is not a PDF is refused before any call is made.
  let storageCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/upload_requests') || request.url().includes('/storage/')) storageCalls += 1;
  });
  const textFile = await writeFixture('notes.txt', 'just some notes');
  await dialog.locator('input[type=file]').setInputFiles(textFile);
  await expect(
    dialog.getByText('notes.txt is not a PDF file. Save it as a PDF, then upload the PDF.'),
  ).toBeVisible();
  expect(storageCalls).toBe(0);

  const pdfFile = await writeFixture(
    'Quarterly report.pdf',
    await makePdf({ pages: 2, text: 'Quarterly report' }),
  );
  // A small file on one machine uploads in milliseconds; the storage request waits until the
  // progress bar has been seen, so the test does not race the upload.
  let releaseStorage = (): void => {};
  const storageReleased = new Promise<void>((resolve) => {
    releaseStorage = resolve;
  });
  await page.route('**/storage/paraph', async (route) => {
    await storageReleased;
    await route.continue();
  });
  await dialog.locator('input[type=file]').setInputFiles(pdfFile);
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await expect(dialog.getByText('Uploading Quarterly report.pdf')).toBeVisible();
  releaseStorage();
  await expect(dialog.getByText('Quarterly report.pdf has been uploaded.')).toBeVisible();
  expect(storageCalls).toBeGreaterThanOrEqual(2);
  // The modal closes by itself after 3 s, and the new document is the selected row.
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  const newRow = list.getByRole('row', { name: /Quarterly report\.pdf/ });
  await expect(newRow).toHaveAttribute('aria-selected', 'true');
  await snap(page, 'documents-after-upload');
  // On a phone the list is cards; the new one is marked as the current one there too.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole('link', { name: /Quarterly report\.pdf/ })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('link', { name: 'Open document' }).first().click();
  await expect(page).toHaveURL(/\/app\/document\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Quarterly report.pdf' })).toBeVisible();
  // Page images render in the background: first the processing notice, then the pages.
  const viewer = page.getByRole('region', { name: 'Document pages' });
  await expect(viewer).toBeVisible();
  await expect(viewer.locator('canvas, img').first()).toBeVisible({ timeout: 30_000 });
  await snap(page, 'document');

  await page
    .getByRole('button', { name: /User menu/ })
    .first()
    .click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/app\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('access_token'))).toBeNull();

  // The token of that session no longer opens the app.
  await page.goto(`${baseUrl()}/app/documents`);
  await expect(page).toHaveURL(/\/app\/login/);
  expect(cspViolations).toEqual([]);
});
