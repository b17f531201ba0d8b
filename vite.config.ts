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
  { name: 'konva', test: /[\\/]node_modules[\\/](react-)?konva[\\/]/ },
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

export default defineConfig(({ command, mode }) => ({
  base: '/app/',
  plugins: [react(), precompiledCatalogs()],
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
