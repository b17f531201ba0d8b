// pdfjs-dist itself, for the viewer on wide screens (pdf-viewer.tsx): its worker, the document
// parameters every PDF is opened with, and the PDF a document link opened cold starts opening before
// the viewer is drawn. Imported lazily (views/document/pdf-viewer-loader.ts), so pdfjs never weighs on
// the list's path, and the viewer draws its first page's image while this module is still on its way.
import {
  GlobalWorkerOptions,
  PDFWorker,
  getDocument,
  type PDFDocumentLoadingTask,
  type PDFDocumentProxy,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takeEarlyPdf } from '../services/early-start';
import { takePdfWorker } from './pdf-worker';

GlobalWorkerOptions.workerSrc = workerUrl;

// One worker for every PDF. Its script may already be running: the document route starts it (through
// the loader) while this module is still on its way. A worker passed to getDocument outlives each
// document's loading task.
let sharedWorker: PDFWorker | null = null;

function pdfWorker(): PDFWorker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  if (!sharedWorker || sharedWorker.destroyed) {
    const port = takePdfWorker();
    sharedWorker = port ? PDFWorker.create({ port }) : new PDFWorker();
  }
  return sharedWorker;
}

pdfWorker();

// pdfjs 6 compiles no code from PDFs and dropped the isEvalSupported option; it is still passed so that
// eval stays off if the pinned version ever moves back to a 5.x that honours it (project security rule).
type SafeDocumentParams = NonNullable<Parameters<typeof getDocument>[0]> & { isEvalSupported: false };

/** The file from its signed storage link (no credentials needed), or its bytes when already fetched. */
export function documentParams(url: string, data: Uint8Array | null = null): SafeDocumentParams {
  const source = data === null ? { url } : { data };
  return { ...source, isEvalSupported: false, withCredentials: false, worker: pdfWorker() };
}

export type OpenedPdf = {
  task: PDFDocumentLoadingTask;
  /** The document with its first page's shape, which sizes every page slot before it is drawn. */
  ready: Promise<{ document: PDFDocumentProxy; aspectRatio: number }>;
};

/** Opens the PDF at `url`, from the bytes the early start fetched when it did (src/app/early-start-script.js). */
async function openPdf(url: string): Promise<OpenedPdf> {
  const data = await takeEarlyPdf(url);
  const task = getDocument(documentParams(url, data));
  const ready = task.promise.then(async (document) => {
    const first = await document.getPage(1);
    const viewport = first.getViewport({ scale: 1 });
    return { document, aspectRatio: viewport.width / viewport.height };
  });
  // Handled where it is used; one opened ahead and never used must not report an unhandled rejection.
  ready.catch(() => {});
  return { task, ready };
}

// A document link opened cold opens its PDF as soon as the document's answer names it (app/preload.ts),
// so pdfjs's worker parses it while React is still drawing the screen. The viewer takes it over once;
// one nobody takes (the user left first) is closed after a while.
const UNUSED_PREOPENED_MS = 30_000;
let preopened: { url: string; opening: Promise<OpenedPdf> } | null = null;

function closePreopened(): void {
  if (preopened === null) return;
  void preopened.opening.then((opened) => opened.task.destroy()).catch(() => {});
  preopened = null;
}

export function preopenPdf(url: string): void {
  if (preopened?.url === url) return;
  closePreopened();
  const entry = { url, opening: openPdf(url) };
  preopened = entry;
  window.setTimeout(() => {
    if (preopened === entry) closePreopened();
  }, UNUSED_PREOPENED_MS);
}

function takePreopenedPdf(url: string): Promise<OpenedPdf> | null {
  if (preopened?.url !== url) return null;
  const { opening } = preopened;
  preopened = null;
  return opening;
}

/** The PDF at `url`: the one opened ahead for it if there is one, else opened now. */
export function openPdfForViewer(url: string): Promise<OpenedPdf> {
  return takePreopenedPdf(url) ?? openPdf(url);
}
