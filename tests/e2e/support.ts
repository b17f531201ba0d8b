// Shared steps of the browser journeys: the server's address, signing in as a person would, and
// screenshots at the three widths people use (phone, tablet, desktop).
import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export const WIDTHS = [375, 800, 1280] as const;
export const DEMO_PASSWORD = 'paraph-demo';

export function baseUrl(): string {
  const url = process.env.PARAPH_URL;
  if (!url) throw new Error('PARAPH_URL is not set: the global setup did not start the server');
  return url;
}

export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screens', { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
    // Let layout settle after the resize (media queries, the sidebar collapsing), and let the rows that
    // a layout switch re-mounts finish fading in, so the picture shows what a person sees at rest.
    await page.waitForTimeout(250);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(original);
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${baseUrl()}/app/`);
  await expect(page).toHaveURL(/\/app\/login/);
  await page.getByRole('link', { name: /sign in/i }).first().click();
  await expect(page).toHaveURL(/\/sign_in/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/app\/documents/);
}

export async function accessToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('access_token'));
}
