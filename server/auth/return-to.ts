// Redirect targets come from the query string, so only paths on this origin are followed: an attacker's
// link must not turn the sign-in page (or log-out) into a bounce to their site. The target is resolved
// first, as a browser would (dot-segments, "%2e%2e" included), and only the resolved path is judged:
// "/..//evil.example" resolves to the protocol-relative "//evil.example". The rule is the app's own
// (machines/return-url.ts), without its restriction to /app/.
import { sameOriginPath } from '../../machines/return-url.ts';

export function safeReturnTo(value: unknown, fallback: string): string {
  return typeof value === 'string' ? (sameOriginPath(value) ?? fallback) : fallback;
}
