// Loaded only for its side effects (see render-pages.ts): its exports are never used.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
