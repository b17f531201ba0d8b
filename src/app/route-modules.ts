// The code of the screens that load on demand, one loader per screen, shared by the routes and the
// start-up preload (preload.ts): whichever asks first starts the download, the other joins it.
import { preloadPdfEngine } from '../views/document/pdf-viewer-loader';
import { loader } from '../views/preloaded-lazy';

export const loadDocumentScreen = loader(() => {
  // pdfjs-dist stays off the list's path. Where the PDF is drawn it starts loading with the document
  // screen's code (or earlier, from the start-up preload), with its worker, while the document is still
  // being fetched, instead of after it.
  preloadPdfEngine();
  return Promise.all([
    import('../views/document/document-page'),
    import('./compose-document'),
    import('./compose-details'),
  ]);
});

export const loadListScreen = loader(() =>
  Promise.all([import('../views/documents/document-list'), import('./compose-list')]),
);

export const loadSettingsScreen = loader(() =>
  Promise.all([import('../views/settings/settings-page'), import('./compose-settings')]),
);

export const loadSignScreen = loader(() =>
  Promise.all([import('../views/sign/sign-screen'), import('./compose-signing')]),
);
