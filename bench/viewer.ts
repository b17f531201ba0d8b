// bench/viewer: a 500-page PDF made by code, uploaded for the demo user through the API, opened at
// /app/document/<id> in Chromium at 1280x900: time to the first page drawn, the live page canvases while
// scrolling from the first page to the last (target <= 2 x visible + 1: the viewer must be virtualised),
// and the JS heap before, after that scroll and after a second one. The reference in the same Chromium run is pdfjs-dist's own web viewer
// (web/pdf_viewer.mjs: PDFViewer, EventBus, PDFLinkService) on the same file, served from this process.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_ACCOUNTS } from '../server/seed.ts';
import { makePdf } from '../tests/fixtures/pdfs.ts';
import {
  STEP_TIMEOUT_MS,
  ensureBuilt,
  launchChromium,
  newBenchContext,
  percentile,
  signInForApi,
  signInInBrowser,
  uploadDocument,
  waitForImageJobs,
} from './browser.ts';
import { mib, ms, ratio, round, type Bench, type BenchResult } from './report.ts';
import { ROOT_DIR, makeDataDir, startServer } from './server-process.ts';

const PAGES = 500;
// Each viewer is opened once to warm the HTTP cache (the app's bundle is cached by signing in, pdf.js's
// files would not be), then this many times alternately; the median is reported.
const FIRST_PAGE_RUNS = 7;
const FIRST_PAGE_TARGET = 1.2;
// The same first-page runs again over an emulated network (Chromium's own throttling, the same for
// both viewers): a link opened from an e-mail does not come from localhost, and every request the
// page has to wait for before the next then costs a round trip.
const ROUND_TRIP_MS = 80;
const ROUND_TRIP_RUNS = 5;
const EMULATED_BYTES_PER_SECOND = (20 * 1024 * 1024) / 8;
// "Heap flat": after the scroll, at most this much above the heap before it (after a forced GC each time).
const HEAP_FLAT_RATIO = 1.1;
// What each scroll step waits after the scroll frame: enough for observers, React and a render to start.
const SCROLL_SETTLE_MS = 20;
const REST_MS = 1_000;
// The server renders a page image per page (about 30 s for 500 on this machine) before the viewer opens.
const IMAGE_JOBS_TIMEOUT_MS = 150_000;
const PDFJS_DIR = path.join(ROOT_DIR, 'node_modules', 'pdfjs-dist');
const PDF_TO_CSS_UNITS = 96 / 72;
const A4_WIDTH_PT = 595.28;

type Regions = { scroller: string; slots: string; canvases: string };

const APP_REGIONS: Regions = {
  scroller: 'main#main',
  slots: 'section[aria-label="Document pages"] [role="img"]',
  canvases: 'section[aria-label="Document pages"] canvas',
};
const REFERENCE_REGIONS: Regions = {
  scroller: '#viewerContainer',
  slots: '#viewer .page',
  canvases: '#viewer canvas',
};

type ScrollStats = {
  steps: number;
  maxCanvases: number;
  maxBitmaps: number;
  maxVisible: number;
  restCanvases: number;
  restBitmaps: number;
  lastPageVisible: boolean;
};

type ViewerRun = {
  firstPageMs: number[];
  firstCanvasMs: number[];
  // The same, with every request a round trip away (ROUND_TRIP_MS).
  remoteFirstPageMs: number[];
  pdfStartMs: number[];
  pdfEndMs: number[];
  heapBefore: number;
  heapAfter: number;
  // After a second full scroll from the top: what drawing pages again and again keeps.
  heapAfterSecond: number;
  scroll: ScrollStats;
  slotWidth: number;
  slots: number;
};

declare global {
  interface Window {
    __viewerBench?: { firstPageAt: number | null; firstCanvasAt: number | null };
  }
}

// Runs in every page before its own scripts: watches, frame by frame, for the first page on screen with
// ink on it (the test PDF's text or its blue box) and keeps the time since navigation started. A page is
// a canvas, or a loaded image at least PAGE_MIN_WIDTH wide (the app shows the server's image of the first
// page until pdf.js has drawn it; icons are smaller). The first canvas alone is kept too: pdf.js's own
// drawing, for the informational row.
function firstPageProbe(): void {
  const state: { firstPageAt: number | null; firstCanvasAt: number | null } = {
    firstPageAt: null,
    firstCanvasAt: null,
  };
  window.__viewerBench = state;
  const pageMinWidth = 200;
  const size = 48;
  const scratch = document.createElement('canvas');
  scratch.width = size;
  scratch.height = size;
  const context = scratch.getContext('2d', { willReadFrequently: true });
  const hasInk = (source: HTMLCanvasElement | HTMLImageElement): boolean => {
    if (context === null) return false;
    context.clearRect(0, 0, size, size);
    context.drawImage(source, 0, 0, size, size);
    const data = context.getImageData(0, 0, size, size).data;
    for (let index = 0; index < data.length; index += 4) {
      const alpha = data[index + 3] ?? 0;
      const darkest = Math.min(data[index] ?? 255, data[index + 1] ?? 255, data[index + 2] ?? 255);
      if (alpha > 0 && darkest < 160) return true;
    }
    return false;
  };
  const onScreen = (element: Element): boolean => {
    const rect = element.getBoundingClientRect();
    return rect.width > 0 && rect.bottom > 0 && rect.top < window.innerHeight;
  };
  const tick = (): void => {
    const now = performance.now();
    if (state.firstCanvasAt === null) {
      for (const canvas of document.querySelectorAll('canvas')) {
        if (canvas.width === 0 || canvas.hidden || !onScreen(canvas) || !hasInk(canvas)) continue;
        state.firstCanvasAt = now;
        state.firstPageAt ??= now;
        break;
      }
    }
    if (state.firstPageAt === null) {
      for (const image of document.querySelectorAll('img')) {
        if (!image.complete || image.naturalWidth === 0 || image.getBoundingClientRect().width < pageMinWidth) {
          continue;
        }
        if (!onScreen(image) || !hasInk(image)) continue;
        state.firstPageAt = now;
        break;
      }
    }
    if (state.firstCanvasAt === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function scrollThrough({
  regions,
  settleMs,
  restMs,
}: {
  regions: Regions;
  settleMs: number;
  restMs: number;
}): Promise<ScrollStats> {
  const scroller = document.querySelector(regions.scroller);
  if (!(scroller instanceof HTMLElement)) throw new Error(`no ${regions.scroller}`);
  const frame = (): Promise<void> => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const wait = (time: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, time));
  const slots = [...document.querySelectorAll(regions.slots)];
  const onScreen = (element: Element): boolean => {
    const view = scroller.getBoundingClientRect();
    const top = Math.max(view.top, 0);
    const bottom = Math.min(view.bottom, window.innerHeight);
    const rect = element.getBoundingClientRect();
    return rect.bottom > top && rect.top < bottom && rect.height > 0;
  };
  const canvases = (): { all: number; bitmaps: number } => {
    const list = [...document.querySelectorAll(regions.canvases)].filter(
      (element): element is HTMLCanvasElement => element instanceof HTMLCanvasElement,
    );
    return { all: list.length, bitmaps: list.filter((canvas) => canvas.width * canvas.height > 0).length };
  };
  const stats: ScrollStats = {
    steps: 0,
    maxCanvases: 0,
    maxBitmaps: 0,
    maxVisible: 0,
    restCanvases: 0,
    restBitmaps: 0,
    lastPageVisible: false,
  };
  const record = (): void => {
    const live = canvases();
    stats.maxCanvases = Math.max(stats.maxCanvases, live.all);
    stats.maxBitmaps = Math.max(stats.maxBitmaps, live.bitmaps);
    stats.maxVisible = Math.max(stats.maxVisible, slots.filter(onScreen).length);
  };
  scroller.scrollTop = 0;
  await frame();
  record();
  for (;;) {
    const before = scroller.scrollTop;
    scroller.scrollTop = before + scroller.clientHeight;
    await frame();
    await frame();
    await wait(settleMs);
    record();
    stats.steps += 1;
    if (
      scroller.scrollTop <= before ||
      scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1
    )
      break;
  }
  await wait(restMs);
  const rest = canvases();
  stats.restCanvases = rest.all;
  stats.restBitmaps = rest.bitmaps;
  const last = slots[slots.length - 1];
  stats.lastPageVisible = last !== undefined && onScreen(last);
  return stats;
}

function referenceHtml(scale: number): string {
  // pdf_viewer.mjs reads the library from globalThis.pdfjsLib when it is evaluated, hence the dynamic
  // import after the global is set. The document parameters are the app's (src/pdf/pdf-viewer.tsx).
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pdf.js reference viewer</title>
<link rel="stylesheet" href="/pdfjs/web/pdf_viewer.css">
<style>
  html, body { margin: 0; height: 100%; }
  #viewerContainer { position: absolute; inset: 0; overflow: auto; }
</style>
</head>
<body>
<div id="viewerContainer"><div id="viewer" class="pdfViewer"></div></div>
<script type="module">
  const pdfjsLib = await import('/pdfjs/build/pdf.min.mjs');
  globalThis.pdfjsLib = pdfjsLib;
  const { EventBus, PDFLinkService, PDFViewer } = await import('/pdfjs/web/pdf_viewer.mjs');
  pdfjsLib.GlobalWorkerOptions.workerSrc = '/pdfjs/build/pdf.worker.min.mjs';
  const container = document.getElementById('viewerContainer');
  const eventBus = new EventBus();
  const linkService = new PDFLinkService({ eventBus });
  const viewer = new PDFViewer({ container, eventBus, linkService });
  linkService.setViewer(viewer);
  eventBus.on('pagesinit', () => { viewer.currentScale = ${scale}; });
  const pdf = await pdfjsLib.getDocument({ url: '/document.pdf', isEvalSupported: false, withCredentials: false }).promise;
  viewer.setDocument(pdf);
  linkService.setDocument(pdf, null);
</script>
</body>
</html>
`;
}

const CONTENT_TYPES: Record<string, string> = {
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

type StaticServer = { origin: string; setScale(scale: number): void; close(): Promise<void> };

// The reference's files: pdfjs-dist's build/ and web/ folders, the page, and the PDF. Like the app's
// storage, the PDF is sent whole (no range requests) and not cached.
async function startStaticServer(pdf: Buffer): Promise<StaticServer> {
  let scale = 1;
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const send = (status: number, type: string, body: Buffer | string, cache: string): void => {
      response.writeHead(status, { 'content-type': type, 'cache-control': cache });
      response.end(body);
    };
    if (pathname === '/viewer.html') {
      send(200, 'text/html; charset=utf-8', referenceHtml(scale), 'no-store');
      return;
    }
    if (pathname === '/document.pdf') {
      send(200, 'application/pdf', pdf, 'no-store');
      return;
    }
    const match = /^\/pdfjs\/((?:build|web)\/[\w./-]+)$/.exec(pathname);
    const file = match?.[1] === undefined ? null : path.join(PDFJS_DIR, path.normalize(match[1]));
    if (file === null || !file.startsWith(`${PDFJS_DIR}${path.sep}`) || file.includes('..')) {
      send(404, 'text/plain', 'not found', 'no-store');
      return;
    }
    readFile(file).then(
      (body) =>
        send(
          200,
          CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
          body,
          'public, max-age=3600',
        ),
      () => send(404, 'text/plain', 'not found', 'no-store'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setScale(value) {
      scale = value;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type OpenedViewer = {
  page: Page;
  firstPageMs: number;
  firstCanvasMs: number;
  pdfStartMs: number;
  pdfEndMs: number;
};

async function openViewer(
  context: BrowserContext,
  url: string,
  regions: Regions,
  roundTripMs = 0,
): Promise<OpenedViewer> {
  const page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  if (roundTripMs > 0) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: roundTripMs,
      downloadThroughput: EMULATED_BYTES_PER_SECOND,
      uploadThroughput: EMULATED_BYTES_PER_SECOND,
    });
  }
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => typeof window.__viewerBench?.firstCanvasAt === 'number');
  const { firstPageMs, firstCanvasMs } = await page.evaluate(() => ({
    firstPageMs: window.__viewerBench?.firstPageAt ?? Number.NaN,
    firstCanvasMs: window.__viewerBench?.firstCanvasAt ?? Number.NaN,
  }));
  await page.locator(regions.slots).first().waitFor({ state: 'visible' });
  // When the PDF was asked for and received: what comes before it is the viewer's own start-up.
  const pdf = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType('resource')
      .filter((candidate): candidate is PerformanceResourceTiming => 'responseEnd' in candidate)
      .find((candidate) => new URL(candidate.name).pathname.endsWith('.pdf'));
    return entry === undefined ? null : { start: entry.startTime, end: entry.responseEnd };
  });
  return {
    page,
    firstPageMs,
    firstCanvasMs,
    pdfStartMs: pdf?.start ?? Number.NaN,
    pdfEndMs: pdf?.end ?? Number.NaN,
  };
}

async function heapAfterGc(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    // Twice: the first collection can leave garbage that only finalizers released.
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
  } finally {
    await cdp.detach();
  }
  const used = await page.evaluate(
    () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize,
  );
  if (used === undefined) throw new Error('performance.memory is missing: Chromium ignored the memory flag');
  return used;
}

async function scrollAndWeigh(
  page: Page,
  regions: Regions,
): Promise<
  Omit<ViewerRun, 'firstPageMs' | 'firstCanvasMs' | 'remoteFirstPageMs' | 'pdfStartMs' | 'pdfEndMs'>
> {
  const slots = await page.locator(regions.slots).count();
  const slotWidth = await page
    .locator(regions.slots)
    .first()
    .evaluate((element) => element.getBoundingClientRect().width);
  await page.waitForTimeout(REST_MS);
  const heapBefore = await heapAfterGc(page);
  const scroll = await page.evaluate(scrollThrough, {
    regions,
    settleMs: SCROLL_SETTLE_MS,
    restMs: REST_MS,
  });
  const heapAfter = await heapAfterGc(page);
  // The first scroll also pays once for V8 compiling the code it runs (a heap snapshot diff showed about
  // 670 KB of the app's 0.9 MB growth as compiled code) and for pdf.js's small per-page proxies. A second
  // scroll runs the same code over pages already opened: any growth there is kept per drawing.
  await page.evaluate(scrollThrough, { regions, settleMs: SCROLL_SETTLE_MS, restMs: REST_MS });
  const heapAfterSecond = await heapAfterGc(page);
  return { heapBefore, heapAfter, heapAfterSecond, scroll, slotWidth, slots };
}

function optionalMs(value: number): string {
  return Number.isNaN(value) ? '-' : ms(value);
}

function verdict(value: number, target: number): string {
  return value > target ? 'OVER TARGET' : 'ok';
}

async function measure(): Promise<BenchResult> {
  const notes: string[] = [];
  const problems: string[] = [];
  await ensureBuilt('viewer', notes);
  const email = DEMO_ACCOUNTS[0].email;
  const pdf = await makePdf({ pages: PAGES, text: 'Viewer benchmark: a long contract' });
  const server = await startServer({ dataDir: await makeDataDir('viewer'), demo: true });
  const files = await startStaticServer(pdf);
  const browser = await launchChromium(['--enable-precise-memory-info']).catch(async (error: unknown) => {
    await files.close();
    await server.stop();
    throw error;
  });
  try {
    const token = await signInForApi(server.origin, email);
    const uploadStartedAt = performance.now();
    const documentId = await uploadDocument(server.origin, token, pdf, `Long contract ${PAGES} pages.pdf`);
    const uploadSeconds = (performance.now() - uploadStartedAt) / 1000;
    const renderStartedAt = performance.now();
    await waitForImageJobs(server.dataDir, IMAGE_JOBS_TIMEOUT_MS);
    notes.push(
      `a ${PAGES}-page PDF (${mib(pdf.length)}) uploaded through the API in ${uploadSeconds.toFixed(1)} s; the server rendered its page images in ${((performance.now() - renderStartedAt) / 1000).toFixed(1)} s, before measuring`,
    );

    const context = await newBenchContext(browser);
    await context.addInitScript(firstPageProbe);
    const signInPage = await context.newPage();
    signInPage.setDefaultTimeout(STEP_TIMEOUT_MS);
    await signInInBrowser(signInPage, server.origin, email);
    await signInPage.close();
    const appUrl = `${server.origin}/app/document/${documentId}`;

    // The app first: the reference is drawn at the width the app gives its pages.
    const warm = await openViewer(context, appUrl, APP_REGIONS);
    const appSlotWidth = await warm.page
      .locator(APP_REGIONS.slots)
      .first()
      .evaluate((element) => element.getBoundingClientRect().width);
    await warm.page.close();
    files.setScale(appSlotWidth / (A4_WIDTH_PT * PDF_TO_CSS_UNITS));
    const referenceUrl = `${files.origin}/viewer.html`;
    await (await openViewer(context, referenceUrl, REFERENCE_REGIONS)).page.close();

    const firstPage = { app: [] as number[], reference: [] as number[] };
    const firstCanvas = { app: [] as number[], reference: [] as number[] };
    const remoteFirstPage = { app: [] as number[], reference: [] as number[] };
    const pdfStart = { app: [] as number[], reference: [] as number[] };
    const pdfEnd = { app: [] as number[], reference: [] as number[] };
    let appPage: Page | null = null;
    let referencePage: Page | null = null;
    for (let attempt = 0; attempt < FIRST_PAGE_RUNS; attempt += 1) {
      const isLast = attempt === FIRST_PAGE_RUNS - 1;
      const reference = await openViewer(context, referenceUrl, REFERENCE_REGIONS);
      firstPage.reference.push(reference.firstPageMs);
      firstCanvas.reference.push(reference.firstCanvasMs);
      pdfStart.reference.push(reference.pdfStartMs);
      pdfEnd.reference.push(reference.pdfEndMs);
      if (isLast) referencePage = reference.page;
      else await reference.page.close();
      const app = await openViewer(context, appUrl, APP_REGIONS);
      firstPage.app.push(app.firstPageMs);
      firstCanvas.app.push(app.firstCanvasMs);
      pdfStart.app.push(app.pdfStartMs);
      pdfEnd.app.push(app.pdfEndMs);
      if (isLast) appPage = app.page;
      else await app.page.close();
    }
    if (appPage === null || referencePage === null) throw new Error('no viewer left open to scroll');
    for (let attempt = 0; attempt < ROUND_TRIP_RUNS; attempt += 1) {
      const reference = await openViewer(context, referenceUrl, REFERENCE_REGIONS, ROUND_TRIP_MS);
      remoteFirstPage.reference.push(reference.firstPageMs);
      await reference.page.close();
      const app = await openViewer(context, appUrl, APP_REGIONS, ROUND_TRIP_MS);
      remoteFirstPage.app.push(app.firstPageMs);
      await app.page.close();
    }

    // One viewer scrolls at a time, the other is closed first, so they do not share the CPU.
    await referencePage.close();
    const appRunScroll = await scrollAndWeigh(appPage, APP_REGIONS);
    await appPage.close();
    const reference = await openViewer(context, referenceUrl, REFERENCE_REGIONS);
    const referenceRunScroll = await scrollAndWeigh(reference.page, REFERENCE_REGIONS);
    await reference.page.close();
    await context.close();

    const app: ViewerRun = {
      ...appRunScroll,
      firstPageMs: firstPage.app,
      firstCanvasMs: firstCanvas.app,
      remoteFirstPageMs: remoteFirstPage.app,
      pdfStartMs: pdfStart.app,
      pdfEndMs: pdfEnd.app,
    };
    const ref: ViewerRun = {
      ...referenceRunScroll,
      firstPageMs: firstPage.reference,
      firstCanvasMs: firstCanvas.reference,
      remoteFirstPageMs: remoteFirstPage.reference,
      pdfStartMs: pdfStart.reference,
      pdfEndMs: pdfEnd.reference,
    };
    if (app.slots !== PAGES) problems.push(`the app's viewer shows ${app.slots} page slots, not ${PAGES}`);
    if (ref.slots !== PAGES) problems.push(`the reference viewer shows ${ref.slots} pages, not ${PAGES}`);
    for (const [label, run] of [
      ['app', app],
      ['reference', ref],
    ] as const) {
      if (!run.scroll.lastPageVisible) problems.push(`the ${label} scroll did not reach the last page`);
    }

    const appFirst = percentile(app.firstPageMs, 0.5);
    const refFirst = percentile(ref.firstPageMs, 0.5);
    const firstRatio = appFirst / refFirst;
    const appCanvas = percentile(app.firstCanvasMs, 0.5);
    const refCanvas = percentile(ref.firstCanvasMs, 0.5);
    const appRemote = percentile(app.remoteFirstPageMs, 0.5);
    const refRemote = percentile(ref.remoteFirstPageMs, 0.5);
    const canvasTarget = 2 * app.scroll.maxVisible + 1;
    const refCanvasTarget = 2 * ref.scroll.maxVisible + 1;
    const appHeapRatio = app.heapAfter / app.heapBefore;
    const refHeapRatio = ref.heapAfter / ref.heapBefore;
    const appSteadyRatio = app.heapAfterSecond / app.heapAfter;
    const refSteadyRatio = ref.heapAfterSecond / ref.heapAfter;
    if (firstRatio > FIRST_PAGE_TARGET)
      notes.push(
        `OVER TARGET: the app's first page takes ${ratio(firstRatio)} the reference's (target <= ${FIRST_PAGE_TARGET}x)`,
      );
    if (app.scroll.maxCanvases > canvasTarget)
      notes.push(
        `OVER TARGET: the app kept up to ${app.scroll.maxCanvases} canvases alive while scrolling (target <= 2 x ${app.scroll.maxVisible} visible + 1 = ${canvasTarget}); ${app.scroll.restCanvases} at rest on the last page`,
      );
    if (appSteadyRatio > HEAP_FLAT_RATIO)
      notes.push(
        `OVER TARGET: the app's heap grew ${ratio(appSteadyRatio)} over a second full scroll (flat = within ${ratio(HEAP_FLAT_RATIO)})`,
      );
    if (app.scroll.maxCanvases <= app.scroll.maxVisible)
      notes.push(
        `the app never held more canvases than pages on screen: no page is drawn ahead of the scroll (blank pages while scrolling)`,
      );
    notes.push(
      `first page = from navigation start to the first page on screen with ink (a canvas, or the app's image of the page that stands in until pdf.js has drawn it), median of ${FIRST_PAGE_RUNS} alternate loads after one warm-up each; the app's time includes its bundle, the session and GET /api/documents/<id>`,
      `with round trips: Chromium's network emulation (${ROUND_TRIP_MS} ms latency, 20 Mbit/s) on both viewers, ${ROUND_TRIP_RUNS} alternate loads; drawn by pdf.js = the first canvas with ink alone`,
      `the reference is pdfjs-dist ${await pdfjsVersion()} web/pdf_viewer.mjs with its defaults (text and annotation layers on), scaled to the app's page width (${Math.round(app.slotWidth)} px), in a 1280x900 scroller; both get the PDF whole, uncached`,
      `scrolled one screen per step (${app.scroll.steps} steps in the app, ${ref.scroll.steps} in the reference), ${SCROLL_SETTLE_MS} ms + 2 frames each; heap = performance.memory.usedJSHeapSize after two CDP HeapProfiler.collectGarbage; "flat" is judged on a second full scroll, since the first also pays once for compiling the code it runs`,
    );
    const row = (label: string, appValue: string, refValue: string, rel: string, target: string) => [
      label,
      appValue,
      refValue,
      rel,
      target,
    ];
    return {
      name: 'viewer',
      title: `a ${PAGES}-page PDF at 1280x900: the app's viewer beside pdf.js's web viewer`,
      tables: [
        {
          title: 'App (/app/document/<id>) against pdfjs-dist web viewer, same Chromium run',
          columns: ['measure', 'app', 'reference', 'app / reference', 'target'],
          rows: [
            row(
              `first page visible (median of ${FIRST_PAGE_RUNS})`,
              ms(appFirst),
              ms(refFirst),
              ratio(firstRatio),
              `<= ${FIRST_PAGE_TARGET}x ${verdict(firstRatio, FIRST_PAGE_TARGET)}`,
            ),
            row(
              'first page visible, each run',
              app.firstPageMs.map((value) => Math.round(value)).join(' / '),
              ref.firstPageMs.map((value) => Math.round(value)).join(' / '),
              '',
              '',
            ),
            row(
              `first page visible with ${ROUND_TRIP_MS} ms round trips (median of ${ROUND_TRIP_RUNS}; informational)`,
              ms(appRemote),
              ms(refRemote),
              ratio(appRemote / refRemote),
              '',
            ),
            row(
              'first page drawn by pdf.js (median; informational)',
              ms(appCanvas),
              ms(refCanvas),
              ratio(appCanvas / refCanvas),
              '',
            ),
            row(
              'PDF requested at (median; informational)',
              optionalMs(percentile(app.pdfStartMs, 0.5)),
              optionalMs(percentile(ref.pdfStartMs, 0.5)),
              '',
              '',
            ),
            row(
              'PDF received at (median; informational)',
              optionalMs(percentile(app.pdfEndMs, 0.5)),
              optionalMs(percentile(ref.pdfEndMs, 0.5)),
              '',
              '',
            ),
            row(
              'pages on screen (max)',
              String(app.scroll.maxVisible),
              String(ref.scroll.maxVisible),
              '',
              '',
            ),
            row(
              'live canvases while scrolling (max)',
              String(app.scroll.maxCanvases),
              String(ref.scroll.maxCanvases),
              ratio(app.scroll.maxCanvases / Math.max(1, ref.scroll.maxCanvases)),
              `<= ${canvasTarget} (ref ${refCanvasTarget}) ${verdict(app.scroll.maxCanvases, canvasTarget)}`,
            ),
            row(
              'canvases with a bitmap while scrolling (max)',
              String(app.scroll.maxBitmaps),
              String(ref.scroll.maxBitmaps),
              '',
              '',
            ),
            row(
              'live canvases at rest on the last page',
              String(app.scroll.restCanvases),
              String(ref.scroll.restCanvases),
              '',
              '',
            ),
            row('JS heap before the scroll', mib(app.heapBefore), mib(ref.heapBefore), '', ''),
            row('JS heap after the first scroll', mib(app.heapAfter), mib(ref.heapAfter), '', ''),
            row(
              'first scroll: after / before (informational)',
              ratio(appHeapRatio),
              ratio(refHeapRatio),
              '',
              '',
            ),
            row('JS heap after a second scroll', mib(app.heapAfterSecond), mib(ref.heapAfterSecond), '', ''),
            row(
              'second scroll: after / before',
              ratio(appSteadyRatio),
              ratio(refSteadyRatio),
              '',
              `<= ${HEAP_FLAT_RATIO}x ${verdict(appSteadyRatio, HEAP_FLAT_RATIO)}`,
            ),
          ],
        },
      ],
      metrics: {
        pages: PAGES,
        pdfBytes: pdf.length,
        appFirstPageMs: Math.round(appFirst),
        referenceFirstPageMs: Math.round(refFirst),
        firstPageOverReference: round(firstRatio, 2),
        appMaxVisiblePages: app.scroll.maxVisible,
        appMaxLiveCanvases: app.scroll.maxCanvases,
        appMaxCanvasBitmaps: app.scroll.maxBitmaps,
        appRestCanvases: app.scroll.restCanvases,
        canvasTarget,
        referenceMaxVisiblePages: ref.scroll.maxVisible,
        referenceMaxLiveCanvases: ref.scroll.maxCanvases,
        referenceRestCanvases: ref.scroll.restCanvases,
        appHeapBeforeBytes: app.heapBefore,
        appHeapAfterBytes: app.heapAfter,
        appHeapGrowth: round(appHeapRatio, 3),
        appHeapAfterSecondBytes: app.heapAfterSecond,
        appHeapSteadyGrowth: round(appSteadyRatio, 3),
        referenceHeapBeforeBytes: ref.heapBefore,
        referenceHeapAfterBytes: ref.heapAfter,
        referenceHeapGrowth: round(refHeapRatio, 3),
        referenceHeapAfterSecondBytes: ref.heapAfterSecond,
        referenceHeapSteadyGrowth: round(refSteadyRatio, 3),
      },
      notes,
      problems,
    };
  } finally {
    await browser.close();
    await files.close();
    await server.stop();
  }
}

async function pdfjsVersion(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(PDFJS_DIR, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return manifest.version ?? 'unknown';
}

export const viewerBench: Bench = {
  name: 'viewer',
  title: 'a 500-page PDF in the app viewer beside pdf.js web viewer',
  run: measure,
};
