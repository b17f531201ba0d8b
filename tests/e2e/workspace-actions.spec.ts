// [2/6] document actions in a real browser, against what the server really holds: the download of a
// signed document (a mixed selection confirms first), an archive or delete of a document that changed
// behind the page's back, and a file name with markup on the document page.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import type { Download, Locator, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { accessToken, baseUrl, signIn, snap, uploadViaApi } from './support.ts';

const SIGNED_DEMO = 'Non-disclosure agreement.pdf';
const CHANGED_MEANWHILE = 'This document changed in the meantime. The list has been refreshed.';
// Spec 000 §8: the catalogue's message comes first; that the document changed is said as well.
const ARCHIVE_FAILED = 'An error has occurred while trying to archive the document.';

type DocumentBody = {
  data: {
    id: string;
    attributes: {
      originalFilename: string;
      state: string;
      pdfDownloadUrl: string | null;
      currentUserArchived: boolean;
    };
  };
};
type ListBody = { data: DocumentBody['data'][] };
type ErrorBody = { code: string; blockedIds?: string[] };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function rowOf(list: Locator, name: string): Locator {
  return list.getByRole('row', { name: new RegExp(escapeRegExp(name)) });
}

async function signedInToken(page: Page, email: string): Promise<string> {
  await signIn(page, email);
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  return token;
}

function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

async function findByName(page: Page, token: string, category: string, name: string) {
  const response = await page.request.get(
    `${baseUrl()}/api/documents/${category}?search=${encodeURIComponent(name)}`,
    { headers: bearer(token) },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as ListBody).data.filter((d) => d.attributes.originalFilename === name);
}

/** The bytes the server hands out for a signed document, fetched through its own API. */
async function storedSignedBytes(page: Page, token: string, id: string): Promise<Buffer> {
  const detail = await page.request.get(`${baseUrl()}/api/documents/${id}`, { headers: bearer(token) });
  expect(detail.status()).toBe(200);
  const { pdfDownloadUrl } = ((await detail.json()) as DocumentBody).data.attributes;
  if (!pdfDownloadUrl) throw new Error('a signed document must have a download link');
  const file = await page.request.get(new URL(pdfDownloadUrl, baseUrl()).toString());
  expect(file.status()).toBe(200);
  return file.body();
}

async function expectSameFile(download: Download, name: string, stored: Buffer): Promise<void> {
  expect(download.suggestedFilename()).toBe(name);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(Buffer.compare(bytes, stored)).toBe(0);
}

/** No element was made from the name: the only images and handlers are the app's own. */
async function expectNothingInjected(page: Page): Promise<void> {
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  expect(await page.locator('[onerror]').count()).toBe(0);
}

test('download: a mixed selection confirms that only the signed document comes, and the row menu downloads it too', async ({
  page,
}) => {
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));
  const token = await signedInToken(page, 'ada@paraph.test');
  const draftName = 'Draft to download.pdf';
  await uploadViaApi(page, token, draftName, await makePdf({ pages: 1, text: 'Draft' }));
  const [signed] = await findByName(page, token, 'done', SIGNED_DEMO);
  if (!signed) throw new Error(`the demo data has no signed "${SIGNED_DEMO}" for ada`);
  const stored = await storedSignedBytes(page, token, signed.id);

  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  await rowOf(list, SIGNED_DEMO).click();
  await rowOf(list, draftName).click({ modifiers: ['Control'] });
  await expect(page.getByText('2 documents selected').first()).toBeVisible();
  const bulk = page.getByRole('toolbar', { name: 'Actions for the selected documents' });
  await bulk.getByRole('button', { name: 'Download' }).click();

  const dialog = page.getByRole('dialog', { name: 'Download signed documents' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'Only signed documents can be downloaded: 1 of the 2 selected documents will be downloaded.',
  );
  // Nothing is fetched before the user agrees.
  expect(downloads).toHaveLength(0);
  await snap(page, 'download-mixed-confirm');

  const bulkDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download' }).click();
  await expectSameFile(await bulkDownload, SIGNED_DEMO, stored);
  await expect(dialog).toBeHidden();
  // The page stayed in the app: the link answers with an attachment.
  await expect(page).toHaveURL(/\/app\/documents/);

  // One signed document from its own row menu downloads at once, without a question.
  await page.getByRole('button', { name: `More actions for ${SIGNED_DEMO}` }).click();
  const rowDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download' }).click();
  await expectSameFile(await rowDownload, SIGNED_DEMO, stored);
  await expect(page.getByRole('dialog', { name: 'Download signed documents' })).toBeHidden();
  // The unsigned draft was never downloaded: one file per download asked for.
  expect(downloads.map((download) => download.suggestedFilename())).toEqual([SIGNED_DEMO, SIGNED_DEMO]);
  // The unsigned draft never offers a download of its own.
  await page.getByRole('button', { name: `More actions for ${draftName}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Archive' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Download' })).toHaveCount(0);
});

test('a row action on a document deleted or archived meanwhile says so, refreshes the list and changes nothing else', async ({
  page,
}) => {
  const token = await signedInToken(page, 'ada@paraph.test');
  const pdf = await makePdf({ pages: 1, text: 'Stale' });
  const deletedName = 'Stale deleted meanwhile.pdf';
  const archivedName = 'Stale archived meanwhile.pdf';
  const bystanderName = 'Stale bystander.pdf';
  const deletedId = await uploadViaApi(page, token, deletedName, pdf);
  const archivedId = await uploadViaApi(page, token, archivedName, pdf);
  const bystanderId = await uploadViaApi(page, token, bystanderName, pdf);
  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(rowOf(list, deletedName)).toBeVisible();
  await expect(rowOf(list, archivedName)).toBeVisible();

  // Behind the page's back (another tab, another device), the owner deletes the first one.
  const removed = await page.request.delete(`${baseUrl()}/api/documents/${deletedId}`, {
    headers: bearer(token),
  });
  expect(removed.status()).toBeLessThan(300);
  await expect(rowOf(list, deletedName)).toBeVisible();

  await page.getByRole('button', { name: `More actions for ${deletedName}` }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  const dialog = page.getByRole('dialog', { name: 'Archive the document' });
  await expect(dialog).toContainText(deletedName);
  const archiveCall = page.waitForResponse(
    (response) => response.request().method() === 'PATCH' && response.url().endsWith(`/${deletedId}/archive`),
  );
  await dialog.getByRole('button', { name: 'Archive' }).click();
  const archiveAnswer = await archiveCall;
  expect(archiveAnswer.status()).toBe(404);
  expect(((await archiveAnswer.json()) as ErrorBody).code).toBe('not_found');
  await expect(dialog.getByRole('alert')).toHaveText(`${ARCHIVE_FAILED}${CHANGED_MEANWHILE}`);
  await snap(page, 'stale-document');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // The list was read again (the open dialog hid it from assistive technology, so it is checked now,
  // with no reload in between): the deleted row is gone, the others are where they were.
  await expect(rowOf(list, archivedName)).toBeVisible();
  await expect(rowOf(list, bystanderName)).toBeVisible();
  await expect(rowOf(list, deletedName)).toHaveCount(0);

  // Then the second one is archived elsewhere; archiving it again here is refused by the server.
  const archived = await page.request.patch(`${baseUrl()}/api/documents/${archivedId}/archive`, {
    headers: bearer(token),
  });
  expect(archived.status()).toBe(200);
  await page.getByRole('button', { name: `More actions for ${archivedName}` }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  await expect(dialog).toContainText(archivedName);
  const secondCall = page.waitForResponse(
    (response) =>
      response.request().method() === 'PATCH' && response.url().endsWith(`/${archivedId}/archive`),
  );
  await dialog.getByRole('button', { name: 'Archive' }).click();
  expect(((await (await secondCall).json()) as ErrorBody).code).toBe('action_not_allowed');
  await expect(dialog.getByRole('alert')).toHaveText(`${ARCHIVE_FAILED}${CHANGED_MEANWHILE}`);
  // The confirm button was busy meanwhile, yet focus stayed in the dialog: Esc still closes it.
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(rowOf(list, bystanderName)).toBeVisible();
  await expect(rowOf(list, archivedName)).toHaveCount(0);

  // Nothing else changed: the bystander is neither archived nor gone, the archived one is in the archive.
  const bystander = await page.request.get(`${baseUrl()}/api/documents/${bystanderId}`, {
    headers: bearer(token),
  });
  expect(bystander.status()).toBe(200);
  expect(((await bystander.json()) as DocumentBody).data.attributes.currentUserArchived).toBe(false);
  await page.getByRole('link', { name: 'Archive' }).first().click();
  await expect(page).toHaveURL(/\/app\/archive$/);
  await expect(rowOf(page.getByRole('grid', { name: 'Documents' }), archivedName)).toBeVisible();
  await expect(rowOf(page.getByRole('grid', { name: 'Documents' }), bystanderName)).toHaveCount(0);
});

test('a bulk delete where one document was deleted meanwhile does nothing and names the one that blocked it', async ({
  page,
}) => {
  const token = await signedInToken(page, 'ada@paraph.test');
  const pdf = await makePdf({ pages: 1, text: 'Bulk' });
  const goneName = 'Bulk delete gone.pdf';
  const keptName = 'Bulk delete kept.pdf';
  const goneId = await uploadViaApi(page, token, goneName, pdf);
  const keptId = await uploadViaApi(page, token, keptName, pdf);
  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  await rowOf(list, goneName).click();
  await rowOf(list, keptName).click({ modifiers: ['Control'] });
  await expect(page.getByText('2 documents selected').first()).toBeVisible();

  const removed = await page.request.delete(`${baseUrl()}/api/documents/${goneId}`, {
    headers: bearer(token),
  });
  expect(removed.status()).toBeLessThan(300);

  await page
    .getByRole('toolbar', { name: 'Actions for the selected documents' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Delete 2 documents' });
  await expect(dialog).toBeVisible();
  const bulkCall = page.waitForResponse(
    (response) =>
      response.request().method() === 'DELETE' && new URL(response.url()).pathname === '/api/documents',
  );
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const answer = await bulkCall;
  expect(answer.status()).toBe(404);
  expect((await answer.json()) as ErrorBody).toMatchObject({ code: 'not_found', blockedIds: [goneId] });
  await expect(dialog.getByRole('alert')).toHaveText(
    'An error has occurred while trying to delete the documents.' +
      `Nothing was done: “${goneName}” has changed in the meantime. The list has been refreshed.`,
  );
  // What the dialog still shows is stale: it cannot be confirmed again.
  await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
  await snap(page, 'stale-bulk-delete');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(list, keptName)).toBeVisible();
  await expect(rowOf(list, goneName)).toHaveCount(0);

  // All or nothing: the other document is still there, for its owner.
  const kept = await page.request.get(`${baseUrl()}/api/documents/${keptId}`, { headers: bearer(token) });
  expect(kept.status()).toBe(200);
});

test('a bulk archive where one document was archived meanwhile does nothing and refreshes the list', async ({
  page,
}) => {
  const token = await signedInToken(page, 'ada@paraph.test');
  const pdf = await makePdf({ pages: 1, text: 'Bulk' });
  const archivedName = 'Bulk archive elsewhere.pdf';
  const activeName = 'Bulk archive kept.pdf';
  const archivedId = await uploadViaApi(page, token, archivedName, pdf);
  const activeId = await uploadViaApi(page, token, activeName, pdf);
  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  await rowOf(list, archivedName).click();
  await rowOf(list, activeName).click({ modifiers: ['Control'] });
  await expect(page.getByText('2 documents selected').first()).toBeVisible();

  const archived = await page.request.patch(`${baseUrl()}/api/documents/${archivedId}/archive`, {
    headers: bearer(token),
  });
  expect(archived.status()).toBe(200);

  await page
    .getByRole('toolbar', { name: 'Actions for the selected documents' })
    .getByRole('button', { name: 'Archive' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Archive 2 documents' });
  await expect(dialog).toBeVisible();
  const bulkCall = page.waitForResponse(
    (response) =>
      response.request().method() === 'PATCH' &&
      new URL(response.url()).pathname === '/api/documents/archive',
  );
  await dialog.getByRole('button', { name: 'Archive' }).click();
  const answer = await bulkCall;
  expect(answer.status()).toBe(409);
  expect((await answer.json()) as ErrorBody).toMatchObject({
    code: 'bulk_blocked',
    blockedIds: [archivedId],
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    'An error has occurred while trying to archive the documents.' +
      `Nothing was done: “${archivedName}” has changed in the meantime. The list has been refreshed.`,
  );
  await expect(dialog.getByRole('button', { name: 'Archive' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(list, activeName)).toBeVisible();
  await expect(rowOf(list, archivedName)).toHaveCount(0);

  const active = await page.request.get(`${baseUrl()}/api/documents/${activeId}`, { headers: bearer(token) });
  expect(((await active.json()) as DocumentBody).data.attributes.currentUserArchived).toBe(false);
});

test('a file name with markup stays text on the document page and in its dialogs, and runs nothing', async ({
  page,
}) => {
  // The list and the details panel are covered by workspace.spec.ts (as carol); this is the rest.
  const name = '"><img src=x onerror=alert(1)>.pdf';
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const token = await signedInToken(page, 'erin@paraph.test');
  const id = await uploadViaApi(page, token, name, await makePdf({ pages: 1, text: 'markup' }));
  await page.reload();
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(rowOf(list, name)).toContainText(name);
  await expectNothingInjected(page);

  // The archive dialog quotes the name.
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Archive' }).click();
  const archiveDialog = page.getByRole('dialog', { name: 'Archive the document' });
  await expect(archiveDialog).toContainText(`“${name}”`);
  await archiveDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(archiveDialog).toBeHidden();

  // The document page, from the details panel's button.
  await rowOf(list, name).click();
  await page
    .getByRole('complementary')
    .getByRole('button', { name: 'Open document' })
    .or(page.getByRole('complementary').getByRole('link', { name: 'Open document' }))
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page).toHaveTitle(`${name} · Paraph`);
  await expectNothingInjected(page);

  // The details-only page, where phones land.
  await page.goto(`${baseUrl()}/app/document/details/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.getByText(name).first()).toBeVisible();

  await expectNothingInjected(page);
  expect(dialogs).toEqual([]);
});
