// The app's returnUrl (after sign-in, after a timeout) is resolved first, as the browser resolves it,
// and only a path inside the app is followed.
import { describe, expect, it } from 'vitest';
import { safeReturnUrl, signInHref } from '../../src/services/navigation';

describe('safeReturnUrl', () => {
  it.each([
    '/app/..//evil.example',
    '/app/../..//other.example/x',
    '/..//other.example/x',
    '/app/%2e%2e//evil',
    '/app/%2E%2E/%2e%2e//evil.example',
    '/app/.%2e//evil.example',
    '/app/\\evil.example',
    '/app/..\\/evil.example',
    '/app/\t/../..//evil.example',
    '/app/\n/../..//evil.example',
    '//evil.example/app/',
    'https://evil.example/app/',
    '/app/../api/log_out',
    '/app/documents/../login',
    '/app/%2e%2e/app/auth',
    '',
    null,
  ])('goes to the documents for %j', (url) => {
    expect(safeReturnUrl(url)).toBe('/app/documents');
  });

  it.each([
    ['/app/document/d1?tab=details', '/app/document/d1?tab=details'],
    ['/app/documents/../settings', '/app/settings'],
    ['/app/./signflow/new/d1#top', '/app/signflow/new/d1#top'],
  ])('follows %j as %j', (url, expected) => {
    expect(safeReturnUrl(url)).toBe(expected);
  });

  it('puts only the resolved path into the sign-in link', () => {
    const href = signInHref('/app/..//evil.example');
    const returnTo = new URLSearchParams(href.split('?')[1]).get('return_to');
    expect(returnTo).toBe('/app/auth?returnUrl=%2Fapp%2Fdocuments');
  });
});
