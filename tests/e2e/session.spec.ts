// A token revoked while the app is open: the next call answers 401 and the person lands on the
// timeout notice, with the token gone from local storage.
import { expect, test } from './fixtures.ts';
import { accessToken, baseUrl, signIn, snap } from './support.ts';

test('a token revoked mid-session lands on /app/login/timeout', async ({ page }) => {
  await signIn(page, 'bob@paraph.test');
  await expect(page.getByRole('grid', { name: 'Documents' })).toBeVisible();
  const token = await accessToken(page);
  // The app keeps the opaque token the server issued: 32 random bytes, base64url.
  expect(token).toMatch(/^[\w-]{43}$/);

  // Revoke it from outside the page, as a log-out in another tab would.
  const revoked = await page.request.get(`${baseUrl()}/api/log_out?return_to=/app/login`, {
    headers: { Authorization: `Bearer ${token}` },
    maxRedirects: 0,
  });
  expect(revoked.status()).toBe(303);

  // The next API call (a sort change reloads the list) gets a 401.
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Oldest first' });
  await expect(page).toHaveURL(/\/app\/login\/timeout\?returnUrl=%2Fapp%2Fdocuments$/);
  await expect(page.getByText('Your session has expired')).toBeVisible();
  expect(await accessToken(page)).toBeNull();
  await snap(page, 'login-timeout');

  // Signing in again goes back where the session ended.
  await page
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  await page.getByLabel('E-mail').fill('bob@paraph.test');
  await page.getByLabel('Password').fill('paraph-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/documents$/);
});

test('a protected page without a token goes to the login page with a return URL', async ({ page }) => {
  await page.goto(`${baseUrl()}/app/documents/done`);
  await expect(page).toHaveURL(/\/app\/login/);
  await page
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  await page.getByLabel('E-mail').fill('carol@paraph.test');
  await page.getByLabel('Password').fill('paraph-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/documents\/done$/);
});
