// The one API client. The middleware adds the bearer token to every call and reports a 401 to
// whoever listens (the session, through src/app/): a 401 anywhere ends the session, except on the
// profile poll and the token exchange, whose failures the session machine handles itself (spec 000 §6).
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../../openapi/schema';
import { errorFromResponse, isAbort, networkError } from './errors';

export const ACCESS_TOKEN_KEY = 'access_token';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(ACCESS_TOKEN_KEY);
  } catch {
    return null;
  }
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

const SESSION_OWNED_CALLS = new Set(['GET /profiles', 'GET /tokens']);

export const authMiddleware: Middleware = {
  onRequest({ request }) {
    const token = readToken();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response, schemaPath }) {
    if (response.status !== 401) return undefined;
    if (SESSION_OWNED_CALLS.has(`${request.method} ${schemaPath}`)) return undefined;
    for (const listener of unauthorizedListeners) listener();
    return undefined;
  },
};

// A browser's Request resolves the client's relative URLs against the page's base URL; Node's (which the
// view tests' jsdom has) refuses them. Resolving them here does what the browser does, in both.
class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, document.baseURI) : input, init);
  }
}

// The fetch of the moment of each call, not the one there was when this module loaded: openapi-fetch would
// keep the latter, and a page that replaces fetch later (a test's stand-in, a service worker shim) would
// be passed by.
export const api = createClient<paths>({
  baseUrl: '/api',
  Request: PageRequest,
  fetch: (request) => globalThis.fetch(request),
});
api.use(authMiddleware);

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** Resolves to the body of a successful call; rejects with an ApiError (or the abort, untouched). */
export async function unwrap<T>(call: Promise<Outcome<T>>): Promise<T> {
  let outcome: Outcome<T>;
  try {
    outcome = await call;
  } catch (error) {
    if (isAbort(error)) throw error;
    throw networkError();
  }
  if (!outcome.response.ok || outcome.error !== undefined) {
    throw errorFromResponse(outcome.response.status, outcome.error);
  }
  // openapi-fetch leaves `data` undefined only for empty bodies (204), which callers type as void.
  return outcome.data as T;
}
