// The sign-in and sign-up forms only accept posts from their own pages, so another site cannot sign a
// visitor in to an account of its choosing (login CSRF) or drive the forms from its own page.
// - Sec-Fetch-Site (every current browser sends it) must not say another site.
// - Origin, when it names one, must be the public origin. The pages send no referrer, and a browser then
//   sends "Origin: null" on their own posts: that is judged by Sec-Fetch-Site alone.
// - A client that sends neither (curl, a test) is not a browser another site can drive.
// On a loopback server (no PARAPH_PUBLIC_ORIGIN), any loopback origin is this machine's: the same server
// is opened as localhost or 127.0.0.1, or through the Vite dev server's proxy on another port.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function headerOf(req: FastifyRequest, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim().toLowerCase() : null;
}

function isOwnOrigin(value: string, config: Pick<Config, 'publicOrigin' | 'isPublicOriginDerived'>): boolean {
  if (value === config.publicOrigin.toLowerCase()) return true;
  if (!config.isPublicOriginDerived) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && LOOPBACK_HOSTNAMES.has(url.hostname);
  } catch {
    return false;
  }
}

export function isCrossSitePost(
  req: FastifyRequest,
  config: Pick<Config, 'publicOrigin' | 'isPublicOriginDerived'>,
): boolean {
  const site = headerOf(req, 'sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = headerOf(req, 'origin');
  if (origin === null) return false;
  if (origin === 'null') return site !== 'same-origin';
  return !isOwnOrigin(origin, config);
}

export function refuseCrossSitePost(reply: FastifyReply): FastifyReply {
  return reply
    .status(403)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(
      'Refused: this form can only be sent from its own page on Paraph. Open the page again and retry.\n',
    );
}
