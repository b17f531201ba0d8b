// Dark mode in Chromium (docs/decisions.md "Dark mode"): with the system set to dark the app is
// dark from the start, the main screens are snapped for a person to read (dark-*), and choosing Light in
// settings makes it light at once and for the next visit.
import { expect, test } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs';
import { accessToken, baseUrl, pageImagesDrawn, signIn, snap, uploadViaApi } from './support';

/** The relative luminance (0 black, 1 white) of an element's computed background colour. */
async function backgroundLuminance(target: Locator): Promise<number> {
  return target.first().evaluate((element) => {
    const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(getComputedStyle(element).backgroundColor);
    if (!match) throw new Error(`no background colour on ${element.tagName}`);
    const [red, green, blue] = [match[1], match[2], match[3]].map((value) => {
      const channel = Number(value) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
  });
}

async function expectDark(page: Page): Promise<void> {
  // The page itself (what shows around the app) and Fluent's root inside #root.
  expect(await backgroundLuminance(page.locator('html'))).toBeLessThan(0.05);
  expect(await backgroundLuminance(page.locator('#root > div'))).toBeLessThan(0.05);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
}

test('the app follows a dark system, and Light in settings makes it light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, 'erin@paraph.test');
  await expectDark(page);

  const token = await accessToken(page);
  if (!token) throw new Error('no access token after sign-in');
  const id = await uploadViaApi(page, token, 'Dark mode check.pdf', await makePdf({ pages: 2 }));
  await pageImagesDrawn(page, token, id, 2);
  // The list with the document selected: its details panel shows the first page's image.
  await page.goto(`${baseUrl()}/app/documents?selected=${id}`);
  await expect(page.getByRole('img', { name: /Dark mode check\.pdf/ }).first()).toBeVisible();
  await expectDark(page);
  await snap(page, 'dark-documents');

  await page.goto(`${baseUrl()}/app/document/${id}`);
  const viewer = page.getByRole('region', { name: 'Document pages' });
  await expect(viewer.locator('canvas').first()).toBeVisible();
  await expectDark(page);
  // The pages are paper: white whatever the theme.
  expect(await backgroundLuminance(viewer.getByRole('img', { name: /Page 1/ }))).toBeGreaterThan(0.9);
  await snap(page, 'dark-document');

  await page.goto(`${baseUrl()}/app/settings`);
  const appearance = page.getByRole('radiogroup', { name: 'Appearance' });
  await expect(appearance.getByRole('radio', { name: 'System' })).toBeChecked();
  await expectDark(page);
  await snap(page, 'dark-settings');

  await appearance.getByRole('radio', { name: 'Light' }).click();
  await expect(appearance.getByRole('radio', { name: 'Light' })).toBeChecked();
  expect(await backgroundLuminance(page.locator('html'))).toBeGreaterThan(0.9);
  expect(await backgroundLuminance(page.locator('#root > div'))).toBeGreaterThan(0.9);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light');
  expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('light');

  // The choice is this device's: a reload keeps it, though the system is still dark.
  await page.reload();
  await expect(page.getByRole('radiogroup', { name: 'Appearance' })).toBeVisible();
  expect(await backgroundLuminance(page.locator('#root > div'))).toBeGreaterThan(0.9);
});

// The page is painted before the app's code has run (src/app/early-start-script.js, loaded before the
// first paint): with the app's own scripts held back, what shows is what a person sees while the bundle
// arrives. It must already be the theme the app will draw: no white flash on a dark page, no dark one
// for a Light choice.
for (const { scheme, stored, expected } of [
  { scheme: 'dark', stored: null, expected: 'dark' },
  { scheme: 'light', stored: 'dark', expected: 'dark' },
  { scheme: 'dark', stored: 'light', expected: 'light' },
] as const) {
  test(`before the app has run, a ${scheme} system with ${stored ?? 'no'} choice shows ${expected}`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    if (stored !== null)
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), stored);
    await page.route(/\/app\/assets\/(?!early-start-)[^/]+\.m?js$/, (route) => route.abort());
    await page.goto(`${baseUrl()}/app/documents`, { waitUntil: 'load' });
    await expect(page.locator('#root')).toBeEmpty();
    const luminance = await backgroundLuminance(page.locator('html'));
    if (expected === 'dark') expect(luminance).toBeLessThan(0.05);
    else expect(luminance).toBeGreaterThan(0.9);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(expected);
    await page.screenshot({ path: `test-results/screens/before-app-${scheme}-${stored ?? 'system'}.png` });
  });
}
