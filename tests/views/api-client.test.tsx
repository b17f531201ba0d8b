// The client's rules from spec 000 §6 and decisions.md, checked on the middleware itself: the bearer
// token on every call, a 401 reported to the session except from the profile and token calls, and
// failures turned into one { code, status, field? } shape.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authMiddleware, onUnauthorized } from '../../src/api/client';
import { errorFromResponse } from '../../src/api/errors';
import { queryFromInput, queryFromLink } from '../../src/services/documents';

type OnRequest = NonNullable<(typeof authMiddleware)['onRequest']>;
type OnResponse = NonNullable<(typeof authMiddleware)['onResponse']>;

function callParams(method: string, schemaPath: string) {
  const request = new Request(`http://paraph.test/api${schemaPath}`, { method });
  return { request, schemaPath, params: {}, id: 'test', options: {} as Parameters<OnRequest>[0]['options'] };
}

let unsubscribe: (() => void) | undefined;
afterEach(() => unsubscribe?.());

describe('API client middleware', () => {
  it('sends the stored access token as a bearer header', async () => {
    window.localStorage.setItem('access_token', 'secret-token');
    const params = callParams('GET', '/documents/active');
    const request = await (authMiddleware.onRequest as OnRequest)(params);
    expect((request as Request).headers.get('Authorization')).toBe('Bearer secret-token');
  });

  it('sends no Authorization header without a token', async () => {
    const params = callParams('GET', '/documents/active');
    const request = await (authMiddleware.onRequest as OnRequest)(params);
    expect((request as Request).headers.has('Authorization')).toBe(false);
  });

  it('reports a 401 on an ordinary call, but not on the profile or token calls', async () => {
    const listener = vi.fn();
    unsubscribe = onUnauthorized(listener);
    const onResponse = authMiddleware.onResponse as OnResponse;
    const unauthorized = new Response(JSON.stringify({ code: 'unauthorized', message: 'No.' }), {
      status: 401,
    });

    await onResponse({ ...callParams('GET', '/profiles'), response: unauthorized });
    await onResponse({ ...callParams('GET', '/tokens'), response: unauthorized });
    await onResponse({
      ...callParams('GET', '/documents/active'),
      response: new Response('{}', { status: 200 }),
    });
    expect(listener).not.toHaveBeenCalled();

    await onResponse({ ...callParams('POST', '/upload_requests'), response: unauthorized });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('API failures', () => {
  it('keeps the server code and field of a 4xx', () => {
    const { code, status, field } = errorFromResponse(422, {
      code: 'not_a_pdf',
      message: 'x',
      field: 'filename',
    });
    expect({ code, status, field }).toEqual({ code: 'not_a_pdf', status: 422, field: 'filename' });
  });

  it('names a 401 unauthorized and any 5xx server, whatever the body says', () => {
    expect(errorFromResponse(401, { code: 'token_revoked' }).code).toBe('unauthorized');
    expect(errorFromResponse(503, undefined).code).toBe('server');
  });
});

describe('document list queries', () => {
  it('reads search, sort and page out of a pagination link and drops anything else', () => {
    expect(
      queryFromLink(
        '/api/documents/active?search=lease&sort%5Bcolumn%5D=created_at&sort%5Bdirection%5D=asc&page=3&x=1',
      ),
    ).toEqual({ search: 'lease', 'sort[column]': 'created_at', 'sort[direction]': 'asc', page: 3 });
    expect(queryFromLink('/api/documents/active?sort%5Bcolumn%5D=evil&page=-2')).toEqual({});
  });

  it('sends the trimmed search with the sort for a first page', () => {
    expect(
      queryFromInput({
        category: 'active',
        url: null,
        search: '  nda ',
        sort: { column: 'created_at', direction: 'desc' },
      }),
    ).toEqual({ search: 'nda', 'sort[column]': 'created_at', 'sort[direction]': 'desc' });
  });
});
