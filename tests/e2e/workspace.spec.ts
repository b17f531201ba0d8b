// [2/6] in a real browser: search, sort and paging across 45 documents; multi-select archive and delete;
// the archive view; a signed document's download; the phone layout opening the details page.
import { expect, test } from './fixtures.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { accessToken, baseUrl, pageImagesDrawn, signIn, snap, uploadViaApi } from './support.ts';

const BATCH = 45;
const batchName = (n: number) => `Batch ${String(n).padStart(2, '0')}.pdf`;

test('search, sort and paging across 45 documents, then archive and delete several at once', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'bob@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const pdf = await makePdf({ pages: 1, text: 'Batch' });
  for (let n = 1; n <= BATCH; n += 1) await uploadViaApi(page, token, batchName(n), pdf);

  const list = page.getByRole('grid', { name: 'Documents' });
  const search = page
    .getByRole('searchbox', { name: 'Search documents' })
    .or(page.getByLabel('Search documents'));
  await search.first().fill('  Batch  ');
  // One clear button, the app's: the field is not a type="search" input, which brings the browser's own.
  await expect(page.getByRole('button', { name: 'Clear search' })).toBeVisible();
  expect(await search.first().evaluate((input) => (input as HTMLInputElement).type)).toBe('text');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager.getByText('Page 1 of 3')).toBeVisible();
  await expect(pager.getByRole('button', { name: 'First page' })).toBeDisabled();
  await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  // Newest first: the last one uploaded leads.
  await expect(list.getByRole('row').nth(1)).toContainText(batchName(BATCH));
  await snap(page, 'workspace-search');

  await pager.getByRole('button', { name: 'Next page' }).click();
  await expect(pager.getByText('Page 2 of 3')).toBeVisible();

  // A document chosen on page 2 and opened; back, and then a reload, come to the same page, search and
  // selection: the address holds them.
  const chosen = () => list.getByRole('row', { name: new RegExp(batchName(BATCH - 21)) });
  await chosen().click();
  await expect(chosen()).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/app\/documents\?search=Batch&page=2&selected=[0-9a-f-]+$/);
  await page.getByRole('link', { name: 'Open document' }).first().click();
  await expect(page).toHaveURL(/\/app\/document\/[0-9a-f-]+$/);
  await page.goBack();
  await expect(pager.getByText('Page 2 of 3')).toBeVisible();
  await expect(chosen()).toHaveAttribute('aria-selected', 'true');
  await expect(search.first()).toHaveValue('Batch');
  await page.reload();
  await expect(pager.getByText('Page 2 of 3')).toBeVisible();
  await expect(chosen()).toHaveAttribute('aria-selected', 'true');

  await pager.getByRole('button', { name: 'Last page' }).click();
  await expect(pager.getByText('Page 3 of 3')).toBeVisible();
  await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await expect(pager.getByRole('button', { name: 'Last page' })).toBeDisabled();
  await expect(list.getByRole('row')).toHaveCount(1 + (BATCH - 40));
  await pager.getByRole('button', { name: 'First page' }).click();
  await expect(pager.getByText('Page 1 of 3')).toBeVisible();

  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Oldest first' });
  await expect(list.getByRole('row').nth(1)).toContainText(batchName(1));

  // Two rows with Ctrl-click, then the bulk archive.
  await list.getByRole('row', { name: new RegExp(batchName(1)) }).click();
  await list.getByRole('row', { name: new RegExp(batchName(2)) }).click({ modifiers: ['Control'] });
  await expect(page.getByText('2 documents selected').first()).toBeVisible();
  const bulk = page
    .getByRole('toolbar', { name: 'Actions for the selected documents' })
    .or(page.getByRole('region', { name: 'Actions for the selected documents' }));
  await bulk.first().getByRole('button', { name: 'Archive' }).click();
  const archiveDialog = page.getByRole('dialog', { name: 'Archive 2 documents' });
  await expect(archiveDialog).toBeVisible();
  await snap(page, 'workspace-archive-confirm');
  await archiveDialog.getByRole('button', { name: 'Archive' }).click();
  await expect(archiveDialog).toBeHidden({ timeout: 10_000 });
  await expect(list.getByRole('row', { name: new RegExp(batchName(1)) })).toHaveCount(0);
  await expect(list.getByRole('row', { name: new RegExp(batchName(2)) })).toHaveCount(0);

  // The archive view holds them; from there they are deleted together.
  await page.getByRole('link', { name: 'Archive' }).first().click();
  await expect(page).toHaveURL(/\/app\/archive$/);
  const archive = page.getByRole('grid', { name: 'Documents' });
  await expect(archive.getByRole('row', { name: new RegExp(batchName(1)) })).toBeVisible();
  await expect(archive.getByRole('row', { name: new RegExp(batchName(2)) })).toBeVisible();
  await snap(page, 'workspace-archive');
  await archive.getByRole('row', { name: new RegExp(batchName(1)) }).click();
  await archive.getByRole('row', { name: new RegExp(batchName(2)) }).click({ modifiers: ['Control'] });
  await bulk.first().getByRole('button', { name: 'Delete' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete 2 documents' });
  await expect(deleteDialog).toBeVisible();
  await deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await expect(deleteDialog).toBeHidden({ timeout: 10_000 });
  await expect(archive.getByRole('row', { name: new RegExp(batchName(1)) })).toHaveCount(0);

  // Gone for good: the API no longer knows them.
  const remaining = await page.request.get(`${baseUrl()}/api/documents/archived?search=Batch`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(((await remaining.json()) as { data: unknown[] }).data).toHaveLength(0);
});

test('a signed demo document downloads with the stored bytes under its own name', async ({ page }) => {
  await signIn(page, 'bob@paraph.test');
  const token = await accessToken(page);
  const headers = { Authorization: `Bearer ${token}` };
  const done = await page.request.get(`${baseUrl()}/api/documents/done`, { headers });
  const signed = ((await done.json()) as { data: { id: string; attributes: { originalFilename: string } }[] })
    .data[0];
  if (!signed) throw new Error('the demo data has no signed document for bob');
  const detail = await page.request.get(`${baseUrl()}/api/documents/${signed.id}`, { headers });
  const { pdfUrl } = ((await detail.json()) as { data: { attributes: { pdfUrl: string } } }).data.attributes;
  const stored = await (await page.request.get(new URL(pdfUrl, baseUrl()).toString())).body();

  const downloading = page.waitForEvent('download');
  await page.goto(`${baseUrl()}/app/download/${signed.id}`).catch(() => undefined);
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(signed.attributes.originalFilename);
  const file = await download.path();
  const { readFileSync } = await import('node:fs');
  expect(Buffer.compare(readFileSync(file), stored)).toBe(0);
  await expect(page).toHaveURL(/\/app\/documents/);
});

test('on a phone a tap on a document opens its details page', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, 'ada@paraph.test');
  await page.getByRole('link', { name: /Welcome to Paraph\.pdf/ }).click();
  await expect(page).toHaveURL(/\/app\/document\/details\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Paraph.pdf' })).toBeVisible();
  await snap(page, 'document-details');
});

test('a file name with markup shows as text in the list and the details, and runs nothing', async ({
  page,
}) => {
  const name = '"><img src=x onerror=alert(1)>.pdf';
  let dialogs = 0;
  page.on('dialog', async (dialog) => {
    dialogs += 1;
    await dialog.dismiss();
  });
  await signIn(page, 'carol@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  await uploadViaApi(page, token, name, await makePdf({ pages: 1, text: 'markup' }));
  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  const row = list.getByRole('row', { name: /onerror=alert/ });
  await expect(row).toContainText(name);
  await row.click();
  await expect(page.getByRole('complementary').getByText(name).first()).toBeVisible();
  // No element was made from the name: the only images are the app's own.
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(dialogs).toBe(0);
});

test("a document link opened cold shows the first page's image until pdf.js has drawn the page", async ({
  page,
}) => {
  await signIn(page, 'carol@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const id = await uploadViaApi(page, token, 'Cold open.pdf', await makePdf({ pages: 3, text: 'Cold open' }));
  await pageImagesDrawn(page, token, id, 3);

  // The PDF is held back, so the page stays as it is while pdf.js waits for the file.
  const pdfRequests: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/storage\/.*\/original/, async (route) => {
    pdfRequests.push(route.request().url());
    await released;
    await route.continue();
  });
  await page.goto(`${baseUrl()}/app/document/${id}`);
  const viewer = page.getByRole('region', { name: 'Document pages' });
  const firstPage = viewer.getByRole('img', { name: /Page 1/ });
  await expect(firstPage.locator('img')).toBeVisible();
  expect(
    await firstPage.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth),
  ).toBeGreaterThan(500);
  await expect(firstPage).toHaveAttribute('aria-busy', 'true');
  await expect(viewer.locator('canvas:not([hidden])')).toHaveCount(0);

  release();
  await expect(firstPage.locator('canvas')).toBeVisible();
  await expect(firstPage.locator('img')).toHaveCount(0);
  await expect(firstPage).toHaveAttribute('aria-busy', 'false');
  // The early start fetched the file and pdf.js opened those very bytes: one request.
  expect(pdfRequests).toHaveLength(1);
  await expect(viewer.getByRole('img', { name: /Page 3/ })).toHaveCount(1);
});
