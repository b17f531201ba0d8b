// pdfjs's worker, started ahead of pdfjs's own code (src/views/document/pdf-viewer-loader.ts) and handed to
// it once (src/pdf/pdf-engine.ts): the worker's script is the largest piece and need not wait for the
// main-thread code. Tiny on purpose: the worker's URL is only a string here, so importing this module
// never pulls pdfjs onto the list's path.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takeEarlyPdfWorker } from '../services/early-start';

let startedWorker: Worker | null = null;

/** pdfjs's worker, started early if it could be; each call after the first starts a new one. */
export function takePdfWorker(): Worker | null {
  const worker = startedWorker ?? takeEarlyPdfWorker() ?? startPdfWorker();
  startedWorker = null;
  return worker;
}

/** Starts the worker now (or keeps the one the early start booted), for the next `takePdfWorker`. */
export function startPdfWorkerAhead(): void {
  startedWorker ??= takeEarlyPdfWorker() ?? startPdfWorker();
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
