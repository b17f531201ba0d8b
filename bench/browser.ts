// What the Chromium benchmarks (list-paging, viewer) share: a fresh build of the app, the browser, signing
// in as a demo account (in the browser and for API calls from Node), and documents uploaded through the
// real API (upload request, storage POST, POST /api/documents) whose page images the server has rendered.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { openDatabase } from '../server/db/database.ts';
import { DEMO_PASSWORD } from '../server/seed.ts';
import { multipartForm, storageFormFields, type UploadAttributes } from '../tests/api/storage-form.ts';
import { ROOT_DIR } from './server-process.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The same flags as bench/bundle.ts, so every browser benchmark runs the same Chromium.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const VIEWPORT = { width: 1280, height: 900 };
export const STEP_TIMEOUT_MS = 30_000;

const BUILD_INPUTS = ['src', 'machines', 'index.html', 'vite.config.ts', 'public'];
const DIST_INDEX = path.join(ROOT_DIR, 'dist', 'index.html');

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // Build output goes to stderr so that stdout keeps only the results.
    const child = spawn(command, args, { cwd: ROOT_DIR, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

// The server serves dist/: a stale build would measure yesterday's app.
export async function ensureBuilt(bench: string, notes: string[]): Promise<void> {
  const builtAt = existsSync(DIST_INDEX) ? statSync(DIST_INDEX).mtimeMs : 0;
  const changedAt = Math.max(...BUILD_INPUTS.map((input) => newestMtime(path.join(ROOT_DIR, input))));
  if (builtAt >= changedAt) return;
  process.stderr.write(`${bench}: dist/ is missing or older than its sources, building…\n`);
  await run('npx', ['vite', 'build']);
  notes.push('dist/ was rebuilt with `npx vite build` first.');
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

// tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which wraps named inner
// functions in a `__name(fn, "name")` helper that only exists in Node; pages get a do-nothing one.
const NAME_HELPER = 'globalThis.__name = globalThis.__name || ((target) => target);';

export async function newBenchContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript({ content: NAME_HELPER });
  return context;
}

// The real sign-in form, as a person does it; the page ends on the list with its rows shown. The benches
// measure an account in everyday use, so its first-use welcome modal is marked as seen beforehand.
export async function signInInBrowser(page: Page, origin: string, email: string): Promise<void> {
  await markWelcomeWatched(origin, await signInForApi(origin, email));
  await page.goto(`${origin}/app/`);
  await page.waitForURL(/\/app\/login/);
  await page.getByRole('link', { name: 'Sign in' }).first().click();
  await page.waitForURL(/\/sign_in/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/documents/);
  await page.getByRole('grid', { name: 'Documents' }).waitFor({ state: 'visible' });
}

export type ApiSession = { cookie: string; token: string };

// The form post sets the session cookie (the identity app's pages use it), which GET /api/tokens
// exchanges for a bearer token.
export async function signInSession(
  origin: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<ApiSession> {
  const signInResponse = await fetch(`${origin}/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, return_to: '/app/auth' }),
    redirect: 'manual',
  });
  const cookie = signInResponse.headers
    .getSetCookie()
    .map((header) => /^paraph_session=([^;]+)/.exec(header)?.[1])
    .find((value) => value !== undefined);
  if (signInResponse.status !== 303 || cookie === undefined)
    throw new Error(`sign-in of ${email} failed with ${signInResponse.status}`);
  const tokenResponse = await fetch(`${origin}/api/tokens`, {
    headers: { cookie: `paraph_session=${cookie}` },
  });
  const body = (await tokenResponse.json()) as { access_token?: unknown };
  if (tokenResponse.status !== 200 || typeof body.access_token !== 'string')
    throw new Error(`token exchange failed with ${tokenResponse.status}`);
  return { cookie, token: body.access_token };
}

export async function signInForApi(origin: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  return (await signInSession(origin, email, password)).token;
}

export async function markWelcomeWatched(origin: string, token: string): Promise<void> {
  const response = await fetch(`${origin}/api/profiles/update_settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ settings: { welcome_screen_watched: true } }),
  });
  if (!response.ok) throw new Error(`PATCH /api/profiles/update_settings answered ${response.status}`);
}

// One document through the three requests the upload dialog makes; resolves to its id.
export async function uploadDocument(
  origin: string,
  token: string,
  pdf: Buffer,
  filename: string,
): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const requested = await fetch(`${origin}/api/upload_requests`, { method: 'POST', headers: auth });
  if (requested.status !== 201) throw new Error(`POST /api/upload_requests answered ${requested.status}`);
  const upload = ((await requested.json()) as { data: { attributes: UploadAttributes } }).data.attributes;
  const { payload, headers } = multipartForm([...storageFormFields(upload), ['file', pdf, filename]]);
  const stored = await fetch(new URL(upload.url, origin), {
    method: 'POST',
    headers,
    body: new Uint8Array(payload),
  });
  if (stored.status !== 201)
    throw new Error(`the storage POST answered ${stored.status}: ${(await stored.text()).slice(0, 300)}`);
  const created = await fetch(`${origin}/api/documents`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      original_filename: filename,
      file_url: `${upload.url}/${upload.key}`,
      filename: upload.key,
    }),
  });
  const body = (await created.json()) as { data?: { id?: unknown } };
  if (created.status !== 201 || typeof body.data?.id !== 'string')
    throw new Error(`POST /api/documents answered ${created.status}`);
  return body.data.id;
}

// Waits until the server's image worker has no job left (queued or running), read from the data folder's
// database beside the running server, so that no page rendering competes with the measurement.
export async function waitForImageJobs(dataDir: string, timeoutMs: number): Promise<void> {
  const { db } = await openDatabase({ dataDir, databaseUrl: null });
  try {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const rows = await db
        .selectFrom('jobs')
        .select(['state', 'last_error'])
        .where('state', 'in', ['queued', 'running'])
        .execute();
      if (rows.length === 0) break;
      if (performance.now() > deadline)
        throw new Error(`${rows.length} page-image jobs still pending after ${timeoutMs / 1000} s`);
      await sleep(250);
    }
    const failed = await db.selectFrom('jobs').select('id').where('state', '=', 'failed').execute();
    if (failed.length > 0) throw new Error(`${failed.length} page-image jobs failed`);
  } finally {
    await db.destroy();
  }
}

export function percentile(values: number[], share: number): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  // Nearest rank: p90 of 20 values is the 18th.
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}
