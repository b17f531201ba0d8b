// Row actions against the real server: a signatory refuses (the reason's limit is checked before any
// call), and an owner cancels a sign flow in review after a destructive confirmation. Each document
// then shows its new state in the Failed list, and the To Do badge follows.
import { expect, test } from './fixtures.ts';
import { signIn, snap } from './support.ts';

test('a signatory refuses with a reason; the limit is enforced first and the badge follows', async ({
  page,
}) => {
  await signIn(page, 'ada@paraph.test');
  const toDoBadge = page.getByRole('link', { name: /To Do/ }).first();
  await expect(toDoBadge).toContainText('2');

  await page.getByRole('button', { name: /More actions for Office lease 2025\.pdf/ }).click();
  await page.getByRole('menuitem', { name: 'Refuse to sign' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refuse to sign' });
  await expect(dialog).toBeVisible();

  let refuseCalls = 0;
  page.on('request', (request) => {
    if (request.url().includes('/refuse_sign_flow')) refuseCalls += 1;
  });
  const reason = dialog.getByLabel('Reason (optional)');
  await reason.fill('x'.repeat(128));
  await expect(dialog.getByText('Reason must be shorter than 128 characters.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Refuse' })).toBeDisabled();
  await reason.press('Enter');
  expect(refuseCalls).toBe(0);
  await snap(page, 'refuse-validation');

  await reason.fill('The rent in clause 4 is wrong.');
  await dialog.getByRole('button', { name: 'Refuse' }).click();
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  expect(refuseCalls).toBe(1);
  await expect(toDoBadge).toContainText('1');

  await page.getByRole('link', { name: 'Failed' }).click();
  const failed = page.getByRole('grid', { name: 'Documents' });
  await expect(failed.getByRole('row', { name: /Office lease 2025\.pdf/ })).toContainText('Refused');
});

test('an owner cancels a sign flow in review after a destructive confirmation', async ({ page }) => {
  await signIn(page, 'ada@paraph.test');
  await page.getByRole('button', { name: /More actions for Supplier agreement\.pdf/ }).click();
  await page.getByRole('menuitem', { name: 'Cancel sign flow' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the sign flow' });
  await expect(dialog).toBeVisible();
  await snap(page, 'cancel-sign-flow');
  // Keeping it is the safe way out and changes nothing.
  await dialog.getByRole('button', { name: 'Keep the sign flow' }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('grid', { name: 'Documents' });
  await expect(list.getByRole('row', { name: /Supplier agreement\.pdf/ })).toContainText('In review');

  await page.getByRole('button', { name: /More actions for Supplier agreement\.pdf/ }).click();
  await page.getByRole('menuitem', { name: 'Cancel sign flow' }).click();
  await dialog.getByRole('button', { name: 'Cancel sign flow' }).click();
  await expect(dialog).toBeHidden({ timeout: 10_000 });
  await page.getByRole('link', { name: 'Failed' }).click();
  await expect(
    page.getByRole('grid', { name: 'Documents' }).getByRole('row', { name: /Supplier agreement\.pdf/ }),
  ).toContainText('Sign flow cancelled');
});
