// Security headers on every answer, whatever produced it (API, pages, static files, errors).
import type { FastifyInstance } from 'fastify';
import { isHttpsOrigin } from '../auth/cookies.ts';
import type { Config } from '../config.ts';

// The sign screen's locate-me button asks for the position from the page itself; nothing else Paraph
// does needs a device or a payment, so no page (or frame, or injected script) may ask for one.
export const PERMISSIONS_POLICY = [
  'geolocation=(self)',
  'camera=()',
  'microphone=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
].join(', ');

// A year, as browsers' preload lists ask. Only for an https public origin: a local http server must not
// tell the browser to refuse http on localhost.
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

// Origins the browser must reach besides this one: only the S3 endpoint, for page images, pdfjs fetches,
// the download frame and the presigned upload POST.
export function storageOrigins(config: Config): string[] {
  const s3 = config.s3;
  if (s3 === null) return [];
  if (s3.endpoint !== null) {
    try {
      return [new URL(s3.endpoint).origin];
    } catch {
      return [];
    }
  }
  return [`https://${s3.bucket}.s3.${s3.region}.amazonaws.com`, `https://s3.${s3.region}.amazonaws.com`];
}

// `scriptHashes`: the inline scripts of the page being answered ('sha256-…'), the only ones allowed to run.
export function contentSecurityPolicy(config: Config, scriptHashes: readonly string[] = []): string {
  const extra = storageOrigins(config);
  const withStorage = (sources: string[]): string => [...sources, ...extra].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes.map((hash) => `'${hash}'`)].join(' '),
    // Fluent UI's Griffel inserts style rules at runtime.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${withStorage(["'self'", 'data:', 'blob:'])}`,
    "font-src 'self' data:",
    // The sign screen's locate-me button asks the geocoder from the browser.
    `connect-src ${withStorage(["'self'"])} ${config.geocoderOrigin}`,
    "worker-src 'self' blob:",
    `frame-src ${withStorage(["'self'"])}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const csp = contentSecurityPolicy(config);
  app.addHook('onSend', async (req, reply, payload) => {
    // The app's page sets its own, which also allows its inline start-up script (server/pages/spa.ts).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (isHttpsOrigin(config)) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    if (req.url === '/api' || req.url.startsWith('/api/') || req.url.startsWith('/api?')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
