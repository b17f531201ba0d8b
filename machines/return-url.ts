// Where the app may send someone after sign-in or a timeout: only a path inside the app, judged after it
// is resolved the way a browser resolves it, so "/app/..//evil.example" (which a browser reads as
// "//evil.example", another host) cannot lead off-site. The session machine and the browser's navigation
// both use this one rule.
export const DEFAULT_RETURN_URL = '/app/documents';

const APP_PREFIX = '/app/';
const PROBE_ORIGIN = 'http://paraph.invalid';

// The path a browser would go to, dot-segments ("..", "%2e%2e") resolved; null if it leaves this origin
// or reads as another host ("//host", "/\\host").
function resolvedPath(url: string): string | null {
  let resolved: URL;
  try {
    resolved = new URL(url, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (resolved.origin !== PROBE_ORIGIN) return null;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  return path.startsWith('//') || path.startsWith('/\\') ? null : path;
}

// The URL parser drops tabs and newlines and reads "\" as "/": such a URL is refused rather than guessed.
function hasControlOrBackslash(url: string): boolean {
  for (const char of url) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === '\\') return true;
  }
  return false;
}

/**
 * The path a browser would follow for `url`, resolved, when it is a path on this origin; null for
 * anything else (another origin, "//host", control characters, backslashes, over 2048 characters). The
 * server's sign-in and log-out redirects use it too.
 */
export function sameOriginPath(url: string): string | null {
  if (url.length === 0 || url.length > 2048 || !url.startsWith('/') || hasControlOrBackslash(url))
    return null;
  const path = resolvedPath(url);
  // Resolving again must change nothing, so whoever follows the answer reads the same path.
  return path === null || resolvedPath(path) !== path ? null : path;
}

/** The resolved path when it stays inside the app (and is not the sign-in loop itself), else the documents. */
export function safeReturnUrl(url: string | null | undefined): string {
  const path = url ? sameOriginPath(url) : null;
  if (path === null || !path.startsWith(APP_PREFIX)) return DEFAULT_RETURN_URL;
  if (path.startsWith('/app/login') || path.startsWith('/app/auth')) return DEFAULT_RETURN_URL;
  return path;
}
