// bench/bundle: the JS and CSS a signed-in person's browser loads for /app/documents before the list is
// usable, gzipped here at level 9 (what a CDN would send), against a 150 KB target.
// pdfjs-dist and Konva must never be on this path: either one loaded fails the run.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { type Browser, type BrowserContext, type Response } from 'playwright-core';
import { inlineScripts } from '../server/pages/spa.ts';
import { DEMO_ACCOUNTS } from '../server/seed.ts';
import { kib, ratio, round, type Bench, type BenchResult } from './report.ts';
import { ensureBuilt, launchChromium, signInInBrowser, STEP_TIMEOUT_MS } from './browser.ts';
import { ROOT_DIR, makeDataDir, startServer } from './server-process.ts';

const TARGET_GZIP_BYTES = 150 * 1024;

// A file name, or code only these libraries contain. A bare "pdfjs" in the content is not enough: the
// lazy loader that names the pdfjs chunk (without loading it) would match.
const FORBIDDEN = [
  {
    library: 'pdfjs-dist',
    name: /pdfjs|pdf\.worker/i,
    content: /pdfjsLib|pdfjsWorker|pdfjs_internal_|GlobalWorkerOptions/,
  },
  { library: 'konva', name: /konva/i, content: /Konva warning|Konva\.js|KonvaCanvas/ },
] as const;

type Asset = {
  url: string;
  file: string;
  kind: 'js' | 'css';
  status: number;
  raw: number;
  gzip: number;
  forbidden: string[];
};

function assetKind(response: Response): 'js' | 'css' | null {
  const type = response.headers()['content-type'] ?? '';
  if (/javascript/.test(type)) return 'js';
  if (/text\/css/.test(type)) return 'css';
  const pathname = new URL(response.url()).pathname;
  if (/\.m?js$/.test(pathname)) return 'js';
  if (/\.css$/.test(pathname)) return 'css';
  return null;
}

function forbiddenIn(file: string, body: Buffer): string[] {
  const text = body.toString('latin1');
  return FORBIDDEN.filter((rule) => rule.name.test(file) || rule.content.test(text)).map(
    (rule) => rule.library,
  );
}

// The content markers must find the libraries where the build put them, or a clean result means nothing.
function checkMarkers(problems: string[]): void {
  const assets = path.join(ROOT_DIR, 'dist', 'assets');
  for (const rule of FORBIDDEN) {
    const chunks = readdirSync(assets).filter((file) => rule.name.test(file) && /\.m?js$/.test(file));
    for (const chunk of chunks) {
      if (!rule.content.test(readFileSync(path.join(assets, chunk), 'latin1'))) {
        problems.push(
          `the ${rule.library} content markers do not match dist/assets/${chunk}: update FORBIDDEN in bench/bundle.ts`,
        );
      }
    }
  }
}

// The page's inline scripts (as the server hashes them for its CSP) or style elements, as one asset.
function inlineAsset(file: string, kind: 'js' | 'css', html: string, status: number): Asset {
  const texts =
    kind === 'js'
      ? inlineScripts(html)
      : [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, text]) => text ?? '');
  const body = Buffer.from(texts.join('\n'));
  return {
    url: file,
    file,
    kind,
    status,
    raw: body.length,
    gzip: body.length === 0 ? 0 : gzipSync(body, { level: 9 }).length,
    forbidden: forbiddenIn(file, body),
  };
}

async function signInAndKeepState(
  browser: Browser,
  origin: string,
  email: string,
): ReturnType<BrowserContext['storageState']> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    await signInInBrowser(page, origin, email);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

async function measure(): Promise<BenchResult> {
  const notes: string[] = [];
  const problems: string[] = [];
  await ensureBuilt('bundle', notes);
  checkMarkers(problems);
  const email = DEMO_ACCOUNTS[0].email;
  const server = await startServer({ dataDir: await makeDataDir('bundle'), demo: true });
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    const storageState = await signInAndKeepState(browser, server.origin, email);

    // A new context has an empty HTTP cache: everything the list needs is fetched, as on a first visit
    // after signing in. Local storage (the token) and the cookie come along.
    const context = await browser.newContext({ storageState, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const pending: Promise<Asset>[] = [];
    page.on('response', (response) => {
      // The page carries the start-up script and its style sheet inline (vite.config.ts, earlyStart):
      // they count as what the list needs, under the page's address.
      if (response.request().resourceType() === 'document') {
        const pathname = new URL(response.url()).pathname;
        pending.push(
          ...(['js', 'css'] as const).map((kind) =>
            response
              .text()
              .then((html) => inlineAsset(`${pathname} (inline ${kind})`, kind, html, response.status())),
          ),
        );
        return;
      }
      const kind = assetKind(response);
      if (kind === null) return;
      const url = response.url();
      const file = new URL(url).pathname;
      pending.push(
        response.body().then((body) => ({
          url,
          file,
          kind,
          status: response.status(),
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          forbidden: forbiddenIn(file, body),
        })),
      );
    });
    const startedAt = performance.now();
    await page.goto(`${server.origin}/app/documents`, { waitUntil: 'commit' });
    const grid = page.getByRole('grid', { name: 'Documents' });
    // The header row plus at least one document: the demo account has several.
    await grid.getByRole('row').nth(1).waitFor({ state: 'visible' });
    const visibleMs = performance.now() - startedAt;
    await page.waitForLoadState('networkidle');
    if (!new URL(page.url()).pathname.startsWith('/app/documents')) {
      problems.push(`the list page ended on ${new URL(page.url()).pathname}, not /app/documents`);
    }
    const seen = new Map<string, Asset>();
    for (const asset of await Promise.all(pending)) seen.set(asset.url, asset);
    await context.close();

    const assets = [...seen.values()].filter((asset) => asset.raw > 0).sort((a, b) => b.gzip - a.gzip);
    for (const asset of assets) {
      if (asset.status >= 400) problems.push(`${asset.file} answered ${asset.status}`);
      for (const library of asset.forbidden)
        problems.push(`${asset.file} is ${library} code, loaded by /app/documents`);
    }
    if (assets.length === 0) problems.push('no JS or CSS was recorded: the measurement is broken');
    const totalRaw = assets.reduce((sum, asset) => sum + asset.raw, 0);
    const totalGzip = assets.reduce((sum, asset) => sum + asset.gzip, 0);
    const gzipRatio = totalGzip / TARGET_GZIP_BYTES;
    notes.push(`list visible ${Math.round(visibleMs)} ms after navigation (informational; not a budget)`);
    if (gzipRatio > 1)
      notes.push(
        `OVER TARGET: ${kib(totalGzip)} gzip is ${ratio(gzipRatio)} the ${kib(TARGET_GZIP_BYTES)} target`,
      );
    return {
      name: 'bundle',
      title: 'JS and CSS loaded by /app/documents until the list is visible and the network is idle',
      tables: [
        {
          title: `Files (${assets.length}), gzip level 9, largest first`,
          columns: ['file', 'type', 'raw', 'gzip', 'flag'],
          rows: [
            ...assets.map((asset) => [
              asset.file,
              asset.kind,
              kib(asset.raw),
              kib(asset.gzip),
              asset.forbidden.join(', '),
            ]),
            ['total', '', kib(totalRaw), kib(totalGzip), ''],
            ['target', '', '', kib(TARGET_GZIP_BYTES), ''],
            ['total / target', '', '', ratio(gzipRatio), gzipRatio > 1 ? 'over target' : ''],
          ],
        },
      ],
      metrics: {
        files: assets.length,
        rawBytes: totalRaw,
        gzipBytes: totalGzip,
        targetGzipBytes: TARGET_GZIP_BYTES,
        gzipOverTarget: round(gzipRatio, 3),
        jsGzipBytes: assets
          .filter((asset) => asset.kind === 'js')
          .reduce((sum, asset) => sum + asset.gzip, 0),
        cssGzipBytes: assets
          .filter((asset) => asset.kind === 'css')
          .reduce((sum, asset) => sum + asset.gzip, 0),
        listVisibleMs: Math.round(visibleMs),
      },
      notes,
      problems,
    };
  } finally {
    await browser?.close();
    await server.stop();
  }
}

export const bundleBench: Bench = {
  name: 'bundle',
  title: 'gzip size of what /app/documents loads',
  run: measure,
};
