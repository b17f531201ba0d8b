// The PDF on wide screens: pdfjs-dist draws each page into a canvas, and only pages near the viewport
// hold a canvas at all (a 200-page contract must not allocate 200 bitmaps). This module is imported
// lazily by the document page, so pdfjs never weighs on the list's path.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import {
  GlobalWorkerOptions,
  PDFWorker,
  getDocument,
  type PDFDocumentProxy,
  type RenderTask,
} from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { takePdfWorker } from '../views/document/pdf-viewer-loader';

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

export function documentParams(url: string): SafeDocumentParams {
  // The signed storage link needs no credentials.
  return { url, isEvalSupported: false, withCredentials: false, worker: pdfWorker() };
}

// Pages within half a screen of the scroller's view are drawn ahead of the scroll: about one page
// either side, which keeps live canvases within twice the visible pages plus one.
const NEAR_VIEWPORT = '50% 0px';

/** The element that scrolls the pages (the app's main area), or null for the viewport. */
function scrollContainerOf(element: HTMLElement): HTMLElement | null {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const { overflowY } = window.getComputedStyle(parent);
    if (overflowY === 'auto' || overflowY === 'scroll' || overflowY === 'overlay') return parent;
  }
  return null;
}

const useStyles = makeStyles({
  pages: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    alignItems: 'center',
    width: '100%',
  },
  slot: {
    position: 'relative',
    width: '100%',
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
  },
  canvas: { display: 'block', width: '100%', height: '100%' },
  centered: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL },
});

type PageSlotProps = {
  pdf: PDFDocumentProxy;
  pageNumber: number;
  aspectRatio: number;
  label: string;
  root: HTMLElement | null;
};

function PageSlot({ pdf, pageNumber, aspectRatio, label, root }: PageSlotProps) {
  const styles = useStyles();
  const slotRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // The first page is on screen when the viewer opens: it starts drawing without waiting for the observer.
  const [isNear, setNear] = useState(pageNumber === 1);

  useEffect(() => {
    const slot = slotRef.current;
    if (!slot) return undefined;
    // A rootMargin only reaches beyond the view of the element that actually scrolls.
    const observer = new IntersectionObserver(([entry]) => setNear(entry?.isIntersecting ?? false), {
      root,
      rootMargin: NEAR_VIEWPORT,
    });
    observer.observe(slot);
    return () => observer.disconnect();
  }, [root]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const slot = slotRef.current;
    if (!isNear || !canvas || !slot) return undefined;
    let task: RenderTask | null = null;
    let isCancelled = false;
    const loading = pdf.getPage(pageNumber);
    void loading.then((page) => {
      if (isCancelled) return;
      const cssWidth = slot.clientWidth || 800;
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: (cssWidth / base.width) * (window.devicePixelRatio || 1) });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      task = page.render({ canvas, viewport });
      task.promise.catch(() => {
        // A cancelled render (the page scrolled away) rejects; the slot simply stays blank.
      });
    });
    return () => {
      isCancelled = true;
      task?.cancel();
      // A page out of view gives back its operator list and fonts (once a cancelled render settles),
      // so the heap stays flat over a long scroll.
      void loading.then((page) => page.cleanup()).catch(() => {});
      // Freeing the bitmap is the point of virtualising.
      canvas.width = 0;
      canvas.height = 0;
    };
  }, [isNear, pdf, pageNumber]);

  return (
    <div
      ref={slotRef}
      className={styles.slot}
      style={{ aspectRatio: `${aspectRatio}` }}
      role="img"
      aria-label={label}
    >
      {isNear && <canvas ref={canvasRef} className={styles.canvas} />}
    </div>
  );
}

export type PdfViewerProps = {
  url: string;
  pageLabel: (page: number) => string;
  loadingLabel: string;
  onFailure: () => void;
};

export default function PdfViewer({ url, pageLabel, loadingLabel, onFailure }: PdfViewerProps) {
  const styles = useStyles();
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [aspectRatio, setAspectRatio] = useState(1 / Math.SQRT2);
  const pagesRef = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<HTMLElement | null | undefined>(undefined);
  const failureRef = useRef(onFailure);
  useEffect(() => {
    failureRef.current = onFailure;
  }, [onFailure]);

  useEffect(() => {
    const task = getDocument(documentParams(url));
    let isCurrent = true;
    task.promise
      .then(async (loaded) => {
        const first = await loaded.getPage(1);
        const viewport = first.getViewport({ scale: 1 });
        if (!isCurrent) return;
        setAspectRatio(viewport.width / viewport.height);
        setPdf(loaded);
      })
      .catch(() => {
        if (isCurrent) failureRef.current();
      });
    return () => {
      isCurrent = false;
      void task.destroy();
    };
  }, [url]);

  useLayoutEffect(() => {
    if (pdf && pagesRef.current) setRoot(scrollContainerOf(pagesRef.current));
  }, [pdf]);

  if (!pdf) {
    return (
      <div className={styles.centered}>
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  return (
    <div ref={pagesRef} className={styles.pages}>
      {root !== undefined &&
        Array.from({ length: pdf.numPages }, (_, index) => (
          <PageSlot
            key={index}
            pdf={pdf}
            pageNumber={index + 1}
            aspectRatio={aspectRatio}
            label={pageLabel(index + 1)}
            root={root}
          />
        ))}
    </div>
  );
}
