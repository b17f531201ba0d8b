import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';

// npm run dev starts the server on PORT (default 8080); the dev server proxies to it.
const API_ORIGIN = `http://localhost:${process.env.PORT ?? '8080'}`;

// pdfjs-dist and konva are only reached through dynamic imports; naming their chunks keeps them
// out of the entry chunk even if a shared module starts importing them by accident (bench/bundle checks it).
// The worker's `?url` import is only its address (the start-up preload boots the worker with it), so it
// must not pull the whole pdfjs chunk in with it.
const LAZY_VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: 'pdfjs', test: /[\\/]node_modules[\\/]pdfjs-dist[\\/](?!.*\?url$)/ },
  { name: 'konva', test: /[\\/]node_modules[\\/]konva[\\/]/ },
];

const CATALOG = /[\\/]src[\\/]i18n[\\/](en|es|fr)\.json$/;

/**
 * The production build ships the catalogs already parsed, so the ICU parser (about 8 KB gzipped)
 * stays out of the bundle: react-intl formats parsed messages with the parser aliased away.
 * Dev and tests keep plain strings. A message that fails to parse fails the build.
 */
function precompiledCatalogs(): Plugin {
  return {
    name: 'paraph:precompiled-catalogs',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!CATALOG.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const parsed = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => [key, parse(message)]),
      );
      return { code: JSON.stringify(parsed), map: null };
    },
  };
}

const BASE = '/app/';

/**
 * A document link opened cold starts pdfjs's worker from public/early-start.js, before the app's
 * bundle has arrived. The worker's file name carries a content hash, so the build writes it into the
 * page for that script to read.
 */
function earlyPdfWorker(): Plugin {
  return {
    name: 'paraph:early-pdf-worker',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const worker = Object.keys(context.bundle ?? {}).find((file) =>
          /(^|\/)pdf\.worker\.min-[^/]+\.mjs$/.test(file),
        );
        if (worker === undefined) throw new Error('paraph:early-pdf-worker: no pdfjs worker in the bundle');
        return [
          {
            tag: 'meta',
            attrs: { name: 'paraph-pdf-worker', content: `${BASE}${worker}` },
            injectTo: 'head-prepend',
          },
          { tag: 'script', attrs: { src: `${BASE}early-start.js`, async: true }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}

export default defineConfig(({ command, mode }) => ({
  base: BASE,
  plugins: [react(), precompiledCatalogs(), earlyPdfWorker()],
  resolve: {
    alias:
      command === 'build'
        ? [
            {
              find: /^@formatjs\/icu-messageformat-parser$/,
              replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
            },
          ]
        : [],
  },
  define: {
    // A build made with VITE_XSTATE_INSPECT=true reports every actor to the Stately inspector.
    'import.meta.env.VITE_XSTATE_INSPECT': JSON.stringify(
      loadEnv(mode, process.cwd(), 'VITE_').VITE_XSTATE_INSPECT ?? 'false',
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: LAZY_VENDOR_CHUNKS.map((chunk) => ({ name: chunk.name, test: chunk.test })),
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': API_ORIGIN,
      '/sign_in': API_ORIGIN,
      '/storage': API_ORIGIN,
      '/idp': API_ORIGIN,
    },
  },
}));
