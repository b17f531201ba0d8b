// src/app/early-start-script.js runs before the bundle and cannot import the app's constants, so these tests run
// the very file in the page and check that it starts exactly what the app then takes over: the catalog of
// the language the app picks (every page); the profile and the document of a document route with a token,
// the document screen's code (a sign link's reads: sign-early-start.test.tsx); on wide non-touch screens
// pdfjs's worker and code, the PDF and its first page's image; and nothing anywhere else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../../src/api/client';
import { documentIdOfPath } from '../../src/app/preload';
import {
  takeEarlyDocument,
  takeEarlyPdf,
  takeEarlyPdfWorker,
  takeEarlyProfile,
} from '../../src/services/early-start';
import { detectLocale, readForcedLocale } from '../../src/i18n/locale';
import {
  DARK_SCHEME_QUERY,
  isThemePreference,
  PAGE_BACKGROUNDS,
  resolveTheme,
  THEME_STORAGE_KEY,
} from '../../src/services/theme';
import { MOBILE_QUERY, TOUCH_QUERY } from '../../src/views/use-media-query';
import SCRIPT from '../../src/app/early-start-script.js?raw';

const WORKER_URL = '/app/assets/pdf.worker.min-test.mjs';

class FakeWorker {
  static started: string[] = [];
  constructor(url: string) {
    FakeWorker.started.push(url);
  }
}

function earlyDocumentId(): string | null {
  return window.__paraphEarly?.documentId ?? null;
}

let fetchCalls: { url: string; init: RequestInit }[];
let matching: Set<string>;

// What the build writes into the page (vite.config.ts, earlyStart).
const PAGE_HINTS: Record<string, string> = {
  'paraph-pdf-worker': WORKER_URL,
  'paraph-document-chunks': '/app/assets/document-page-1.js /app/assets/details-panel-2.js',
  'paraph-pdf-chunks': '/app/assets/pdf-engine-3.js /app/assets/pdfjs-4.js',
  'paraph-catalogs': 'en=/app/assets/en-5.js es=/app/assets/es-6.js fr=/app/assets/fr-7.js',
  'paraph-catalog-rests': 'en=/app/assets/en-12.js es=/app/assets/es-13.js fr=/app/assets/fr-14.js',
  'paraph-dark-theme': '/app/assets/dark-theme-8.js',
  'paraph-list-chunks': '/app/assets/document-list-9.js',
  'paraph-sign-chunks': '/app/assets/sign-screen-10.js /app/assets/compose-signing-11.js',
};

function runScript(path: string, { token = 'secret-token' as string | null, meta = true } = {}) {
  window.history.replaceState(null, '', path);
  if (token === null) window.localStorage.removeItem(ACCESS_TOKEN_KEY);
  else window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
  for (const tag of document.head.querySelectorAll('meta, link')) tag.remove();
  if (meta) {
    for (const [name, content] of Object.entries(PAGE_HINTS)) {
      const tag = document.createElement('meta');
      tag.setAttribute('name', name);
      tag.setAttribute('content', content);
      document.head.append(tag);
    }
  }
  new Function(SCRIPT)();
}

function preloaded(kind: 'modulepreload' | 'preload'): string[] {
  return [...document.head.querySelectorAll<HTMLLinkElement>(`link[rel="${kind}"]`)].map(
    (link) => link.getAttribute('href') ?? '',
  );
}

const PDF_BYTES = new Uint8Array([37, 80, 68, 70, 45]);
// GET /documents/{id} names the PDF and the first page's image; the PDF answers its bytes.
let answers: Record<string, () => Response>;

beforeEach(() => {
  answers = {};
  fetchCalls = [];
  matching = new Set();
  FakeWorker.started = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      fetchCalls.push({ url, init });
      return Promise.resolve(answers[url]?.() ?? new Response('{}'));
    }),
  );
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: matching.has(query) }));
});

afterEach(() => {
  delete window.__paraphEarly;
  document.documentElement.removeAttribute('style');
  window.localStorage.clear();
  for (const tag of document.head.querySelectorAll('meta, link')) tag.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('src/app/early-start-script.js', () => {
  it('asks for the profile and the document of a document link, and boots the worker', async () => {
    runScript('/app/document/view/doc%201');
    expect(fetchCalls.map((call) => call.url)).toEqual(['/api/profiles', '/api/documents/doc%201']);
    for (const call of fetchCalls) {
      expect(call.init.headers).toEqual({ Authorization: 'Bearer secret-token', Accept: 'application/json' });
    }
    expect(FakeWorker.started).toEqual([WORKER_URL]);

    // The app takes each piece once, and only the document it opens.
    expect(takeEarlyDocument('another')).toBeNull();
    const document = takeEarlyDocument('doc 1');
    expect(document).not.toBeNull();
    await expect(document).resolves.toBeInstanceOf(Response);
    expect(takeEarlyDocument('doc 1')).toBeNull();
    expect(takeEarlyProfile()).not.toBeNull();
    expect(takeEarlyProfile()).toBeNull();
    expect(takeEarlyPdfWorker()).toBeInstanceOf(FakeWorker);
    expect(takeEarlyPdfWorker()).toBeNull();
  });

  it('follows the app on which paths open a document', () => {
    const paths = [
      '/app/document/abc',
      '/app/document/details/abc/',
      '/app/document/view/abc',
      '/app/documents',
      '/app/document/details/abc/extra',
      '/document/abc',
    ];
    // A sign link also names its document: tests/views/sign-early-start.test.tsx.
    for (const path of paths) {
      delete window.__paraphEarly;
      fetchCalls = [];
      runScript(path);
      const expected = documentIdOfPath(path);
      // Read through a function: TypeScript would keep the `delete` above's narrowing otherwise.
      expect(earlyDocumentId(), path).toBe(expected);
      // Any signed-in page under /app/ asks for the profile; a document link for its document too.
      const isAppPage = path.startsWith('/app/');
      expect(fetchCalls.length, path).toBe(expected !== null ? 2 : isAppPage ? 1 : 0);
    }
  });

  it("asks for the profile on every signed-in page, and preloads the list's or the sign screen's code", async () => {
    const signScreen = ['/app/assets/sign-screen-10.js', '/app/assets/compose-signing-11.js'];
    // A sign link also asks for what the sign screen loads (tests/views/sign-early-start.test.tsx).
    const signReads = ['/api/documents/abc', '/api/smart_cards'];
    const list = ['/app/assets/document-list-9.js'];
    // Every screen but the list needs the catalog's second part at once (src/i18n/messages.ts).
    const rest = '/app/assets/en-12.js';
    const cases: [string, string[], string[]][] = [
      ['/app/', list, []],
      ['/app/documents', list, []],
      ['/app/documents/to-do', list, []],
      ['/app/archive', list, []],
      ['/app/sign/abc', [rest, ...signScreen], signReads],
      ['/app/sign/abc/signature', [rest, ...signScreen], signReads],
      ['/app/settings', [rest], []],
    ];
    for (const [path, screen, reads] of cases) {
      delete window.__paraphEarly;
      fetchCalls = [];
      runScript(path);
      expect(
        fetchCalls.map((call) => call.url),
        path,
      ).toEqual(['/api/profiles', ...reads]);
      expect(preloaded('modulepreload'), path).toEqual(['/app/assets/en-5.js', ...screen]);
      expect(earlyDocumentId(), path).toBe(reads.length > 0 ? 'abc' : null);
    }
    // The session's first profile load takes the answer, once; no document is handed over.
    expect(takeEarlyDocument('abc')).toBeNull();
    await expect(takeEarlyProfile()).resolves.toBeInstanceOf(Response);
    expect(takeEarlyProfile()).toBeNull();

    // Not on the login or the token exchange, and not without a token.
    for (const path of ['/app/login', '/app/auth', '/app/auth/callback']) {
      delete window.__paraphEarly;
      fetchCalls = [];
      runScript(path);
      expect(fetchCalls, path).toEqual([]);
      expect(preloaded('modulepreload'), path).toEqual(['/app/assets/en-5.js', rest]);
    }
    fetchCalls = [];
    runScript('/app/documents', { token: null });
    expect(fetchCalls).toEqual([]);
    expect(preloaded('modulepreload')).toEqual(['/app/assets/en-5.js']);
  });

  it('starts nothing without a token, and no worker on phones, touch screens or without the page hint', () => {
    runScript('/app/document/abc', { token: null });
    expect(window.__paraphEarly).toBeUndefined();
    expect(fetchCalls).toEqual([]);

    for (const query of [MOBILE_QUERY, TOUCH_QUERY]) {
      matching = new Set([query]);
      runScript('/app/document/abc');
      expect(window.__paraphEarly?.documentId).toBe('abc');
      expect(FakeWorker.started, query).toEqual([]);
    }

    matching = new Set();
    runScript('/app/document/abc', { meta: false });
    expect(window.__paraphEarly?.pdfWorker).toBeNull();
    expect(FakeWorker.started).toEqual([]);
  });

  it('keeps quiet on a malformed path', () => {
    expect(() => runScript('/app/document/%E0%A4%A')).not.toThrow();
    expect(window.__paraphEarly).toBeUndefined();
  });

  it("preloads the document screen's code, and pdfjs's only where the PDF is drawn", () => {
    runScript('/app/document/abc');
    const screen = PAGE_HINTS['paraph-document-chunks']?.split(' ') ?? [];
    const pdfjs = PAGE_HINTS['paraph-pdf-chunks']?.split(' ') ?? [];
    const catalog = ['/app/assets/en-5.js', '/app/assets/en-12.js'];
    expect(preloaded('modulepreload')).toEqual([...catalog, ...screen, ...pdfjs]);
    // As the build's own modulepreload links, so that the app's import finds this very request.
    for (const link of document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')) {
      expect(link.crossOrigin).toBe('');
    }

    matching = new Set([MOBILE_QUERY]);
    runScript('/app/document/abc');
    expect(preloaded('modulepreload')).toEqual([...catalog, ...screen]);

    runScript('/app/settings');
    expect(preloaded('modulepreload')).toEqual(catalog);
  });

  it('preloads the catalog of the language the app will pick, on every page, signed in or not, and its second part on any screen but the list', () => {
    const cases: { stored: string | null; languages: string[] }[] = [
      { stored: null, languages: ['fr-BE', 'en'] },
      { stored: 'es', languages: ['fr-BE'] },
      { stored: 'de', languages: ['de-CH', 'ES'] },
      { stored: null, languages: ['nl', 'pt'] },
      { stored: ' FR ', languages: [] },
    ];
    const catalogs = { en: '/app/assets/en-5.js', es: '/app/assets/es-6.js', fr: '/app/assets/fr-7.js' };
    const rests = { en: '/app/assets/en-12.js', es: '/app/assets/es-13.js', fr: '/app/assets/fr-14.js' };
    for (const { stored, languages } of cases) {
      vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
      vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? 'en-US');
      runScript('/app/login', { token: null });
      if (stored === null) window.localStorage.removeItem('locale');
      else window.localStorage.setItem('locale', stored);
      for (const tag of document.head.querySelectorAll('link')) tag.remove();
      new Function(SCRIPT)();
      const expected = detectLocale(stored, languages.length > 0 ? languages : [navigator.language]);
      expect(preloaded('modulepreload'), JSON.stringify({ stored, languages })).toEqual([
        catalogs[expected],
        rests[expected],
      ]);
    }

    // A mobile wrapper's forceLocale wins; an unknown one means English.
    for (const [query, expected] of [
      ['?forceLocale=fr-CA', 'fr'],
      ['?forceLocale=de', 'en'],
    ] as const) {
      const forced = readForcedLocale(query);
      expect(forced.kind === 'valid' ? forced.locale : 'en').toBe(expected);
      window.localStorage.setItem('locale', 'es');
      runScript(`/app/documents${query}`, { token: null });
      expect(preloaded('modulepreload'), query).toEqual([catalogs[expected]]);
    }
  });

  it("paints the page in the theme the app will draw, before the first paint, and preloads the dark theme's tokens only for a dark page", () => {
    const darkTheme = PAGE_HINTS['paraph-dark-theme'];
    for (const stored of [null, 'system', 'light', 'dark', 'sepia']) {
      for (const isSystemDark of [false, true]) {
        matching = new Set(isSystemDark ? [DARK_SCHEME_QUERY] : []);
        if (stored === null) window.localStorage.removeItem(THEME_STORAGE_KEY);
        else window.localStorage.setItem(THEME_STORAGE_KEY, stored);
        document.documentElement.removeAttribute('style');
        runScript('/app/documents', { token: null });
        // src/services/theme.ts's own reading: an unknown stored value is System.
        const expected = resolveTheme(isThemePreference(stored) ? stored : 'system', isSystemDark);
        const page = document.documentElement.style;
        const label = JSON.stringify({ stored, isSystemDark });
        expect(page.colorScheme, label).toBe(expected);
        expect(page.backgroundColor, label).toBe(
          expected === 'dark' ? 'rgb(41, 41, 41)' : 'rgb(255, 255, 255)',
        );
        expect(preloaded('modulepreload').includes(darkTheme ?? ''), label).toBe(expected === 'dark');
      }
    }
    expect(PAGE_BACKGROUNDS).toEqual({ light: '#ffffff', dark: '#292929' });
    // Storage refused (private modes): the system's scheme still applies.
    matching = new Set([DARK_SCHEME_QUERY]);
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    document.documentElement.removeAttribute('style');
    runScript('/app/login', { token: null });
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });

  it('fetches the PDF and preloads its first page image once the document names them; the viewer takes the bytes once', async () => {
    answers['/api/documents/abc'] = () =>
      Response.json({
        data: {
          id: 'abc',
          attributes: { pdfUrl: '/storage/abc.pdf?sig=1', publicImagesFileUrls: ['/storage/abc-1.png'] },
        },
      });
    answers['/storage/abc.pdf?sig=1'] = () => new Response(PDF_BYTES);
    runScript('/app/document/view/abc');
    // The PDF is asked for once the document's answer has been read.
    await vi.waitFor(() => expect(window.__paraphEarly?.pdf?.url).toBe('/storage/abc.pdf?sig=1'));
    expect(fetchCalls.map((call) => call.url)).toEqual([
      '/api/profiles',
      '/api/documents/abc',
      '/storage/abc.pdf?sig=1',
    ]);
    // The signed link needs no token: only the API calls carry it.
    expect(fetchCalls[2]?.init).toEqual({ credentials: 'same-origin' });
    const image = document.head.querySelector<HTMLLinkElement>('link[rel="preload"]');
    expect(image?.getAttribute('href')).toBe('/storage/abc-1.png');
    expect(image?.as).toBe('image');

    // The app still reads the document's answer in full.
    const answer = await takeEarlyDocument('abc');
    await expect(answer?.json()).resolves.toMatchObject({ data: { id: 'abc' } });

    await expect(takeEarlyPdf('/storage/other.pdf')).resolves.toBeNull();
    await expect(takeEarlyPdf('/storage/abc.pdf?sig=1')).resolves.toEqual(PDF_BYTES);
    await expect(takeEarlyPdf('/storage/abc.pdf?sig=1')).resolves.toBeNull();
  });

  it('fetches no PDF for the details page, hands over none that failed, and lets go of one nobody took', async () => {
    answers['/api/documents/abc'] = () =>
      Response.json({ data: { id: 'abc', attributes: { pdfUrl: '/storage/abc.pdf' } } });
    answers['/storage/abc.pdf'] = () => new Response('gone', { status: 404 });
    runScript('/app/document/details/abc');
    // The details page draws no PDF: the script decides so before it returns, and never asks for it.
    expect(window.__paraphEarly?.pdf).toBeNull();
    expect(fetchCalls.map((call) => call.url)).not.toContain('/storage/abc.pdf');

    runScript('/app/document/abc');
    await vi.waitFor(() => expect(window.__paraphEarly?.pdf?.url).toBe('/storage/abc.pdf'));
    expect(fetchCalls.map((call) => call.url)).toContain('/storage/abc.pdf');
    await expect(takeEarlyPdf('/storage/abc.pdf')).resolves.toBeNull();

    vi.useFakeTimers();
    answers['/storage/abc.pdf'] = () => new Response(PDF_BYTES);
    runScript('/app/document/abc');
    await vi.waitFor(() => expect(window.__paraphEarly?.pdf?.url).toBe('/storage/abc.pdf'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(window.__paraphEarly?.pdf).toBeNull();
    await expect(takeEarlyPdf('/storage/abc.pdf')).resolves.toBeNull();
  });
});
