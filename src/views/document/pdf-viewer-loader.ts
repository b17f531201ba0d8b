// Loads pdfjs (src/pdf/pdf-engine.ts) once, for the document screen and for the start-up preload of a
// document link, and starts pdfjs's worker beside it (src/pdf/pdf-worker.ts): the worker's script is the
// largest piece and it need not wait for pdfjs's main-thread code to arrive first. Tiny on purpose:
// importing it must not pull pdfjs onto the list's path.
import { startPdfWorkerAhead } from '../../pdf/pdf-worker';
import { loader, type Loader } from '../preloaded-lazy';
import { MOBILE_QUERY, TOUCH_QUERY } from '../use-media-query';

type PdfEngineModule = typeof import('../../pdf/pdf-engine');

export const loadPdfEngine: Loader<PdfEngineModule> = loader(() => import('../../pdf/pdf-engine'));

/** Whether this screen draws the PDF itself: phones and touch screens get the page images instead. */
export function drawsPdf(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  return !window.matchMedia(MOBILE_QUERY).matches && !window.matchMedia(TOUCH_QUERY).matches;
}

/** Starts loading the viewer where it will be used; a failure is reported when the viewer renders. */
export function preloadPdfEngine(): void {
  if (!drawsPdf()) return;
  startPdfWorkerAhead();
  loadPdfEngine().catch(() => {});
}
