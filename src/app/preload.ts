// A document opened cold (a link in an e-mail, a bookmark, a reload) would wait for the profile before
// even asking for its screen's code, then for the document, then for the PDF. With a token in storage
// the screen's code and the document are asked for beside the profile instead; the screen joins both
// when it mounts (route-modules.ts, services/documents.ts). Without a valid token nothing is lost: the
// session sends the user to the login page as usual.
import { readDocument } from '../services/documents';
import { APP_BASE } from '../services/navigation';
import { preloadPdfViewer } from '../views/document/pdf-viewer-loader';
import { loadDocumentScreen } from './route-modules';

const DOCUMENT_PATH = /^\/document\/(?:view\/|details\/)?([^/]+)\/?$/;

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

export function preloadForLocation(pathname: string, hasToken: boolean): void {
  const documentId = documentIdOfPath(pathname);
  if (!hasToken || documentId === null) return;
  // Failures surface when the screen itself asks; here they are only kept from being unhandled.
  loadDocumentScreen().catch(() => {});
  // pdfjs and its worker take longest to arrive and start: they go first, not after the screen's code.
  preloadPdfViewer();
  readDocument(documentId).catch(() => {});
}
