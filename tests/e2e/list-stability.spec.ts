// Selecting never moves the list under the pointer: the first row's top is measured before and after
// selecting, at 1280 px (a click, then a Ctrl-click that brings the bulk actions) and at 375 px (an upload,
// which selects its new card). Then the empty lists: each offers its next step, and it works.
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { accessToken, baseUrl, signIn, snap, uploadViaApi } from './support.ts';

/** Waits until the rows' entrance animations have finished: a row still sliding in has no fixed top. */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

async function topOf(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element is not on screen');
  return box.y;
}

test('selecting rows moves no row, on a desktop and on a phone', async ({ page }) => {
  await signIn(page, 'ada@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const pdf = await makePdf({ pages: 1, text: 'Stability' });
  // Two of her own uploads lead the list (newest first): both can be archived and deleted together.
  const ids = [
    await uploadViaApi(page, token, 'Stability B.pdf', pdf),
    await uploadViaApi(page, token, 'Stability A.pdf', pdf),
  ];

  try {
    await page.reload();
    const grid = page.getByRole('grid', { name: 'Documents' });
    const first = grid.getByRole('row', { name: /Stability A\.pdf/ });
    const second = grid.getByRole('row', { name: /Stability B\.pdf/ });
    await expect(grid.getByRole('row').nth(1)).toHaveAccessibleName(/Stability A\.pdf/);
    await settle(page);
    const top = await topOf(first);

    await first.click();
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('button', { name: 'Clear selection' })).toBeVisible();
    expect(await topOf(first)).toBe(top);

    await second.click({ modifiers: ['Control'] });
    await expect(second).toHaveAttribute('aria-selected', 'true');
    const bulk = page.getByRole('toolbar', { name: 'Actions for the selected documents' });
    await expect(bulk.getByRole('button', { name: 'Delete' })).toBeVisible();
    expect(await topOf(first)).toBe(top);
    await snap(page, 'list-selection');

    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(first).toHaveAttribute('aria-selected', 'false');
    expect(await topOf(first)).toBe(top);
    await snap(page, 'list-no-selection');

    // A phone shows cards, and a tap opens one: a selection arrives with an upload, which selects its card.
    await page.setViewportSize({ width: 375, height: 812 });
    const cards = page.getByRole('list', { name: 'Documents' });
    await expect(cards.getByRole('listitem').first()).toContainText('Stability A.pdf');
    await settle(page);
    const cardTop = await topOf(cards.getByRole('listitem').first());

    const folder = await mkdtemp(path.join(tmpdir(), 'paraph-stability-'));
    const file = path.join(folder, 'Stability C.pdf');
    await writeFile(file, pdf);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload a document' });
    await dialog.locator('input[type=file]').setInputFiles(file);
    await expect(dialog.getByText('Stability C.pdf has been uploaded.')).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 10_000 });
    const newCard = cards.getByRole('link', { name: /Stability C\.pdf/ });
    await expect(newCard).toHaveAttribute('aria-current', 'true');
    await expect(page.getByRole('link', { name: 'Open document' })).toBeVisible();
    ids.push(new URL(page.url()).searchParams.get('selected') ?? '');
    await settle(page);
    expect(await topOf(cards.getByRole('listitem').first())).toBe(cardTop);
    await snap(page, 'list-selection-phone');

    // The bar covers the toolbar only while something is selected: clearing gives the search back.
    await expect(page.getByRole('searchbox', { name: 'Search documents' })).toBeHidden();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await expect(page.getByRole('searchbox', { name: 'Search documents' })).toBeVisible();
    expect(await topOf(cards.getByRole('listitem').first())).toBe(cardTop);
  } finally {
    for (const id of ids.filter(Boolean)) {
      await page.request.delete(`${baseUrl()}/api/documents/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
    }
  }
});

test('an empty list offers its next step: upload, all documents, clearing the search, adding people', async ({
  page,
}) => {
  // Frank has one upload and nothing else: nothing in progress or archived, no connection, no sign group.
  await signIn(page, 'frank@paraph.test');

  await page.goto(`${baseUrl()}/app/documents/in-progress`);
  await expect(page.getByText('No document is waiting for other people.')).toBeVisible();
  await snap(page, 'list-empty-in-progress');
  await page.getByRole('button', { name: 'Upload a document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.goto(`${baseUrl()}/app/archive`);
  await expect(page.getByText('Your archive is empty.')).toBeVisible();
  await snap(page, 'list-empty-archive');
  await page.getByRole('link', { name: 'Show all documents' }).click();
  await expect(page).toHaveURL(/\/app\/documents$/);
  const grid = page.getByRole('grid', { name: 'Documents' });
  await expect(grid.getByRole('row', { name: /Expense report\.pdf/ })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search documents' }).fill('no such document');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No documents match “no such document”.')).toBeVisible();
  await snap(page, 'list-empty-search');
  await page.getByRole('button', { name: 'Clear the search' }).click();
  await expect(grid.getByRole('row', { name: /Expense report\.pdf/ })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search documents' })).toHaveValue('');

  await page.goto(`${baseUrl()}/app/connections/users`);
  await expect(page.getByText('You have no connections yet.')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Requests' }).getByText('No pending requests.'),
  ).toBeVisible();
  await snap(page, 'connections-empty');
  await page.getByRole('button', { name: 'Add your first connection' }).click();
  const add = page.getByRole('dialog', { name: 'Add a connection by e-mail' });
  await expect(add).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();

  await page.goto(`${baseUrl()}/app/connections/groups`);
  await expect(page.getByText('You have no sign groups yet.')).toBeVisible();
  await snap(page, 'sign-groups-empty');
  await page.getByRole('button', { name: 'Create your first sign group' }).click();
  await expect(page.getByRole('dialog', { name: 'Create a sign group' })).toBeVisible();
});
