// The PDF on wide screens: pdfjs-dist draws each page into a canvas, and only pages near the viewport
// hold a canvas at all (a 200-page contract must not allocate 200 bitmaps). pdfjs itself arrives
// lazily (pdf-engine.ts); until it has opened the file, the first page shows as the server's image.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Spinner, makeStyles, tokens } from '@fluentui/react-components';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { loadPdfEngine } from '../views/document/pdf-viewer-loader';

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
    // Paper: white in the dark theme too (the token is the same white in both), as the drawn page is.
    backgroundColor: tokens.colorNeutralForegroundStaticInverted,
    boxShadow: tokens.shadow4,
  },
  // Drawn pages cover the slot; the first page's image lies under its canvas until pdfjs has drawn it.
  canvas: { position: 'absolute', inset: 0, display: 'block', width: '100%', height: '100%' },
  image: { display: 'block', width: '100%', height: 'auto' },
  imageUnder: { position: 'absolute', inset: 0, display: 'block', width: '100%', height: '100%' },
  centered: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL },
});

type PageSlotProps = {
  /** Null while pdfjs is still opening the file: only the first page's slot shows, with its image. */
  pdf: PDFDocumentProxy | null;
  pageNumber: number;
  aspectRatio: number | null;
  label: string;
  root: HTMLElement | null;
  /** The server's image of this page, shown until pdfjs has drawn it. */
  imageUrl?: string;
};

function PageSlot({ pdf, pageNumber, aspectRatio, label, root, imageUrl }: PageSlotProps) {
  const styles = useStyles();
  const slotRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // The first page is on screen when the viewer opens: it starts drawing without waiting for the observer.
  const [isNear, setNear] = useState(pageNumber === 1);
  // The canvas shows only once drawn, so a page never blanks out over its image while pdfjs draws.
  const [isDrawn, setDrawn] = useState(false);

  useEffect(() => {
    const slot = slotRef.current;
    if (!slot || !pdf) return undefined;
    // A rootMargin only reaches beyond the view of the element that actually scrolls.
    const observer = new IntersectionObserver(([entry]) => setNear(entry?.isIntersecting ?? false), {
      root,
      rootMargin: NEAR_VIEWPORT,
    });
    observer.observe(slot);
    return () => observer.disconnect();
  }, [root, pdf]);

  useEffect(() => {
    const canvas = canvasRef.current;
    const slot = slotRef.current;
    if (!isNear || !pdf || !canvas || !slot) return undefined;
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
      task.promise.then(
        () => {
          if (!isCancelled) setDrawn(true);
        },
        () => {
          // A cancelled render (the page scrolled away) rejects; the slot simply stays blank.
        },
      );
    });
    return () => {
      isCancelled = true;
      setDrawn(false);
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
      style={aspectRatio === null ? undefined : { aspectRatio: `${aspectRatio}` }}
      role="img"
      aria-label={label}
      aria-busy={!isDrawn}
    >
      {imageUrl !== undefined && !isDrawn && (
        <img src={imageUrl} alt="" className={pdf ? styles.imageUnder : styles.image} />
      )}
      {isNear && pdf && <canvas ref={canvasRef} className={styles.canvas} hidden={!isDrawn} />}
    </div>
  );
}

export type PdfViewerProps = {
  url: string;
  /** The server's page images: the first one stands in for the page while pdfjs starts. */
  pageImages: string[];
  pageLabel: (page: number) => string;
  loadingLabel: string;
  onFailure: () => void;
};

export function PdfViewer({ url, pageImages, pageLabel, loadingLabel, onFailure }: PdfViewerProps) {
  const styles = useStyles();
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [aspectRatio, setAspectRatio] = useState<number | null>(null);
  const firstImage = pageImages[0];
  const pagesRef = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<HTMLElement | null | undefined>(undefined);
  const failureRef = useRef(onFailure);
  useEffect(() => {
    failureRef.current = onFailure;
  }, [onFailure]);

  useEffect(() => {
    let isCurrent = true;
    const opening = loadPdfEngine().then((engine) => engine.openPdfForViewer(url));
    opening
      .then((opened) => opened.ready)
      .then(({ document, aspectRatio: ratio }) => {
        if (!isCurrent) return;
        setAspectRatio(ratio);
        setPdf(document);
      })
      .catch(() => {
        if (isCurrent) failureRef.current();
      });
    return () => {
      isCurrent = false;
      void opening.then((opened) => opened.task.destroy()).catch(() => {});
    };
  }, [url]);

  // Once, as soon as the pages are in the document: the page observers need the element that scrolls.
  useLayoutEffect(() => {
    if (root === undefined && pagesRef.current) setRoot(scrollContainerOf(pagesRef.current));
  }, [root, pdf, firstImage]);

  if (!pdf && firstImage === undefined) {
    return (
      <div className={styles.centered}>
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  // Until pdfjs has opened the file, the first page's slot alone, with the page's image: the same
  // element stays when the other slots join it, so the image never flickers.
  const slots = pdf === null || root === undefined ? 1 : pdf.numPages;
  return (
    <div ref={pagesRef} className={styles.pages}>
      {Array.from({ length: slots }, (_, index) => (
        <PageSlot
          key={index}
          pdf={pdf}
          pageNumber={index + 1}
          aspectRatio={pdf === null ? null : aspectRatio}
          label={pageLabel(index + 1)}
          root={root ?? null}
          imageUrl={index === 0 ? firstImage : undefined}
        />
      ))}
    </div>
  );
}
