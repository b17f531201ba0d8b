// Serves the built app under /app/: hashed assets with a long cache, and index.html (never cached) for
// every other path so the app's router can take over.
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from './html.ts';

const LONG_CACHE = 'public, max-age=31536000, immutable';
const SHORT_CACHE = 'public, max-age=3600';

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

export type SpaSettings = {
  // Read by the app from its page at run time (src/services/geolocation.ts), so one build serves any setup.
  geocoderUrl: string;
  // The sidebar's support addresses (src/services/help.ts picks one by the profile's country).
  supportEmailUk: string;
  supportEmailNl: string;
};

// The page with the server's run-time settings in meta tags, right after <head>.
function withSettings(html: string, settings: SpaSettings): string {
  const meta = [
    `<meta name="paraph:geocoder-url" content="${escapeHtml(settings.geocoderUrl)}" />`,
    `<meta name="paraph:support-email-uk" content="${escapeHtml(settings.supportEmailUk)}" />`,
    `<meta name="paraph:support-email-nl" content="${escapeHtml(settings.supportEmailNl)}" />`,
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
    if (!(await isFile(path.join(root, 'index.html')))) {
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
    if (wanted !== '' && wanted !== 'index.html' && insideRoot && !isDotPath && (await isFile(resolved))) {
      const relative = path.relative(root, resolved);
      const isHashedAsset = relative.startsWith(`assets${path.sep}`);
      reply.header('cache-control', isHashedAsset ? LONG_CACHE : SHORT_CACHE);
      return reply.sendFile(relative, root, { cacheControl: false });
    }
    reply.header('cache-control', 'no-store');
    const html = await fs.readFile(path.join(root, 'index.html'), 'utf8');
    return reply.type('text/html; charset=utf-8').send(withSettings(html, settings));
  });
}
