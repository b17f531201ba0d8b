// Serves the built app under /app/: hashed assets with a long cache (compressed when the browser takes it),
// and index.html (never cached) for every other path so the app's router can take over.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from './html.ts';

const LONG_CACHE = 'public, max-age=31536000, immutable';
const SHORT_CACHE = 'public, max-age=3600';

// Text assets worth compressing; PDFs, images and fonts are compressed already.
const COMPRESSIBLE: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};
const MIN_COMPRESSED_BYTES = 1024;

type Encoding = 'br' | 'gzip';
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

// Brotli at 9 is within a few per cent of 11 for these files at a fortieth of the time (pdf.js's worker:
// 0.14 s against 5 s), so the first request of an asset is not held up for seconds.
function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } })
    : gzip(body, { level: 9 });
}

/** br when the browser takes it, else gzip, else nothing: the Accept-Encoding tokens, q=0 refusing one. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | null {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, quality]) => !/^\s*q=0(\.0*)?\s*$/.test(quality ?? ''))
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

// Hashed assets never change under their name, so each is compressed once per encoding and kept: a few MB
// of memory for the whole app. A real deployment puts a CDN in front that does the same.
const compressedAssets = new Map<string, Promise<Buffer>>();

function compressedAsset(file: string, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}:${file}`;
  let compressed = compressedAssets.get(key);
  if (!compressed) {
    compressed = fs.readFile(file).then((body) => compress(body, encoding));
    // A failed read is not kept: the next request tries again.
    compressed.catch(() => compressedAssets.delete(key));
    compressedAssets.set(key, compressed);
  }
  return compressed;
}

/** The size of a regular file, or null when there is none. */
async function fileSize(file: string): Promise<number | null> {
  try {
    const info = await fs.stat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

export type SpaSettings = {
  // Read by the app from its page at run time (src/services/geolocation.ts), so one build serves any setup.
  geocoderUrl: string;
  // The sidebar's support addresses (src/services/help.ts picks one by the profile's country).
  supportEmailUk: string;
  supportEmailNl: string;
  // The login's no-product notice links here (src/services/products.ts).
  productsUrl: string;
  // The Content-Security-Policy that lets the page's own inline scripts run, given their hashes.
  contentSecurityPolicy: (scriptHashes: readonly string[]) => string;
};

/**
 * The CSP hashes ('sha256-<base64>') of the page's inline scripts: the start-up script the build puts in
 * the page (vite.config.ts, earlyStart). Only the page's own file is read, never anything a request sent.
 */
export function inlineScriptHashes(html: string): string[] {
  return inlineScripts(html).map(
    (body) => `sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}`,
  );
}

/** The bodies of the page's inline classic scripts (`<script>` with no attributes). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => body ?? '');
}

// The page with the server's run-time settings in meta tags, right after <head>.
function withSettings(html: string, settings: SpaSettings): string {
  const meta = [
    `<meta name="paraph:geocoder-url" content="${escapeHtml(settings.geocoderUrl)}" />`,
    `<meta name="paraph:support-email-uk" content="${escapeHtml(settings.supportEmailUk)}" />`,
    `<meta name="paraph:support-email-nl" content="${escapeHtml(settings.supportEmailNl)}" />`,
    `<meta name="paraph:products-url" content="${escapeHtml(settings.productsUrl)}" />`,
  ].join('\n    ');
  return html.replace(/<head>/i, (head) => `${head}\n    ${meta}`);
}

export async function registerSpa(
  app: FastifyInstance,
  appDir: string,
  settings: SpaSettings,
): Promise<void> {
  const root = path.resolve(appDir);
  // serve: false and no root: only reply.sendFile is wanted, with the root given on each call, so a
  // missing dist/ (not built yet) is answered below instead of failing start-up.
  await app.register(fastifyStatic, { serve: false, dotfiles: 'ignore' });

  app.get('/', async (_req, reply) => reply.redirect('/app/', 302));
  app.get('/app', async (_req, reply) => reply.redirect('/app/', 302));

  app.get('/app/*', async (req: FastifyRequest, reply: FastifyReply) => {
    if ((await fileSize(path.join(root, 'index.html'))) === null) {
      return reply
        .status(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('Run npm run build first');
    }
    const wanted = (req.params as { '*'?: string })['*'] ?? '';
    const resolved = path.resolve(root, wanted);
    const insideRoot = resolved.startsWith(root + path.sep);
    const isDotPath = wanted.split('/').some((segment) => segment.startsWith('.'));
    const isAssetPath = wanted !== '' && wanted !== 'index.html' && insideRoot && !isDotPath;
    const size = isAssetPath ? await fileSize(resolved) : null;
    if (size !== null) {
      const relative = path.relative(root, resolved);
      const isHashedAsset = relative.startsWith(`assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? LONG_CACHE : SHORT_CACHE);
      const contentType = COMPRESSIBLE[path.extname(relative)];
      const encoding = pickEncoding(req.headers['accept-encoding']);
      if (isHashedAsset && contentType) {
        reply.header('vary', 'accept-encoding');
        if (encoding && size >= MIN_COMPRESSED_BYTES) {
          const body = await compressedAsset(resolved, encoding);
          return reply.header('content-encoding', encoding).type(contentType).send(body);
        }
      }
      return reply.sendFile(relative, root, { cacheControl: false });
    }
    reply.header('cache-control', 'no-store');
    const html = await fs.readFile(path.join(root, 'index.html'), 'utf8');
    reply.header('content-security-policy', settings.contentSecurityPolicy(inlineScriptHashes(html)));
    return reply.type('text/html; charset=utf-8').send(withSettings(html, settings));
  });
}
