// A screen opened cold (a link in an e-mail, a bookmark, a reload) would wait for the app to start
// before asking for the profile, then for its code, then for the document, then for the PDF. With a
// token in storage they are asked for at once, side by side; the session and the screen join them when
// they start (services/session.ts, route-modules.ts, services/documents.ts). Without a valid token
// nothing is lost: the session sends the user to the login page as usual.
import { readDocument } from '../services/documents';
import { APP_BASE } from '../services/navigation';
import { preloadProfile } from '../services/session';
import { drawsPdf, loadPdfEngine, preloadPdfEngine } from '../views/document/pdf-viewer-loader';
import { loadDocumentScreen, loadListScreen, loadSignScreen } from './route-modules';

const DOCUMENT_PATH = /^\/document\/(?:view\/|details\/)?([^/]+)\/?$/;
// The list's routes (and the app's root, which goes to the list) and the sign screen's three pages.
const LIST_PATH = /^(?:\/(?:documents(?:\/[^/]+)?|archive))?\/?$/;
const SIGN_PATH = /^\/sign\/[^/]+(?:\/signature(?:-preview)?)?\/?$/;

/** The document id a path under the app opens, if it opens one. */
export function documentIdOfPath(pathname: string): string | null {
  if (!pathname.startsWith(`${APP_BASE}/`)) return null;
  const match = DOCUMENT_PATH.exec(pathname.slice(APP_BASE.length));
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    // A malformed escape: the route shows its own error; there is nothing sensible to preload.
    return null;
  }
}

/** The details page shows the document's details and a preview, not the PDF itself. */
function isDetailsPath(pathname: string): boolean {
  return pathname.startsWith(`${APP_BASE}/document/details/`);
}

/** Paths that show no signed-in screen (the login and the token exchange): nothing to preload there. */
function isPublicPath(pathname: string): boolean {
  return pathname.startsWith(`${APP_BASE}/login`) || pathname.startsWith(`${APP_BASE}/auth`);
}

/** The code a preload starts loading beside the calls: the screens' (route-modules.ts) and the PDF viewer's. */
export type PreloadedCode = {
  loadDocumentScreen(): Promise<unknown>;
  loadListScreen(): Promise<unknown>;
  loadSignScreen(): Promise<unknown>;
  preloadPdfEngine(): void;
  drawsPdf(): boolean;
  loadPdfEngine(): Promise<{ preopenPdf(url: string): void }>;
};

const APP_CODE: PreloadedCode = {
  loadDocumentScreen,
  loadListScreen,
  loadSignScreen,
  preloadPdfEngine,
  drawsPdf,
  loadPdfEngine,
};

export function preloadForLocation(
  pathname: string,
  hasToken: boolean,
  code: PreloadedCode = APP_CODE,
): void {
  if (!hasToken || isPublicPath(pathname)) return;
  preloadProfile();
  // The screen's code (its files already fetched: the page's early start names them) is evaluated while
  // the profile is on its way, so the screen shows as soon as the profile is in.
  const path = pathname.startsWith(APP_BASE) ? pathname.slice(APP_BASE.length) : null;
  if (path !== null && LIST_PATH.test(path)) code.loadListScreen().catch(() => {});
  if (path !== null && SIGN_PATH.test(path)) code.loadSignScreen().catch(() => {});
  const documentId = documentIdOfPath(pathname);
  if (documentId === null) return;
  // Failures surface when the screen itself asks; here they are only kept from being unhandled.
  code.loadDocumentScreen().catch(() => {});
  // pdfjs and its worker take longest to arrive and start: they go first, not after the screen's code
  // (whose loader asks for them too; the later ask joins the first).
  code.preloadPdfEngine();
  const read = readDocument(documentId);
  if (code.drawsPdf() && !isDetailsPath(pathname)) {
    read
      .then(async (document) => {
        const url = document.attributes.pdfUrl;
        if (url) (await code.loadPdfEngine()).preopenPdf(url);
      })
      .catch(() => {});
  } else {
    read.catch(() => {});
  }
}
