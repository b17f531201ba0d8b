// Overlapping reads of one document share a request (the document page, its details panel and the
// start-up preload all ask for it at once); a write in between makes the next read start afresh, and a
// reader that gives up does not cancel the others. A document link opened cold preloads what it needs.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { api } from '../../src/api/client';
import { documentIdOfPath, preloadForLocation, type PreloadedCode } from '../../src/app/preload';
import { fetchProfile } from '../../src/services/session';
import { DOCUMENT_READ_REUSE_MS, fetchDocument, readDocument } from '../../src/services/documents';

const network = {
  calls: [] as { method: string; url: string; release: (status?: number) => void }[],
  // What GET /documents/{id} answers per id, when a test needs more than an empty document.
  attributes: {} as Record<string, Record<string, unknown>>,
};
const fetchStub = (input: Request): Promise<Response> =>
  new Promise((resolve) => {
    network.calls.push({
      method: input.method,
      url: input.url,
      release: (status = 200) =>
        resolve(
          new Response(
            JSON.stringify(
              status === 200
                ? {
                    data: {
                      id: input.url.split('/').pop(),
                      type: 'documents',
                      attributes: network.attributes[input.url.split('/').pop() ?? ''] ?? {},
                    },
                  }
                : { code: 'not_found', message: 'Not found.' },
            ),
            { status, headers: { 'Content-Type': 'application/json' } },
          ),
        ),
    });
  });

// The client reads fetch at each call: the stand-in answers this file's requests, and is given back after
// it, for the files that share its worker.
beforeAll(() => {
  vi.stubGlobal('fetch', fetchStub);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

// The screen's code and pdfjs are not what these tests are about: the preload is only seen to ask for them.
const screens = {
  loadDocumentScreen: vi.fn(),
  loadListScreen: vi.fn(),
  loadSignScreen: vi.fn(),
  preloadPdfEngine: vi.fn(),
  preopenPdf: vi.fn(),
  drawsPdf: { value: false },
};
const CODE: PreloadedCode = {
  loadDocumentScreen: () => {
    screens.loadDocumentScreen();
    return Promise.resolve([]);
  },
  loadListScreen: () => {
    screens.loadListScreen();
    return Promise.resolve([]);
  },
  loadSignScreen: () => {
    screens.loadSignScreen();
    return Promise.resolve([]);
  },
  preloadPdfEngine: () => screens.preloadPdfEngine(),
  drawsPdf: () => screens.drawsPdf.value,
  loadPdfEngine: () => Promise.resolve({ preopenPdf: screens.preopenPdf }),
};

afterEach(() => {
  screens.drawsPdf.value = false;
  vi.restoreAllMocks();
  vi.clearAllMocks();
  for (const call of network.calls.splice(0)) call.release();
});

async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('document reads', () => {
  it('shares one request between overlapping reads of the same document', async () => {
    const first = readDocument('doc-1');
    const second = readDocument('doc-1');
    const other = readDocument('doc-2');
    await settle();
    expect(network.calls.map((call) => call.url.replace(/^.*\/api/, ''))).toEqual([
      '/documents/doc-1',
      '/documents/doc-2',
    ]);
    for (const call of network.calls.splice(0)) call.release();
    const [a, b, c] = await Promise.all([first, second, other]);
    expect(a.id).toBe('doc-1');
    expect(b).toBe(a);
    expect(c.id).toBe('doc-2');

    // For a moment the answer is reused; after that the next read asks the server again.
    expect(await readDocument('doc-1')).toBe(a);
    await settle();
    expect(network.calls).toHaveLength(0);
    const later = Date.now() + DOCUMENT_READ_REUSE_MS;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    void readDocument('doc-1');
    await settle();
    expect(network.calls).toHaveLength(1);
  });

  it('starts afresh after a write made the read in flight stale', async () => {
    const before = readDocument('doc-3');
    await settle();
    void api.PATCH('/documents/{id}/archive', { params: { path: { id: 'doc-3' } } });
    await settle();
    const after = readDocument('doc-3');
    await settle();
    expect(network.calls.map((call) => `${call.method} ${call.url.replace(/^.*\/api/, '')}`)).toEqual([
      'GET /documents/doc-3',
      'PATCH /documents/doc-3/archive',
      'GET /documents/doc-3',
    ]);
    expect(after).not.toBe(before);
  });

  it('shares a failure too, and lets a reader that stops waiting go without cancelling the others', async () => {
    const stopped = createActor(fetchDocument, { input: { documentId: 'doc-4' } });
    stopped.start();
    const waiting = createActor(fetchDocument, { input: { documentId: 'doc-4' } });
    waiting.start();
    await settle();
    expect(network.calls).toHaveLength(1);
    stopped.stop();
    network.calls.splice(0)[0]?.release(404);
    await expect(toPromise(waiting)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(stopped.getSnapshot().status).toBe('stopped');
    // A failure is not kept: the next read asks again.
    void readDocument('doc-4');
    await settle();
    expect(network.calls).toHaveLength(1);
  });
});

describe('the start-up preload of a document link', () => {
  it('knows which paths open a document', () => {
    expect(documentIdOfPath('/app/document/abc')).toBe('abc');
    expect(documentIdOfPath('/app/document/view/abc')).toBe('abc');
    expect(documentIdOfPath('/app/document/details/a%20b/')).toBe('a b');
    expect(documentIdOfPath('/app/documents')).toBeNull();
    expect(documentIdOfPath('/app/documents/to-do')).toBeNull();
    expect(documentIdOfPath('/app/document/view/abc/extra')).toBeNull();
    expect(documentIdOfPath('/document/abc')).toBeNull();
    expect(documentIdOfPath('/app/document/%E0%A4%A')).toBeNull();
  });

  it('asks for the profile, the document, its screen and the PDF viewer at once; the screen and the session join them', async () => {
    preloadForLocation('/app/document/view/doc-9', true, CODE);
    const joined = readDocument('doc-9');
    const session = createActor(fetchProfile);
    session.start();
    await settle();
    expect(network.calls.map((call) => call.url.replace(/^.*\/api/, ''))).toEqual([
      '/profiles',
      '/documents/doc-9',
    ]);
    expect(screens.loadDocumentScreen).toHaveBeenCalledTimes(1);
    expect(screens.preloadPdfEngine).toHaveBeenCalledTimes(1);
    for (const call of network.calls.splice(0)) call.release();
    await expect(joined).resolves.toMatchObject({ id: 'doc-9' });
    await expect(toPromise(session)).resolves.toMatchObject({ id: 'profiles' });

    // The preloaded profile serves the first load only: the poll asks again.
    const poll = createActor(fetchProfile);
    poll.start();
    await settle();
    expect(network.calls.map((call) => call.url.replace(/^.*\/api/, ''))).toEqual(['/profiles']);
  });

  it('asks only for the profile away from a document, and for nothing without a token or on the login', async () => {
    preloadForLocation('/app/document/doc-10', false, CODE);
    preloadForLocation('/app/login/timeout', true, CODE);
    preloadForLocation('/app/auth', true, CODE);
    await settle();
    expect(network.calls).toEqual([]);
    preloadForLocation('/app/documents', true, CODE);
    await settle();
    expect(network.calls.map((call) => call.url.replace(/^.*\/api/, ''))).toEqual(['/profiles']);
    expect(screens.loadDocumentScreen).not.toHaveBeenCalled();
    expect(screens.preloadPdfEngine).not.toHaveBeenCalled();
    // The session's first load takes it, so the next test starts without one.
    void toPromise(createActor(fetchProfile).start()).catch(() => {});
  });

  it("loads the list's or the sign screen's code on their links, and neither elsewhere", async () => {
    const cases: [string, 'list' | 'sign' | null][] = [
      ['/app/documents', 'list'],
      ['/app/documents/to_do', 'list'],
      ['/app/archive', 'list'],
      ['/app/', 'list'],
      ['/app/sign/doc-13', 'sign'],
      ['/app/sign/doc-13/signature-preview', 'sign'],
      ['/app/settings', null],
      ['/app/document/doc-14', null],
    ];
    for (const [path, screen] of cases) {
      screens.loadListScreen.mockClear();
      screens.loadSignScreen.mockClear();
      preloadForLocation(path, true, CODE);
      expect(screens.loadListScreen, path).toHaveBeenCalledTimes(screen === 'list' ? 1 : 0);
      expect(screens.loadSignScreen, path).toHaveBeenCalledTimes(screen === 'sign' ? 1 : 0);
    }
    // Without a token the login page comes first: nothing is loaded for a screen.
    screens.loadListScreen.mockClear();
    preloadForLocation('/app/documents', false, CODE);
    expect(screens.loadListScreen).not.toHaveBeenCalled();
    await settle();
    // The session's first load takes the preloaded profile, so the next test starts without one.
    void toPromise(createActor(fetchProfile).start()).catch(() => {});
  });

  it('starts opening the PDF once the document names it, where the viewer draws it', async () => {
    screens.drawsPdf.value = true;
    network.attributes['doc-11'] = { pdfUrl: '/storage/doc-11.pdf' };
    network.attributes['doc-12'] = { pdfUrl: '/storage/doc-12.pdf' };
    preloadForLocation('/app/document/view/doc-11', true, CODE);
    await settle();
    expect(screens.preopenPdf).not.toHaveBeenCalled();
    for (const call of network.calls.splice(0)) call.release();
    await settle();
    expect(screens.preopenPdf).toHaveBeenCalledExactlyOnceWith('/storage/doc-11.pdf');

    // The details page shows no PDF, and neither do phones and touch screens (page images there).
    preloadForLocation('/app/document/details/doc-12', true, CODE);
    await settle();
    for (const call of network.calls.splice(0)) call.release();
    await settle();
    screens.drawsPdf.value = false;
    preloadForLocation('/app/document/doc-12', true, CODE);
    await settle();
    for (const call of network.calls.splice(0)) call.release();
    await settle();
    expect(screens.preopenPdf).toHaveBeenCalledTimes(1);
  });
});
