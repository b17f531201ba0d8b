// A sign link opened cold: src/app/early-start-script.js asks for the document, the smart cards and (in a
// sign flow) the flow before the bundle arrives, and the sign screen's load (src/services/signing.ts) takes
// those answers instead of asking again. Each answer is taken once: a retry asks the server.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { ACCESS_TOKEN_KEY } from '../../src/api/client';
import SCRIPT from '../../src/app/early-start-script.js?raw';
import { loadSignScreen } from '../../src/services/signing';

const network = {
  calls: [] as { url: string; authorization: string | null }[],
  answers: {} as Record<string, () => Response>,
};

// The browser's fetch, answered here for this file only (setup.ts's refuses every request). The early
// script asks with a URL string; the app's client with a Request.
beforeAll(() => {
  vi.stubGlobal('fetch', (input: Request | string, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : new URL(input.url).pathname;
    const headers = typeof input === 'string' ? new Headers(init?.headers) : input.headers;
    network.calls.push({ url, authorization: headers.get('authorization') });
    return Promise.resolve(network.answers[url]?.() ?? Response.json({ code: 'not_found' }, { status: 404 }));
  });
});
afterAll(() => {
  vi.unstubAllGlobals();
});

const EMAIL = 'erin@paraph.test';

// Each test its own document, named for this file: a settled read of a document is shared for 2 s
// (services/documents.ts), and other files of the worker read documents through the same module.
let id = 'sign-early-0';

function documentAnswer(isSignFlow: boolean): () => Response {
  const documentId = id;
  return () =>
    Response.json({ data: { id: documentId, type: 'documents', attributes: { name: 'Lease', isSignFlow } } });
}

function answerAll({ isSignFlow }: { isSignFlow: boolean }): void {
  network.answers['/api/profiles'] = () => Response.json({ data: { id: 'profiles' } });
  network.answers[`/api/documents/${id}`] = documentAnswer(isSignFlow);
  network.answers['/api/smart_cards'] = () =>
    Response.json({ data: [{ id: 'card-1', type: 'smartCards', attributes: { name: 'Work card' } }] });
  network.answers[`/api/documents/${id}/sign_flow`] = () =>
    Response.json({
      data: { id: 'flow-1', type: 'signFlows', attributes: { signPageNumber: 2 } },
      included: [
        {
          id: 'c1',
          type: 'signatureCoordinates',
          attributes: { emailAddress: 'Erin@paraph.test', signPageNumber: 2, left: '0.25', top: '0.5' },
        },
      ],
    });
}

function openColdLink(path: string): void {
  window.history.replaceState(null, '', path);
  window.localStorage.setItem(ACCESS_TOKEN_KEY, 'secret-token');
  new Function(SCRIPT)();
}

function load() {
  return toPromise(createActor(loadSignScreen, { input: { documentId: id, emailAddress: EMAIL } }).start());
}

// Read through a function: TypeScript would keep the `delete` before it narrowing otherwise.
function started(): Window['__paraphEarly'] {
  return window.__paraphEarly;
}

/**
 * Once the early start has asked for all it will on a sign link: the flow's request is its last, made
 * (or not) once the document's answer has been read. Its failure is the load's to see, not this wait's.
 */
async function earlyRequestsMade(): Promise<void> {
  const early = started();
  if (!early?.signFlow) throw new Error('the early start began no sign screen load');
  await early.signFlow.catch(() => null);
}

let count = 0;

beforeEach(() => {
  count += 1;
  id = `sign-early-${count}`;
  network.calls.splice(0);
  for (const key of Object.keys(network.answers)) delete network.answers[key];
});

afterEach(() => {
  delete window.__paraphEarly;
  window.localStorage.clear();
});

describe('a sign link opened cold', () => {
  it('asks for the document, the cards and the flow once, before the bundle; the load takes the answers', async () => {
    answerAll({ isSignFlow: true });
    openColdLink(`/app/sign/${id}`);
    await earlyRequestsMade();
    expect(network.calls.map((call) => call.url)).toEqual([
      '/api/profiles',
      `/api/documents/${id}`,
      '/api/smart_cards',
      `/api/documents/${id}/sign_flow`,
    ]);
    // The token only ever in the Authorization header.
    for (const call of network.calls) expect(call.authorization).toBe('Bearer secret-token');
    expect(network.calls.some((call) => call.url.includes('secret-token'))).toBe(false);

    const data = await load();
    expect(data.document.id).toBe(id);
    expect(data.smartCards).toEqual([{ id: 'card-1', name: 'Work card' }]);
    expect(data.assignedPlacement).toEqual({ pageNumber: 2, left: 0.25, top: 0.5 });
    expect(data.flowSignPageNumber).toBe(2);
    // Nothing was asked again.
    expect(network.calls).toHaveLength(4);

    // A retry (or the next visit to the screen) asks the server afresh; the document's read just made is
    // shared for 2 s, as every read is (services/documents.ts).
    network.calls.splice(0);
    await load();
    expect(network.calls.map((call) => call.url).sort()).toEqual([
      `/api/documents/${id}/sign_flow`,
      '/api/smart_cards',
    ]);
  });

  it('on the placement pages too, and asks for no flow when the document is not in one', async () => {
    answerAll({ isSignFlow: false });
    openColdLink(`/app/sign/${id}/signature`);
    await earlyRequestsMade();
    expect(network.calls.map((call) => call.url)).toEqual([
      '/api/profiles',
      `/api/documents/${id}`,
      '/api/smart_cards',
    ]);
    const data = await load();
    expect(data.assignedPlacement).toBeNull();
    expect(data.flowSignPageNumber).toBeNull();
    expect(network.calls).toHaveLength(3);
  });

  it('hands a failed early read over as the answer, and the next load asks the server', async () => {
    answerAll({ isSignFlow: true });
    network.answers[`/api/documents/${id}`] = () => new Response('busy', { status: 503 });
    openColdLink(`/app/sign/${id}/signature-preview`);
    // No flow is asked for a document that did not arrive.
    await expect(started()?.signFlow).resolves.toBeNull();
    expect(network.calls.map((call) => call.url)).not.toContain(`/api/documents/${id}/sign_flow`);
    // The early 503 is the load's answer for the document, as the app's own read would have been.
    await expect(load()).rejects.toMatchObject({ status: 503 });

    network.answers[`/api/documents/${id}`] = documentAnswer(true);
    network.calls.splice(0);
    await expect(load()).resolves.toMatchObject({ flowSignPageNumber: 2 });
    expect(network.calls.map((call) => call.url).sort()).toEqual([
      `/api/documents/${id}`,
      `/api/documents/${id}/sign_flow`,
      '/api/smart_cards',
    ]);
  });

  it('asks for the flow itself when the early request for it failed on the way', async () => {
    answerAll({ isSignFlow: true });
    const flowAnswer = network.answers[`/api/documents/${id}/sign_flow`];
    network.answers[`/api/documents/${id}/sign_flow`] = () => {
      throw new TypeError('Failed to fetch');
    };
    openColdLink(`/app/sign/${id}`);
    await earlyRequestsMade();
    expect(network.calls.map((call) => call.url)).toContain(`/api/documents/${id}/sign_flow`);
    if (flowAnswer) network.answers[`/api/documents/${id}/sign_flow`] = flowAnswer;
    network.calls.splice(0);
    const data = await load();
    expect(data.assignedPlacement).toEqual({ pageNumber: 2, left: 0.25, top: 0.5 });
    // Only the flow was asked again; the document and the cards came from the early start.
    expect(network.calls.map((call) => call.url)).toEqual([`/api/documents/${id}/sign_flow`]);
  });

  it('starts nothing for the sign screen on other pages', async () => {
    answerAll({ isSignFlow: true });
    for (const path of [`/app/sign/${id}/elsewhere`, '/app/documents', '/app/sign']) {
      delete window.__paraphEarly;
      // The script decides before it returns: a sign screen's requests start at once or not at all.
      openColdLink(path);
      expect(started()?.smartCards ?? null, path).toBeNull();
      expect(started()?.signFlow ?? null, path).toBeNull();
    }
    expect(network.calls.map((call) => call.url)).not.toContain('/api/smart_cards');
  });
});
