// bench/placement: the signature editor's canvas (src/canvas/placement-stage.tsx, the component the app
// renders) with 50 boxes on one page, in Chromium at 1280x900. One box is dragged across the page for 2 s
// with page.mouse; the page records requestAnimationFrame deltas during the drag: p50 and p95 (target
// p95 <= 16 ms, i.e. no frame missed at 60 Hz). The reference, in the same browser, is a bare Konva stage
// with the same page image and 50 draggable rectangles. Both pages are built here with Vite (production
// mode) from small entries written to test-results/, and served by this process: no server, no sign-in,
// nothing the bench could measure besides the canvas.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { STEP_TIMEOUT_MS, launchChromium, newBenchContext, percentile } from './browser.ts';
import { ratio, round, type Bench, type BenchResult } from './report.ts';
import { ROOT_DIR } from './server-process.ts';

const BOXES = 50;
const DRAG_MS = 2_000;
// Chromium paces frames at 60 Hz (16.7 ms), so a delta can never be under 16 ms: the budget's "p95 <= 16 ms"
// is read as "p95 within one frame period", with 0.5 ms for timer jitter. A delta over 1.5 periods is a
// frame missed.
const FRAME_PERIOD_MS = 1000 / 60;
const FRAME_TARGET_MS = FRAME_PERIOD_MS + 0.5;
const missed = (deltas: number[]) => deltas.filter((delta) => delta > 1.5 * FRAME_PERIOD_MS).length;
const ms1 = (value: number) => `${value.toFixed(1)} ms`;
const WORK_DIR = path.join(ROOT_DIR, 'test-results', 'bench-placement');
const PAGE_WIDTH = 800;

// A page image drawn in the browser (a white A4 page with lines of text), so no file is needed.
const PAGE_IMAGE_SOURCE = `
function pageImage() {
  const canvas = document.createElement('canvas');
  canvas.width = 1240;
  canvas.height = 1754;
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#333';
  context.font = '28px serif';
  for (let line = 0; line < 50; line += 1) context.fillText('Contract clause ' + (line + 1) + ': the parties agree to the terms set out below.', 100, 150 + line * 30);
  return canvas.toDataURL('image/png');
}
function boxAt(index) {
  return { left: (index % 5) * 0.14, top: 0.15 + Math.floor(index / 5) * 0.07 };
}
function frameRecorder() {
  const state = { deltas: [], running: false, last: 0 };
  const tick = (time) => {
    if (!state.running) return;
    if (state.last > 0) state.deltas.push(time - state.last);
    state.last = time;
    requestAnimationFrame(tick);
  };
  window.__frames = {
    start() { state.deltas = []; state.last = 0; state.running = true; requestAnimationFrame(tick); },
    stop() { state.running = false; return state.deltas; },
  };
}
`;

const EDITOR_ENTRY = `
import { createRoot } from 'react-dom/client';
import { PlacementStage } from '../../src/canvas/placement-stage';
${PAGE_IMAGE_SOURCE}
frameRecorder();
const boxes = Array.from({ length: ${BOXES} }, (_, index) => ({
  emailAddress: 'signatory' + index + '@paraph.test',
  number: index + 1,
  name: 'Signatory number ' + (index + 1),
  isSigned: false,
  ...boxAt(index),
}));
let drops = 0;
const image = pageImage();
createRoot(document.getElementById('root')).render(
  <PlacementStage
    imageUrl={image}
    width={${PAGE_WIDTH}}
    boxes={boxes}
    selectedEmail={null}
    onPageClick={() => {}}
    onBoxClick={() => {}}
    onDragStart={() => {}}
    onDrop={() => { drops += 1; window.__drops = drops; }}
    onImageError={() => { window.__failed = true; }}
  />,
);
`;

const REFERENCE_ENTRY = `
import Konva from 'konva';
${PAGE_IMAGE_SOURCE}
frameRecorder();
const image = new Image();
image.onload = () => {
  const width = ${PAGE_WIDTH};
  const height = Math.round(width * image.naturalHeight / image.naturalWidth);
  const stage = new Konva.Stage({ container: 'root', width, height });
  const pageLayer = new Konva.Layer();
  pageLayer.add(new Konva.Image({ image, width, height }));
  const layer = new Konva.Layer();
  for (let index = 0; index < ${BOXES}; index += 1) {
    const { left, top } = boxAt(index);
    layer.add(new Konva.Rect({ x: left * width, y: top * height, width: 0.28 * width, height: 0.15 * height, fill: 'rgba(15, 108, 189, 0.14)', stroke: '#0f6cbd', draggable: true }));
  }
  stage.add(pageLayer, layer);
  layer.on('dragend', () => { window.__drops = (window.__drops ?? 0) + 1; });
  window.__ready = true;
};
image.src = pageImage();
`;

const html = (entry: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>placement bench</title>
<style>html, body { margin: 0; } #root { width: ${PAGE_WIDTH}px; }</style></head>
<body><div id="root"></div><script type="module" src="./${entry}"></script></body></html>
`;

async function buildPages(): Promise<string> {
  await rm(WORK_DIR, { recursive: true, force: true });
  await mkdir(WORK_DIR, { recursive: true });
  await writeFile(path.join(WORK_DIR, 'editor-entry.tsx'), EDITOR_ENTRY);
  await writeFile(path.join(WORK_DIR, 'reference-entry.ts'), REFERENCE_ENTRY);
  await writeFile(path.join(WORK_DIR, 'editor.html'), html('editor-entry.tsx'));
  await writeFile(path.join(WORK_DIR, 'reference.html'), html('reference-entry.ts'));
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  const outDir = path.join(WORK_DIR, 'dist');
  await build({
    root: WORK_DIR,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    build: {
      outDir,
      emptyOutDir: true,
      rollupOptions: {
        input: {
          editor: path.join(WORK_DIR, 'editor.html'),
          reference: path.join(WORK_DIR, 'reference.html'),
        },
      },
    },
  });
  return outDir;
}

type StaticServer = { origin: string; close(): Promise<void> };

async function serve(dir: string): Promise<StaticServer> {
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = path.join(dir, path.normalize(pathname));
    if (!file.startsWith(`${dir}${path.sep}`)) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then(
      (body) => {
        response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

declare global {
  interface Window {
    __frames?: { start(): void; stop(): number[] };
    __drops?: number;
    __ready?: boolean;
    __failed?: boolean;
  }
}

type DragRun = { deltas: number[]; moves: number; drops: number };

// Presses on the first box (top-left of the grid), moves it across the page and back for DRAG_MS, and
// releases it; the page records the frames meanwhile.
async function dragAcross(page: Page): Promise<DragRun> {
  const canvas = page.locator('canvas').last();
  await canvas.waitFor({ state: 'visible' });
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas on the page');
  const start = { x: box.x + 0.14 * box.width, y: box.y + 0.15 * box.height + 0.075 * box.height };
  await page.mouse.move(start.x, start.y);
  await page.waitForTimeout(200);
  await page.evaluate(() => window.__frames?.start());
  await page.mouse.down();
  const startedAt = Date.now();
  let moves = 0;
  while (Date.now() - startedAt < DRAG_MS) {
    const phase = ((Date.now() - startedAt) / DRAG_MS) * 2 * Math.PI;
    const x = start.x + (Math.sin(phase) * 0.5 + 0.5) * 0.6 * box.width;
    const y = start.y + (1 - Math.cos(phase)) * 0.35 * box.height;
    await page.mouse.move(x, y);
    moves += 1;
  }
  await page.mouse.up();
  const deltas = await page.evaluate(() => window.__frames?.stop() ?? []);
  const drops = await page.evaluate(() => window.__drops ?? 0);
  return { deltas, moves, drops };
}

async function measure(): Promise<BenchResult> {
  const notes: string[] = [];
  const problems: string[] = [];
  const outDir = await buildPages();
  const files = await serve(outDir);
  const browser = await launchChromium().catch(async (error: unknown) => {
    await files.close();
    throw error;
  });
  try {
    const context = await newBenchContext(browser);
    const runs: Record<'editor' | 'reference', DragRun> = {
      editor: { deltas: [], moves: 0, drops: 0 },
      reference: { deltas: [], moves: 0, drops: 0 },
    };
    // Alternately, twice each; the second runs are reported (the first warm the page up).
    for (let round = 0; round < 2; round += 1) {
      for (const name of ['reference', 'editor'] as const) {
        const page = await context.newPage();
        page.setDefaultTimeout(STEP_TIMEOUT_MS);
        await page.goto(`${files.origin}/${name}.html`);
        if (name === 'reference') await page.waitForFunction(() => window.__ready === true);
        runs[name] = await dragAcross(page);
        if (await page.evaluate(() => window.__failed === true))
          problems.push(`${name}: the page image failed`);
        await page.close();
      }
    }
    await context.close();
    for (const [name, run] of Object.entries(runs)) {
      if (run.drops !== 1) problems.push(`${name}: the drag did not end in one drop (${run.drops})`);
      if (run.deltas.length < 10) problems.push(`${name}: only ${run.deltas.length} frames recorded`);
    }
    const editorP50 = percentile(runs.editor.deltas, 0.5);
    const editorP95 = percentile(runs.editor.deltas, 0.95);
    const refP50 = percentile(runs.reference.deltas, 0.5);
    const refP95 = percentile(runs.reference.deltas, 0.95);
    if (editorP95 > FRAME_TARGET_MS)
      notes.push(
        `OVER TARGET: the editor's p95 frame is ${ms1(editorP95)} (target: within one 60 Hz frame, <= ${ms1(FRAME_TARGET_MS)})`,
      );
    notes.push(
      `frames = requestAnimationFrame deltas during a ${DRAG_MS / 1000} s drag of one box across the page by page.mouse (${runs.editor.moves} moves in the editor, ${runs.reference.moves} in the reference); Chromium headless paces frames at 60 Hz, so 16.7 ms is the floor of a delta and a missed frame shows as ~33 ms`,
      `the editor is src/canvas/placement-stage.tsx as the app renders it (React, react-konva, ${BOXES} boxes with their numbers and names, ${PAGE_WIDTH} px wide page); the reference is bare Konva with the same page image and ${BOXES} draggable rectangles, no text; both built by Vite in production mode`,
    );
    const row = (label: string, editor: number, reference: number) => [
      label,
      ms1(editor),
      ms1(reference),
      ratio(editor / reference),
    ];
    return {
      name: 'placement',
      title: `the signature editor with ${BOXES} boxes: frame times while dragging one box for ${DRAG_MS / 1000} s`,
      tables: [
        {
          title: 'Placement editor against bare Konva, same Chromium run',
          columns: ['measure', 'editor', 'bare Konva', 'editor / reference'],
          rows: [
            row('frame p50', editorP50, refP50),
            row(`frame p95 (target <= ${ms1(FRAME_TARGET_MS)})`, editorP95, refP95),
            row('frame max', Math.max(...runs.editor.deltas), Math.max(...runs.reference.deltas)),
            ['frames recorded', String(runs.editor.deltas.length), String(runs.reference.deltas.length), ''],
            [
              'frames missed (> 25 ms)',
              String(missed(runs.editor.deltas)),
              String(missed(runs.reference.deltas)),
              '',
            ],
          ],
        },
      ],
      metrics: {
        editorFrameP50Ms: round(editorP50),
        editorFrameP95Ms: round(editorP95),
        referenceFrameP50Ms: round(refP50),
        referenceFrameP95Ms: round(refP95),
        p95Ratio: round(editorP95 / refP95),
        editorMissedFrames: missed(runs.editor.deltas),
        referenceMissedFrames: missed(runs.reference.deltas),
      },
      notes,
      problems,
    };
  } finally {
    await browser.close();
    await files.close();
  }
}

export const placementBench: Bench = {
  name: 'placement',
  title: `signature placement editor, ${BOXES} boxes, drag frame times`,
  run: measure,
};
