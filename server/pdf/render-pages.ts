// Renders a PDF's pages to PNG in Node with pdfjs-dist's legacy build and @napi-rs/canvas. PDFs are
// untrusted: no eval, no system fonts, no font loading into the process, bounded image and canvas sizes.
// What the legacy build's own polyfills no longer cover on Node 20:
import './pdfjs-node20.mjs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

// About 110 dpi: sharp on a laptop, an A4 page is ~910 px wide. The cap keeps wide pages readable without
// growing the files; the pixel budget keeps a freak page size (a 200-inch banner) from exhausting memory.
export const RENDER_DPI = 110;
export const MAX_PAGE_WIDTH_PX = 1240;
const MAX_PAGE_PIXELS = 1240 * 1754 * 2;
const POINTS_PER_INCH = 72;

export type RenderedPage = { pageNumber: number; png: Buffer; width: number; height: number };

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
// pdfjs reads these with fs in Node; it wants directory URLs ending in "/".
const asDirUrl = (folder: string): string => `${pathToFileURL(path.join(PDFJS_DIR, folder)).href}/`;
const STANDARD_FONT_DATA_URL = asDirUrl('standard_fonts');
const CMAP_URL = asDirUrl('cmaps');
const WASM_URL = asDirUrl('wasm');

export function pageScale(widthPt: number, heightPt: number): number {
  const dpiScale = RENDER_DPI / POINTS_PER_INCH;
  const widthScale = MAX_PAGE_WIDTH_PX / widthPt;
  const pixelScale = Math.sqrt(MAX_PAGE_PIXELS / (widthPt * heightPt));
  return Math.min(dpiScale, widthScale, pixelScale);
}

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<Pdfjs> | undefined;

// The legacy build's core-js polyfills replace the global JSON.stringify with a much slower one (for
// JSON.rawJSON), which every API response of this process would then pay for. pdfjs is loaded only when
// the first page is rendered, and the engine's own JSON.stringify is put back: pdfjs needs nothing of it.
// `workerUrl` names another copy of the worker module (the sandbox's, with the stream limit): pdfjs runs
// whichever module set `globalThis.pdfjsWorker` last as its in-process "fake worker".
export function loadPdfjs(workerUrl?: string): Promise<Pdfjs> {
  if (pdfjs === undefined) {
    const nativeStringify = JSON.stringify;
    // The worker module carries the same polyfills; loading it here too means both have run before the
    // original is put back.
    pdfjs = Promise.all([
      import('pdfjs-dist/legacy/build/pdf.mjs'),
      workerUrl === undefined
        ? import('pdfjs-dist/legacy/build/pdf.worker.mjs')
        : (import(workerUrl) as Promise<unknown>),
    ])
      .then(([main]) => main)
      .finally(() => {
        JSON.stringify = nativeStringify;
      });
  }
  return pdfjs;
}

export async function openPdf(data: Uint8Array): Promise<PDFDocumentLoadingTask> {
  const { getDocument } = await loadPdfjs();
  const params = {
    data,
    // pdfjs 6 no longer evaluates code from a PDF at all; the flag stays so that a pdfjs that still
    // honours it can never be switched to eval by a default.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    standardFontDataUrl: STANDARD_FONT_DATA_URL,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    wasmUrl: WASM_URL,
    // 40 megapixels per embedded image is far beyond any scan; more is an attack or a broken file.
    maxImageSize: 40_000_000,
    verbosity: 0,
  };
  return getDocument(params);
}

type TextContext = {
  font: string;
  fillText(text: string, ...rest: number[]): void;
  strokeText(text: string, ...rest: number[]): void;
  measureText(text: string): unknown;
};

// The canvas hands strings to native code as C strings, which cannot hold NUL: pdf.js names a font it
// cannot load after the PDF's /BaseFont (where "#00" is a NUL) and draws its text with the canvas's own
// text calls, so such a page failed to render ("Convert String to CString failed"). A NUL draws nothing.
function withoutNul(context: object): void {
  const text = context as TextContext;
  const strip = (value: unknown): string => String(value).replaceAll('\0', '');
  let owner: object | null = Object.getPrototypeOf(context) as object | null;
  let font: PropertyDescriptor | undefined;
  while (owner !== null && font === undefined) {
    font = Object.getOwnPropertyDescriptor(owner, 'font');
    owner = Object.getPrototypeOf(owner) as object | null;
  }
  const { get, set } = font ?? {};
  if (get !== undefined && set !== undefined) {
    Object.defineProperty(context, 'font', {
      get: () => get.call(context) as string,
      set: (value: unknown) => set.call(context, strip(value)),
    });
  }
  const fill = text.fillText.bind(context);
  const strokeText = text.strokeText.bind(context);
  const measure = text.measureText.bind(context);
  text.fillText = (value, ...rest) => fill(strip(value), ...rest);
  text.strokeText = (value, ...rest) => strokeText(strip(value), ...rest);
  text.measureText = (value) => measure(strip(value));
}

export async function renderPage(document: PDFDocumentProxy, pageNumber: number): Promise<RenderedPage> {
  const page = await document.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: pageScale(base.width, base.height) });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    withoutNul(context);
    // Transparent pixels would show the viewer's background through blank areas of the page.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      canvasContext: context as unknown as CanvasRenderingContext2D,
      viewport,
      background: '#ffffff',
    }).promise;
    return { pageNumber, png: await canvas.encode('png'), width, height };
  } finally {
    page.cleanup();
  }
}

// Yields one page at a time so the caller can store each image before the next is drawn: a long PDF
// never holds more than one page's pixels in memory. In-process: the server renders through the sandbox
// (sandbox.ts); this is for tools and tests on trusted files.
export async function* renderPages(pdf: Buffer): AsyncGenerator<RenderedPage> {
  // pdfjs takes ownership of (and may detach) the bytes it is given, so it gets its own copy.
  const loading = await openPdf(new Uint8Array(pdf));
  try {
    const document = await loading.promise;
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber += 1) {
      yield await renderPage(document, pageNumber);
    }
  } finally {
    await loading.destroy();
  }
}
