// Shared steps of the browser journeys: the server's address, signing in as a person would, and
// screenshots at the three widths people use (phone, tablet, desktop), each screen checked with axe.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { expect, type Browser, type Page } from '@playwright/test';

export const WIDTHS = [375, 800, 1280] as const;
export const DEMO_PASSWORD = 'paraph-demo';

export function baseUrl(): string {
  const url = process.env.PARAPH_URL;
  if (!url) throw new Error('PARAPH_URL is not set: the global setup did not start the server');
  return url;
}

// axe runs on every screen a journey snaps, at these widths (the phone and the desktop layouts).
const AXE_WIDTHS: readonly number[] = [375, 1280];

// axe-core itself, put in each page once: @axe-core/playwright injected its 550 KB into every frame on
// every check and gathered every passing node too, four times as long as the check (2 s against 0.4 s).
let axeSource: string | undefined;

function axeScript(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

/** The serious and critical axe violations on the page as it is now, one line each. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>, which the app's Content-Security-Policy would refuse.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeScript());
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Node, options: object) => Promise<AxeResults> } }).axe.run(
      document,
      { resultTypes: ['violations'] },
    ),
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      ...violation,
      // Fluent's focus manager (tabster) puts focusable, aria-hidden sentinels around focus traps and
      // lists, which move focus on at once: a known false positive of this rule (microsoft/tabster#288;
      // Accessibility Insights suppresses it the same way). Other elements still count.
      nodes: violation.nodes.filter(
        (node) => !(violation.id === 'aria-hidden-focus' && node.html.includes('data-tabster-dummy')),
      ),
    }))
    .filter((violation) => violation.nodes.length > 0)
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * The viewport at `width` (phone height under 768 px), once the page has laid itself out for it: the
 * window has the new width, and a frame has been drawn since. The browser tells media query listeners
 * (useMediaQuery's layout switches) of the change in that frame's rendering steps, before its animation
 * frame callbacks; React renders what they change at once (a store update is synchronous), so by the
 * second frame the new layout is in the page and the animations it starts are running.
 */
export async function resizeTo(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
  await page.waitForFunction((expected) => window.innerWidth === expected, width);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Until every animation has finished (endless ones, a spinner while waiting, are part of the picture), and
 * a dialog that closed has let go of the page: a modal hides the app's root from assistive technology
 * while it is open, and with reduced motion it may be out of view a moment before it is gone.
 */
export async function animationsAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const moving = document
      .getAnimations()
      .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
    const dialogOpen = [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].some(
      (dialog) => dialog.checkVisibility(),
    );
    const rootHidden = document.getElementById('root')?.closest('[aria-hidden="true"]') != null;
    return !moving && (dialogOpen || !rootHidden);
  });
}

/**
 * Full-page screenshots at every width in WIDTHS, for a person to look at, and an axe check at 375 and
 * 1280 px: a screen a journey shows must have no serious or critical violation at either layout.
 */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync('test-results/screens', { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  const violations: string[] = [];
  for (const width of WIDTHS) {
    // The layout for the width (media queries, the sidebar collapsing), and the rows that a layout switch
    // re-mounts faded in, so the picture shows what a person sees at rest.
    await resizeTo(page, width);
    await animationsAtRest(page);
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
    if (AXE_WIDTHS.includes(width)) {
      for (const violation of await seriousAxeViolations(page)) violations.push(`${width} px ${violation}`);
    }
  }
  await page.setViewportSize(original);
  expect(violations, `axe on ${name}`).toEqual([]);
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${baseUrl()}/app/`);
  await expect(page).toHaveURL(/\/app\/login/);
  await page
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  await expect(page).toHaveURL(/\/sign_in/);
  await submitSignInForm(page, email);
  await expect(page).toHaveURL(/\/app\/documents/);
  await closeWelcomeIfDue(page);
}

/**
 * An account's first sign-in opens the welcome modal over the list (the demo accounts start unwatched).
 * The journeys that are not about it close it as a person would; the profile says whether it is due, so
 * the wait is never a guess.
 */
export async function closeWelcomeIfDue(page: Page): Promise<void> {
  const token = await accessToken(page);
  const response = await page.request.get(`${baseUrl()}/api/profiles`, {
    headers: { Authorization: `Bearer ${token ?? ''}` },
  });
  expect(response.status()).toBe(200);
  const profile = (await response.json()) as { data: { attributes: { welcomeScreenWatched: boolean } } };
  if (profile.data.attributes.welcomeScreenWatched) return;
  const welcome = page.getByRole('dialog', { name: 'Welcome to Paraph' });
  await welcome.getByRole('button', { name: 'Get started' }).click();
  await expect(welcome).toBeHidden();
}

/** The server's sign-in page, filled in with a demo account's password. */
export async function submitSignInForm(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Someone else at the same time: a browser context of their own, signed in at desktop width. */
export async function personIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

export async function accessToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('access_token'));
}

/** The id of the signed-in person's document whose name starts with `name`, from their active list. */
export async function documentNamed(page: Page, name: string): Promise<string> {
  const token = await accessToken(page);
  const response = await page.request.get(
    `${baseUrl()}/api/documents/active?search=${encodeURIComponent(name)}`,
    { headers: { Authorization: `Bearer ${token ?? ''}` } },
  );
  const list = (await response.json()) as {
    data: { id: string; attributes: { originalFilename: string } }[];
  };
  const found = list.data.find((document) => document.attributes.originalFilename.startsWith(name));
  if (!found) throw new Error(`no document named ${name}`);
  return found.id;
}

type UploadTicket = { url: string; key: string; fields: Record<string, string> };

/** Uploads a PDF the way the app does (presigned POST, then POST /api/documents), for test setup. */
export async function uploadViaApi(
  page: Page,
  token: string,
  name: string,
  bytes: Uint8Array,
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const ticketResponse = await page.request.post(`${baseUrl()}/api/upload_requests`, { headers });
  expect(ticketResponse.status()).toBe(201);
  const { attributes } = ((await ticketResponse.json()) as { data: { attributes: Record<string, string> } })
    .data;
  const ticket: UploadTicket = {
    url: String(attributes.url),
    key: String(attributes.key),
    fields: {
      key: String(attributes.key),
      acl: String(attributes.acl),
      policy: String(attributes.policy),
      success_action_status: String(attributes.successActionStatus),
      'X-Amz-Credential': String(attributes.xAmzCredential),
      'X-Amz-Signature': String(attributes.xAmzSignature),
      'X-Amz-Algorithm': String(attributes.xAmzAlgorithm),
      'X-Amz-Date': String(attributes.xAmzDate),
    },
  };
  const stored = await page.request.post(new URL(ticket.url, baseUrl()).toString(), {
    multipart: { ...ticket.fields, file: { name, mimeType: 'application/pdf', buffer: Buffer.from(bytes) } },
  });
  expect(stored.status()).toBe(201);
  const created = await page.request.post(`${baseUrl()}/api/documents`, {
    headers,
    data: { original_filename: name, file_url: `${ticket.url}/${ticket.key}`, filename: ticket.key },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { data: { id: string } }).data.id;
}

/**
 * Waits until the server has drawn all `pages` page images of a document, which it does in the background
 * after an upload, behind whatever else is queued (a fresh server first draws its demo documents).
 */
export async function pageImagesDrawn(page: Page, token: string, id: string, pages: number): Promise<void> {
  type Read = { data: { attributes: { publicImagesFileUrls: string[] } } };
  const headers = { Authorization: `Bearer ${token}` };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${baseUrl()}/api/documents/${id}`, { headers })).json()) as Read)
          .data.attributes.publicImagesFileUrls.length,
      // Beside three other servers and their browsers on two cores, this has taken over 30 s.
      { timeout: 90_000 },
    )
    .toBe(pages);
}

/**
 * How long the identity app's Confirm may take to answer: the server signs the PDF (a time-stamp, the
 * CA's revocation data) before it says how it went, and beside three other journeys' browsers and servers
 * on two cores that has taken over 15 s, the limit of an ordinary action.
 */
export const IDP_CONFIRM_TIMEOUT_MS = 60_000;
