// Runs before the app's bundle has arrived (index.html loads it async). A document link opened cold
// would otherwise ask for the profile, the document and pdfjs's worker (about 1 MB of script to fetch
// and compile before the PDF can even be requested) only once the app's own code has compiled. Started
// here, they run beside it; the app takes them over once (src/services/early-start.ts). Anywhere but a
// document route nothing starts. The token goes only into an Authorization header, as the app sends it.
// Keep the literals equal to the app's (tests/views/early-start.test.tsx checks them): the access-token
// key, the document routes and the breakpoints of src/views/use-media-query.ts.
(function () {
  'use strict';
  try {
    var match = /^\/app\/document\/(?:view\/|details\/)?([^/]+)\/?$/.exec(window.location.pathname);
    if (!match) return;
    var documentId = decodeURIComponent(match[1]);
    var token = window.localStorage.getItem('access_token');
    if (!token) return;
    var init = { headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } };
    var early = {
      documentId: documentId,
      profile: window.fetch('/api/profiles', init),
      document: window.fetch('/api/documents/' + encodeURIComponent(documentId), init),
      pdfWorker: null,
    };
    // Unhandled rejections stay quiet: the app reads these answers, and their failures, itself.
    early.profile.catch(function () {});
    early.document.catch(function () {});
    window.__paraphEarly = early;
    var meta = document.querySelector('meta[name="paraph-pdf-worker"]');
    if (!meta || typeof Worker === 'undefined' || typeof window.matchMedia !== 'function') return;
    if (window.matchMedia('(max-width: 767px)').matches) return;
    if (window.matchMedia('(pointer: coarse)').matches) return;
    early.pdfWorker = new Worker(meta.getAttribute('content'), { type: 'module' });
  } catch {
    // A malformed path, storage or workers refused (privacy modes): the app starts everything itself.
  }
})();
