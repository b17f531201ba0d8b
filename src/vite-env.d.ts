/// <reference types="vite/client" />

// Merges into Vite's declaration, which only declaration merging (an interface) can extend.
interface ImportMetaEnv {
  /** 'true' makes every actor report to the Stately inspector (also `?inspect` in the URL). */
  readonly VITE_XSTATE_INSPECT?: string;
}

// Declaration merging again: what src/app/early-start-script.js starts before the bundle arrives, kept on the
// window until the app takes each piece (src/services/early-start.ts).
interface Window {
  __paraphEarly?: {
    /**
     * The document a document link or a sign link opens; null on any other signed-in page (only the
     * profile starts).
     */
    documentId: string | null;
    profile: Promise<Response> | null;
    document: Promise<Response> | null;
    /** A sign link's GET /smart_cards. */
    smartCards: Promise<Response> | null;
    /** A sign link's GET /documents/{id}/sign_flow, started once the document says it is a sign flow; else null. */
    signFlow: Promise<Response | null> | null;
    pdfWorker: Worker | null;
    /** The document's PDF, fetched while pdfjs's worker starts (only where the PDF is drawn). */
    pdf: { url: string; bytes: Promise<ArrayBuffer> } | null;
  };
}
