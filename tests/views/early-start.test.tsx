// public/early-start.js runs before the bundle and cannot import the app's constants, so these tests run
// the very file in the page and check that it starts exactly what the app then takes over: the profile and
// the document of a document route with a token, pdfjs's worker on wide non-touch screens, and nothing
// anywhere else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../../src/api/client';
import { documentIdOfPath } from '../../src/app/preload';
import { takeEarlyDocument, takeEarlyPdfWorker, takeEarlyProfile } from '../../src/services/early-start';
import { MOBILE_QUERY, TOUCH_QUERY } from '../../src/views/use-media-query';
import SCRIPT from '../../public/early-start.js?raw';

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

function runScript(path: string, { token = 'secret-token' as string | null, meta = true } = {}) {
  window.history.replaceState(null, '', path);
  if (token === null) window.localStorage.removeItem(ACCESS_TOKEN_KEY);
  else window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
  document.head.querySelector('meta[name="paraph-pdf-worker"]')?.remove();
  if (meta) {
    const tag = document.createElement('meta');
    tag.setAttribute('name', 'paraph-pdf-worker');
    tag.setAttribute('content', WORKER_URL);
    document.head.append(tag);
  }
  new Function(SCRIPT)();
}

beforeEach(() => {
  fetchCalls = [];
  matching = new Set();
  FakeWorker.started = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      fetchCalls.push({ url, init });
      return Promise.resolve(new Response('{}'));
    }),
  );
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: matching.has(query) }));
});

afterEach(() => {
  delete window.__paraphEarly;
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('public/early-start.js', () => {
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
      '/app/sign/abc',
      '/document/abc',
    ];
    for (const path of paths) {
      delete window.__paraphEarly;
      fetchCalls = [];
      runScript(path);
      const expected = documentIdOfPath(path);
      // Read through a function: TypeScript would keep the `delete` above's narrowing otherwise.
      expect(earlyDocumentId(), path).toBe(expected);
      expect(fetchCalls.length, path).toBe(expected === null ? 0 : 2);
    }
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
});
