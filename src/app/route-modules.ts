// The code of the screens that load on demand, one loader per screen, shared by the routes and the
// start-up preload (preload.ts): whichever asks first starts the download, the other joins it.
import { loader } from '../views/preloaded-lazy';

export const loadDocumentScreen = loader(() =>
  Promise.all([
    import('../views/document/document-page'),
    import('./compose-document'),
    import('./compose-details'),
  ]),
);

export const loadListScreen = loader(() =>
  Promise.all([import('../views/documents/document-list'), import('./compose-list')]),
);

export const loadSettingsScreen = loader(() =>
  Promise.all([import('../views/settings/settings-page'), import('./compose-settings')]),
);

export const loadSignScreen = loader(() =>
  Promise.all([import('../views/sign/sign-screen'), import('./compose-signing')]),
);
