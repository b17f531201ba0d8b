// On a phone, where the person is: the document's own details page offers what its flags allow, and
// nothing of signing once the person archived it; a bad invitation link lands on the list, saying why.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { accessToken, baseUrl, signIn, snap, uploadViaApi } from './support.ts';

test.use({ viewport: { width: 375, height: 812 } });

async function signedInToken(page: Page, email: string): Promise<string> {
  await signIn(page, email);
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  return token;
}

test('on a phone, an archived document offers neither Sign nor Start a sign flow', async ({ page }) => {
  const token = await signedInToken(page, 'ada@paraph.test');
  const id = await uploadViaApi(page, token, 'Phone archive check.pdf', await makePdf({ pages: 1 }));
  const details = page.getByRole('main');

  await page.goto(`${baseUrl()}/app/document/details/${id}`);
  // On a phone Sign leads and the other actions wait in the "More actions" menu.
  await expect(details.getByRole('link', { name: 'Sign', exact: true })).toBeVisible();
  await details.getByRole('button', { name: 'More actions', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Start a sign flow' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();

  const archived = await page.request.patch(`${baseUrl()}/api/documents/${id}/archive`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(archived.status()).toBe(200);
  await page.reload();
  await expect(details.getByText('Phone archive check.pdf').first()).toBeVisible();
  await expect(details.getByRole('link', { name: 'Start a sign flow' })).toHaveCount(0);
  await expect(details.getByRole('link', { name: 'Sign', exact: true })).toHaveCount(0);
  await expect(details.getByRole('button', { name: 'More actions', exact: true })).toHaveCount(0);
  await snap(page, 'phone-archived-details');
});

test('on a phone, a bad invitation link lands on the documents list with a notice saying why', async ({
  page,
}) => {
  await signIn(page, 'bob@paraph.test');
  for (const inviteId of ['00000000-0000-4000-8000-000000000000', 'not-an-invite']) {
    await page.goto(`${baseUrl()}/app/signflowmember/invite/${inviteId}`);
    await expect(page).toHaveURL(/\/app\/documents$/);
    await expect(
      page.getByText(
        'This invitation could not be found. Check that you are signed in with the e-mail address it was sent to, or ask the sender to invite you again.',
      ),
    ).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
  }
  await snap(page, 'phone-bad-invite');
});

test('an unchosen radio reads as a choice, not as disabled', async ({ page }) => {
  await signIn(page, 'bob@paraph.test');
  await page.goto(`${baseUrl()}/app/settings`);
  const colorOf = (name: string) =>
    page
      .getByRole('radio', { name, exact: true })
      .evaluate((input) => getComputedStyle(input.parentElement?.querySelector('label') ?? input).color);
  await expect(page.getByRole('radio', { name: 'System', exact: true })).toBeChecked();
  expect(await colorOf('Light')).toBe(await colorOf('System'));
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the connections' Remove buttons keep clear of their row's borders", async ({ page }) => {
    await signIn(page, 'bob@paraph.test');
    await page.goto(`${baseUrl()}/app/connections`);
    const row = page.getByRole('row', { name: /Ada Lovelace/ });
    const button = row.getByRole('button', { name: /Remove/ });
    await expect(button).toBeVisible();
    const rowBox = await row.boundingBox();
    const buttonBox = await button.boundingBox();
    if (!rowBox || !buttonBox) throw new Error('the row and its button must be laid out');
    expect(buttonBox.y - rowBox.y).toBeGreaterThanOrEqual(4);
    expect(rowBox.y + rowBox.height - (buttonBox.y + buttonBox.height)).toBeGreaterThanOrEqual(4);
  });
});
