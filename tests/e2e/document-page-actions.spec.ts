// On a phone, every action where the person is: the document page a notification links to offers what
// the document's flags allow. A reviewer approves there and sees the new state at once (and one thing
// less to do); the owner of a signed document downloads it there, and its signatures verify; a document
// deleted from its page sends its owner back to the list.
import { execFileSync } from 'node:child_process';
import { expect, test } from './fixtures.ts';
import type { Browser, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { parsePdfsigReport } from '../api/pdf-signatures.ts';
import { accessToken, baseUrl, documentNamed, signIn, snap, uploadViaApi } from './support.ts';

const PHONE = { width: 375, height: 812 };

test.use({ viewport: PHONE });

async function tokenOf(page: Page): Promise<string> {
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  return token;
}

async function phoneOf(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** The To Do badge as the navigation drawer says it ("To Do, 2 documents to do"); no badge is 0. */
async function toDoCount(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const link = page.getByRole('dialog').getByRole('link', { name: /^To Do/ });
  await expect(link).toBeVisible();
  // The link's content: its label, the badge and, out of sight, the count in words.
  const name = (await link.textContent()) ?? '';
  await page.getByRole('button', { name: 'Close navigation' }).click();
  await expect(link).toBeHidden();
  return Number(/(\d+) documents? to do/.exec(name)?.[1] ?? 0);
}

test('a reviewer approves on the document page a notification links to, and sees it done', async ({
  page,
  browser,
}) => {
  const ada = await phoneOf(browser, 'ada@paraph.test');
  const adaToken = await tokenOf(ada);
  const name = 'Approve on the page.pdf';
  const id = await uploadViaApi(ada, adaToken, name, await makePdf({ pages: 1, text: 'Approve me' }));
  const flow = await ada.request.post(`${baseUrl()}/api/documents/${id}/sign_flow`, {
    headers: { Authorization: `Bearer ${adaToken}` },
    data: {
      sign_flow: {
        type: 'standard',
        reviewer_email_addresses: ['carol@paraph.test'],
        signatory_email_addresses: ['bob@paraph.test'],
      },
    },
  });
  expect(flow.status()).toBe(201);
  await ada.context().close();

  await signIn(page, 'carol@paraph.test');
  await expect.poll(() => toDoCount(page)).toBeGreaterThan(0);
  const before = await toDoCount(page);

  await page.goto(`${baseUrl()}/app/document/${id}`);
  const details = page.getByRole('complementary', { name: 'Document details' });
  const actions = details.getByRole('group', { name: 'Actions' });
  const approve = actions.getByRole('button', { name: 'Approve', exact: true });
  await expect(approve).toBeVisible();
  // One button leads; Reject waits in the menu with the rest.
  await expect(actions.getByRole('button', { name: 'Reject' })).toHaveCount(0);
  await actions.getByRole('button', { name: 'More actions', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Reject' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(details.getByRole('region', { name: 'Reviewers' })).toContainText('Waiting');
  await snap(page, 'document-page-actions-review');

  const box = await approve.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(40);
  await approve.click();
  const dialog = page.getByRole('dialog', { name: 'Approve the document' });
  await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(dialog).toBeHidden({ timeout: 10_000 });

  // The page shows the new state without a reload, where the person is: the page did not jump away.
  const reviewers = details.getByRole('region', { name: 'Reviewers' });
  await expect(reviewers).toContainText('Approved');
  await expect(reviewers).toBeInViewport();
  await expect(actions.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect.poll(() => toDoCount(page)).toBe(before - 1);
  await snap(page, 'document-page-actions-approved');
});

test('the owner of a signed document downloads it from its page, and its signatures verify', async ({
  page,
}) => {
  await signIn(page, 'bob@paraph.test');
  const id = await documentNamed(page, 'Non-disclosure agreement');
  await page.goto(`${baseUrl()}/app/document/${id}`);
  const actions = page
    .getByRole('complementary', { name: 'Document details' })
    .getByRole('group', { name: 'Actions' });
  const download = actions.getByRole('button', { name: 'Download', exact: true });
  await expect(download).toBeVisible();
  await actions.getByRole('button', { name: 'More actions', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Archive' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Delete' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/document-page-actions-menu-375.png' });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await snap(page, 'document-page-actions-signed');

  const started = page.waitForEvent('download');
  await download.click();
  const file = await started;
  expect(file.suggestedFilename()).toBe('Non-disclosure agreement.pdf');
  const path = await file.path();
  let report: string;
  try {
    report = execFileSync('pdfsig', [path], { encoding: 'utf8' });
  } catch (error) {
    // pdfsig exits non-zero when a signature does not verify; its report says which.
    report = String((error as { stdout?: unknown }).stdout ?? '');
  }
  const signatures = parsePdfsigReport(report);
  // The demo's agreement carries Ada's and Bob's signatures.
  expect(signatures).toHaveLength(2);
  for (const signature of signatures) expect(signature.isValid, report).toBe(true);
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
});

test('a document deleted from its page sends its owner back to the list', async ({ page }) => {
  await signIn(page, 'ada@paraph.test');
  const name = 'Delete from its page.pdf';
  const id = await uploadViaApi(page, await tokenOf(page), name, await makePdf({ pages: 1 }));
  await page.goto(`${baseUrl()}/app/document/details/${id}`);
  const actions = page
    .getByRole('complementary', { name: 'Document details' })
    .getByRole('group', { name: 'Actions' });
  await actions.getByRole('button', { name: 'More actions', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the document' });
  await dialog.getByRole('button', { name: 'Delete' }).click();

  await expect(page).toHaveURL(/\/app\/documents$/);
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  const list = page.getByRole('list', { name: 'Documents' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  await expect(list.getByText(name)).toHaveCount(0);
  // The deleted page is not a step back.
  await page.goBack();
  await expect(page).not.toHaveURL(new RegExp(`/app/document/details/${id}$`));
});
