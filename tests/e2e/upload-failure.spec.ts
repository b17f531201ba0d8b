// A storage failure in the middle of an upload: the modal says so, nothing new appears in the list, and
// "Try again" finishes the same upload.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { signIn, snap } from './support.ts';

test('a failed storage upload shows the error, keeps the list as it was, and can be retried', async ({
  page,
}) => {
  await signIn(page, 'carol@paraph.test');
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(list).toBeVisible();
  const rowsBefore = await list.getByRole('row').count();

  let storagePosts = 0;
  await page.route('**/storage/paraph', async (route) => {
    storagePosts += 1;
    if (storagePosts === 1) {
      await route.fulfill({
        status: 500,
        contentType: 'application/xml',
        body: '<Error><Code>InternalError</Code></Error>',
      });
    } else {
      await route.continue();
    }
  });

  const file = path.join(mkdtempSync(path.join(tmpdir(), 'paraph-e2e-files-')), 'Retry me.pdf');
  writeFileSync(file, await makePdf({ pages: 1, text: 'Retry me' }));

  await page.getByRole('button', { name: 'Upload' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.locator('input[type=file]').setInputFiles(file);
  await expect(dialog.getByRole('alert')).toHaveText('The document could not be uploaded. Please try again.');
  await snap(page, 'upload-error');

  // Nothing was kept: the list behind the modal (hidden from the accessibility tree while the modal is
  // open) still has the same rows and no "Retry me.pdf".
  const listBehind = page.getByRole('grid', { name: 'Documents', includeHidden: true });
  await expect(listBehind.getByRole('row', { name: /Retry me\.pdf/, includeHidden: true })).toHaveCount(0);
  expect(await listBehind.getByRole('row', { includeHidden: true }).count()).toBe(rowsBefore);

  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(dialog.getByText('Retry me.pdf has been uploaded.')).toBeVisible();
  expect(storagePosts).toBe(2);
  await expect(list.getByRole('row', { name: /Retry me\.pdf/ })).toHaveAttribute('aria-selected', 'true');
});

test('cancelling an upload is silent and keeps nothing', async ({ page }) => {
  await signIn(page, 'carol@paraph.test');
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(list).toBeVisible();

  // Hold the storage POST so the upload is still running when the person cancels.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/storage/paraph', async (route) => {
    await held;
    await route.abort();
  });

  const file = path.join(mkdtempSync(path.join(tmpdir(), 'paraph-e2e-files-')), 'Never mind.pdf');
  writeFileSync(file, await makePdf({ pages: 1, text: 'Never mind' }));
  await page.getByRole('button', { name: 'Upload' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.locator('input[type=file]').setInputFiles(file);
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  release();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(list.getByRole('row', { name: /Never mind\.pdf/ })).toHaveCount(0);
});
