// Loads pdfjs (src/pdf/pdf-engine.ts) once, for the document screen and for the start-up preload of a
// document link, and starts pdfjs's worker beside it: the worker's script is the largest piece and it
// need not wait for pdfjs's main-thread code to arrive first. Tiny on purpose: importing it must not pull pdfjs onto the list's
// path (the worker's URL is only a string here).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takeEarlyPdfWorker } from '../../services/early-start';
import { loader, type Loader } from '../preloaded-lazy';
import { MOBILE_QUERY, TOUCH_QUERY } from '../use-media-query';

type PdfEngineModule = typeof import('../../pdf/pdf-engine');

export const loadPdfEngine: Loader<PdfEngineModule> = loader(() => import('../../pdf/pdf-engine'));

/** Whether this screen draws the PDF itself: phones and touch screens get the page images instead. */
export function drawsPdf(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  return !window.matchMedia(MOBILE_QUERY).matches && !window.matchMedia(TOUCH_QUERY).matches;
}

let startedWorker: Worker | null = null;

/** pdfjs's worker, started early if it could be; each call after the first starts a new one. */
export function takePdfWorker(): Worker | null {
  const worker = startedWorker ?? takeEarlyPdfWorker() ?? startPdfWorker();
  startedWorker = null;
  return worker;
}

function startPdfWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    return new Worker(workerUrl, { type: 'module' });
  } catch {
    // pdfjs falls back to its own worker set-up (or none) when this one cannot start.
    return null;
  }
}

/** Starts loading the viewer where it will be used; a failure is reported when the viewer renders. */
export function preloadPdfEngine(): void {
  if (!drawsPdf()) return;
  startedWorker ??= takeEarlyPdfWorker() ?? startPdfWorker();
  loadPdfEngine().catch(() => {});
}
