// Runs before the app's bundle has arrived (index.html loads it first, before the page is painted: it
// paints the theme's background). A document link opened cold
// would otherwise ask for the profile, the document and pdfjs's worker (about 1 MB of script to fetch
// and compile before the PDF can even be requested) only once the app's own code has compiled, and for
// the document screen's code and pdfjs only once the bundle has run. A sign link's document, smart cards and
// sign flow likewise. Started here, they run beside it;
// the app takes the answers and the worker over once (src/services/early-start.ts), and its dynamic
// imports find the code already fetched and compiled (modulepreload). Any other signed-in page gets its
// profile asked for, and the list's or the sign screen's code preloaded. The token goes only into an
// Authorization header, as the app sends it.
// Keep the literals equal to the app's (tests/views/early-start.test.tsx checks them): the access-token
// key, the document routes, the breakpoints of src/views/use-media-query.ts and the theme's key, values
// and backgrounds (src/services/theme.ts).
(function () {
  'use strict';
  // A file nobody took (the document is still being processed, or the user left) is let go.
  var UNTAKEN_PDF_MS = 30000;
  // The early document's body, for this script's own use. Called before the app can read the answer, so the
  // answer is cloned before the app reads its body.
  function earlyDocumentBody(early) {
    return early.document.then(function (response) {
      return response.ok ? response.clone().json() : null;
    });
  }
  function prefetchPdf(early) {
    earlyDocumentBody(early)
      .then(function (body) {
        var attributes = (body && body.data && body.data.attributes) || {};
        // The viewer shows the server's image of the first page until pdf.js has drawn it.
        var images = attributes.publicImagesFileUrls;
        if (Array.isArray(images) && typeof images[0] === 'string' && images[0] !== '') {
          var link = document.createElement('link');
          link.rel = 'preload';
          link.as = 'image';
          link.href = images[0];
          document.head.appendChild(link);
        }
        var url = attributes.pdfUrl;
        if (typeof url !== 'string' || url === '') return;
        // Credentials as pdf.js sends them for the signed storage link (withCredentials: false).
        var bytes = window.fetch(url, { credentials: 'same-origin' }).then(function (response) {
          if (!response.ok) throw new Error('The PDF could not be fetched early: ' + response.status);
          return response.arrayBuffer();
        });
        bytes.catch(function () {});
        early.pdf = { url: url, bytes: bytes };
        window.setTimeout(function () {
          if (early.pdf && early.pdf.bytes === bytes) early.pdf = null;
        }, UNTAKEN_PDF_MS);
      })
      .catch(function () {});
  }
  // The build lists the files (vite.config.ts, earlyStart) in a meta tag, space-separated.
  function preloadModules(name) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    addModulePreloads(meta ? (meta.getAttribute('content') || '').split(' ') : []);
  }
  function addModulePreloads(files) {
    for (var index = 0; index < files.length; index += 1) {
      if (!files[index]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      // As the build's own modulepreload links, so that the dynamic import finds this very request.
      link.crossOrigin = '';
      link.href = files[index];
      document.head.appendChild(link);
    }
  }
  // The language the app will pick (src/i18n/locale.ts readStartLocale: a forced one, the stored choice, then
  // the browser's languages, then English; an unknown forced or stored one is English): its catalog is
  // the first thing the app's start waits for.
  function toLocale(tag) {
    var language = String(tag || '')
      .trim()
      .toLowerCase()
      .split(/[-_]/)[0];
    return language === 'en' || language === 'es' || language === 'fr' ? language : null;
  }
  function detectLocale() {
    // A mobile wrapper's ?forceLocale= comes first; an unknown one means English (src/i18n/locale.ts).
    var forced = new URLSearchParams(window.location.search).get('forceLocale');
    if (forced !== null) return toLocale(forced) || 'en';
    var tags = [];
    try {
      var stored = window.localStorage.getItem('locale');
      // An unknown stored locale means English (src/i18n/locale.ts detectLocale).
      if (stored !== null && stored.trim() !== '') return toLocale(stored) || 'en';
    } catch {
      // Storage refused: the browser's languages still apply.
    }
    tags = tags.concat(
      navigator.languages && navigator.languages.length > 0 ? navigator.languages : [navigator.language],
    );
    for (var index = 0; index < tags.length; index += 1) {
      if (toLocale(tags[index])) return toLocale(tags[index]);
    }
    return 'en';
  }
  function preloadCatalogPart(name, locale) {
    var meta = document.querySelector('meta[name="' + name + '"]');
    var entries = meta ? (meta.getAttribute('content') || '').split(' ') : [];
    for (var index = 0; index < entries.length; index += 1) {
      var pair = entries[index].split('=');
      if (pair[0] === locale && pair[1]) addModulePreloads(pair[1].split(','));
    }
  }
  // The list's routes, and the app's root, which shows the list.
  var LIST_PATH = /^\/app\/((documents(\/[^/]+)?|archive)\/?)?$/;
  function preloadCatalog() {
    var locale = detectLocale();
    preloadCatalogPart('paraph-catalogs', locale);
    // Every screen but the list needs the catalog's second part at once (src/i18n/messages.ts).
    if (!LIST_PATH.test(window.location.pathname)) preloadCatalogPart('paraph-catalog-rests', locale);
  }
  // Light or dark as src/services/theme.ts resolves it: the stored choice (`theme`: system, light or
  // dark; anything else is system), else the system's scheme. This script is loaded without `async`, so
  // the page's first paint already has the theme's background: a dark page never flashes white, and a
  // Light choice on a dark system is light from the start.
  var PAGE_BACKGROUNDS = { light: '#ffffff', dark: '#292929' };
  function wantedTheme() {
    var stored = null;
    try {
      stored = window.localStorage.getItem('theme');
    } catch {
      // Storage refused: the system's scheme applies.
    }
    if (stored === 'light' || stored === 'dark') return stored;
    var isDark =
      typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
    return isDark ? 'dark' : 'light';
  }
  function paintTheme() {
    var theme = wantedTheme();
    var root = document.documentElement;
    root.style.colorScheme = theme;
    root.style.backgroundColor = PAGE_BACKGROUNDS[theme];
    // The app's first render waits for the dark theme's tokens on a dark page: fetched beside the bundle.
    if (theme === 'dark') preloadModules('paraph-dark-theme');
  }
  try {
    paintTheme();
  } catch {
    // global.css still paints a dark system dark.
  }
  try {
    preloadCatalog();
  } catch {
    // The app loads its catalog itself.
  }
  // The page's first use of Intl loads the browser's locale data: some 50 ms on a fast machine, about
  // four times that on a slow phone, which react-intl's set-up would pay in the app's first render. In a
  // task of its own here it runs while the bundle is still downloading, when the main thread is idle.
  window.setTimeout(function () {
    try {
      var locale = detectLocale();
      new Intl.DateTimeFormat(locale).format(0);
      new Intl.NumberFormat(locale).format(0);
    } catch {
      // Nothing is lost: the app's first formatter loads the data instead.
    }
  }, 0);
  // Every signed-in screen waits for the profile, then for its own code (src/app/preload.ts asks for the
  // same once the bundle has run): the list and the sign screen, the two a cold link opens most, have
  // their code named in the page.
  function preloadScreen(path) {
    if (/^\/app\/sign\/[^/]+(\/signature(-preview)?)?\/?$/.test(path)) preloadModules('paraph-sign-chunks');
    else if (LIST_PATH.test(path)) preloadModules('paraph-list-chunks');
  }
  try {
    var path = window.location.pathname;
    // The login and the token exchange show no signed-in screen (src/app/preload.ts isPublicPath).
    if (!/^\/app\//.test(path) || /^\/app\/(login|auth)(\/|$)/.test(path)) return;
    var token = window.localStorage.getItem('access_token');
    if (!token) return;
    var match = /^\/app\/document\/(?:view\/|details\/)?([^/]+)\/?$/.exec(path);
    var signMatch = /^\/app\/sign\/([^/]+)(?:\/signature(?:-preview)?)?\/?$/.exec(path);
    var documentId = match || signMatch ? decodeURIComponent((match || signMatch)[1]) : null;
    var init = { headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' } };
    var documentPath = documentId === null ? null : '/api/documents/' + encodeURIComponent(documentId);
    var early = {
      documentId: documentId,
      profile: window.fetch('/api/profiles', init),
      document: documentPath ? window.fetch(documentPath, init) : null,
      smartCards: null,
      signFlow: null,
      pdfWorker: null,
      pdf: null,
    };
    // Unhandled rejections stay quiet: the app reads these answers, and their failures, itself.
    early.profile.catch(function () {});
    if (early.document) early.document.catch(function () {});
    window.__paraphEarly = early;
    if (signMatch) {
      // The sign screen's load (src/services/signing.ts loadSignScreen): the document and the smart cards
      // side by side, then, in a sign flow, the flow's placements.
      early.smartCards = window.fetch('/api/smart_cards', init);
      early.smartCards.catch(function () {});
      early.signFlow = earlyDocumentBody(early).then(function (body) {
        var isSignFlow = Boolean(
          body && body.data && body.data.attributes && body.data.attributes.isSignFlow,
        );
        return isSignFlow ? window.fetch(documentPath + '/sign_flow', init) : null;
      });
      early.signFlow.catch(function () {});
    }
    if (!match) {
      preloadScreen(path);
      return;
    }
    preloadModules('paraph-document-chunks');
    var meta = document.querySelector('meta[name="paraph-pdf-worker"]');
    if (!meta || typeof Worker === 'undefined' || typeof window.matchMedia !== 'function') return;
    if (window.matchMedia('(max-width: 767px)').matches) return;
    if (window.matchMedia('(pointer: coarse)').matches) return;
    early.pdfWorker = new Worker(meta.getAttribute('content'), { type: 'module' });
    preloadModules('paraph-pdf-chunks');
    // pdf.js asks for the file only once its worker has started, and that start is the slowest part of
    // opening a document; the file is fetched meanwhile. The details page draws no PDF.
    if (!/^\/app\/document\/details\//.test(window.location.pathname)) prefetchPdf(early);
  } catch {
    // A malformed path, storage or workers refused (privacy modes): the app starts everything itself.
  }
})();
