import { parse } from '@formatjs/icu-messageformat-parser';
import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { defineConfig, loadEnv, minify, type Plugin } from 'vite';
import { buildQuickGuides } from './scripts/quick-guides';

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

const ICON_ATOMS = 'node_modules/@fluentui/react-icons/lib/atoms/svg';

/** ArrowUpload20Regular -> 'arrow-upload', when that per-icon module exists and exports it. */
function iconAtomOf(name: string, read: (file: string) => string | null): string | null {
  const base = name.replace(/\d*(Regular|Filled|Color|Light)$/, '');
  if (base === name || base === '') return null;
  const atom = base.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const source = read(`${ICON_ATOMS}/${atom}.js`);
  return source?.includes(`export const ${name} `) ? atom : null;
}

/**
 * The app's icons come from @fluentui/react-icons' per-icon modules ('@fluentui/react-icons/svg/<name>')
 * in the build. Through the package's index, an icon lives in a shared module with hundreds of others,
 * and the one chunk that module lands in keeps every icon any screen uses: the first screen's chunk
 * carried some forty icons of screens it never shows. Imports it cannot map are left as they are.
 */
function iconAtoms(): Plugin {
  const sources = new Map<string, string | null>();
  const read = (file: string) => {
    if (!sources.has(file)) sources.set(file, existsSync(file) ? readFileSync(file, 'utf8') : null);
    return sources.get(file) ?? null;
  };
  return {
    name: 'paraph:icon-atoms',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes("'@fluentui/react-icons'")) return null;
      const rewritten = code.replace(
        /import\s*\{([^}]*)\}\s*from\s*'@fluentui\/react-icons';/g,
        (whole, list: string) => {
          const names = list
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== '');
          const atoms = names.map((name) => [name, /^\w+$/.test(name) ? iconAtomOf(name, read) : null]);
          if (atoms.some(([, atom]) => atom === null)) return whole;
          // One line, so the lines below keep their numbers for the source map.
          return atoms
            .map(([name, atom]) => `import { ${name} } from '@fluentui/react-icons/svg/${atom}';`)
            .join(' ');
        },
      );
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

// The document screen's code (route-modules.ts loadDocumentScreen) and pdfjs's (pdf-viewer-loader.ts).
// Both are dynamic imports, so the page does not name them: the bundle would first have to arrive and
// run before asking for them, then for pdfjs, one after the other.
const DOCUMENT_SCREEN_MODULES = [
  'src/views/document/document-page.tsx',
  'src/app/compose-document.ts',
  'src/app/compose-details.ts',
];
const PDF_VIEWER_MODULES = ['src/pdf/pdf-engine.ts'];
// The list (routes.tsx DocumentList) and the sign screen (route-modules.ts loadSignScreen): with the
// document screen, what cold links open most.
const LIST_SCREEN_MODULES = ['src/views/documents/document-list.tsx'];
const SIGN_SCREEN_MODULES = ['src/views/sign/sign-screen.tsx', 'src/app/compose-signing.ts'];

/**
 * One chunk for each screen a cold link opens most, holding the screen and all it imports beyond the
 * start chunk, instead of the twenty to thirty chunks of a few KB that automatic splitting made of them
 * (one per set of screens sharing a module). Over HTTP/1.1 a browser fetches six files at a time, so
 * those came in waves of round trips. In this order, each chunk holds what the ones before it do not:
 * the list's chunk holds the Fluent components most screens share, the document screen's what it adds,
 * and the sign screen's what it adds to both. A later screen loads the earlier chunks (the sign screen
 * about 12 KB gzipped of the document screen's code it does not run); bench/bundle reports the sizes.
 */
const SCREEN_CHUNKS: { name: string; modules: string[] }[] = [
  { name: 'list-screen', modules: LIST_SCREEN_MODULES },
  { name: 'document-screen', modules: DOCUMENT_SCREEN_MODULES },
  { name: 'sign-screen', modules: SIGN_SCREEN_MODULES },
];

/** Whether a bundler module id is the project's file `module` ('src/...'), on any platform. */
function isModuleId(id: string | null | undefined, module: string): boolean {
  return id?.replaceAll('\\', '/').endsWith(`/${module}`) === true;
}

type BundleChunk = {
  type: 'chunk';
  fileName: string;
  facadeModuleId?: string | null;
  imports: string[];
  isEntry: boolean;
  moduleIds: string[];
};

function chunksOf(bundle: Record<string, unknown>): BundleChunk[] {
  return Object.values(bundle).filter(
    (output): output is BundleChunk => (output as { type?: unknown }).type === 'chunk',
  );
}

/**
 * The files a set of dynamically imported modules needs beyond what the page already loads: their
 * chunks and everything those import, less the entry's own static graph (already modulepreloaded).
 */
function chunkFilesFor(bundle: Record<string, unknown>, modules: string[]): string[] {
  const chunks = chunksOf(bundle);
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const reach = (start: BundleChunk[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (chunk: BundleChunk | undefined) => {
      if (chunk === undefined || seen.has(chunk.fileName)) return;
      seen.add(chunk.fileName);
      for (const imported of chunk.imports) visit(byFile.get(imported));
    };
    start.forEach(visit);
    return seen;
  };
  const loadedByThePage = reach(chunks.filter((chunk) => chunk.isEntry));
  const facades = modules.map((module) => {
    // A screen's module is its chunk's facade, or one module of a screen chunk (SCREEN_CHUNKS).
    const facade =
      chunks.find((chunk) => isModuleId(chunk.facadeModuleId, module)) ??
      chunks.find((chunk) => chunk.moduleIds.some((id) => isModuleId(id, module)));
    if (facade === undefined) throw new Error(`paraph:early-start: no chunk for ${module}`);
    return facade;
  });
  return [...reach(facades)].filter((file) => !loadedByThePage.has(file)).map((file) => `${BASE}${file}`);
}

/**
 * Any page opened cold asks for its language's catalog (and on a dark page the dark theme's tokens) from
 * src/app/early-start-script.js, before the app's
 * bundle has arrived, and a document link starts more there: the API reads, pdfjs's worker, and the
 * document screen's and viewer's code (as modulepreload, fetched and compiled beside the bundle). Their file names carry content hashes, so the build writes
 * them into the page for that script to read.
 */
function earlyStart(): Plugin {
  let script = '';
  return {
    name: 'paraph:early-start',
    apply: 'build',
    async buildStart() {
      const file = 'src/app/early-start-script.js';
      this.addWatchFile(file);
      const minified = await minify('early-start.js', await readFile(file, 'utf8'), {
        compress: true,
        mangle: true,
      });
      if (minified.errors.length > 0) throw new Error(`paraph:early-start: ${minified.errors[0]?.message}`);
      if (/<\/script|<!--/i.test(minified.code)) throw new Error('paraph:early-start: cannot be inlined');
      script = minified.code;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle ?? {};
        const worker = Object.keys(bundle).find((file) => /(^|\/)pdf\.worker\.min-[^/]+\.mjs$/.test(file));
        if (worker === undefined) throw new Error('paraph:early-start: no pdfjs worker in the bundle');
        const screen = chunkFilesFor(bundle, DOCUMENT_SCREEN_MODULES);
        const viewer = chunkFilesFor(bundle, PDF_VIEWER_MODULES).filter((file) => !screen.includes(file));
        const darkTheme = chunkFilesFor(bundle, ['src/services/dark-theme.ts']);
        const list = chunkFilesFor(bundle, LIST_SCREEN_MODULES);
        const sign = chunkFilesFor(bundle, SIGN_SCREEN_MODULES);
        const catalogs = (['en', 'es', 'fr'] as const).map(
          (locale) => `${locale}=${chunkFilesFor(bundle, [`src/i18n/${locale}.json`]).join(',')}`,
        );
        const meta = (name: string, content: string) => `<meta name="${name}" content="${content}">`;
        // The page's own style sheet (global.css, under 1 KB) goes into the page: as a file it cost the first
        // paint a round trip of its own.
        const styleSheet = /<link rel="stylesheet"[^>]*href="\/app\/(assets\/[^"]+\.css)"[^>]*>/.exec(html);
        const css = styleSheet ? bundle[styleSheet[1] ?? ''] : undefined;
        if (styleSheet === null || css?.type !== 'asset')
          throw new Error('paraph:early-start: no style sheet');
        const cssText = String(css.source);
        if (/<\/style/i.test(cssText))
          throw new Error('paraph:early-start: the style sheet cannot be inlined');
        const block = [
          meta('paraph-pdf-worker', `${BASE}${worker}`),
          meta('paraph-document-chunks', screen.join(' ')),
          meta('paraph-pdf-chunks', viewer.join(' ')),
          meta('paraph-catalogs', catalogs.join(' ')),
          meta('paraph-dark-theme', darkTheme.join(' ')),
          meta('paraph-list-chunks', list.join(' ')),
          meta('paraph-sign-chunks', sign.join(' ')),
          `<style>${cssText.trim()}</style>`,
          // In the page, not a file of its own: a blocking script file cost the first paint a round trip.
          // It must run before the first paint (it paints the page's theme: no light flash on a dark page).
          // The server allows it by its hash in the page's Content-Security-Policy (server/pages/spa.ts).
          `<script>${script}</script>`,
        ].join('\n    ');
        // After the title, so that the charset stays within the first 1024 bytes; before the bundle's
        // script, so that its reads start before the bundle is even parsed.
        return html
          .replace(styleSheet[0], '')
          .replace(/<script type="module"/, (tag) => `${block}\n    ${tag}`);
      },
    },
  };
}

/**
 * The sidebar's quick-guide PDFs (scripts/quick-guides.ts), made afresh by every build and emitted as
 * dist/help/quick-guide-{en,es,fr}.pdf: fixed names, since the file name is the link. The dev server
 * makes them on first request. They are never committed.
 */
function quickGuides(): Plugin {
  let guides: Promise<Map<string, Uint8Array>> | null = null;
  const made = () => (guides ??= buildQuickGuides());
  let isBuild = false;
  return {
    name: 'paraph:quick-guides',
    configResolved(config) {
      isBuild = config.command === 'build';
    },
    async buildStart() {
      if (!isBuild) return;
      for (const [fileName, source] of await buildQuickGuides()) {
        this.emitFile({ type: 'asset', fileName, source });
      }
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const fileName = /^\/(?:app\/)?(help\/quick-guide-(?:en|es|fr)\.pdf)(?:\?.*)?$/.exec(
          req.url ?? '',
        )?.[1];
        if (fileName === undefined) return next();
        made().then(
          (files) => {
            res.setHeader('content-type', 'application/pdf');
            res.setHeader('cache-control', 'no-cache');
            res.end(files.get(fileName));
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}

export default defineConfig(({ command, mode }) => ({
  base: BASE,
  plugins: [react(), iconAtoms(), precompiledCatalogs(), earlyStart(), quickGuides()],
  resolve: {
    alias:
      command === 'build'
        ? [
            {
              find: /^@formatjs\/icu-messageformat-parser$/,
              replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
            },
            // Left-to-right languages only: src/app/ltr-only-rtl-css-js.ts says why, and when to drop it.
            { find: /^rtl-css-js\/core$/, replacement: '/src/app/ltr-only-rtl-css-js.ts' },
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
          groups: [
            ...LAZY_VENDOR_CHUNKS.map((chunk) => ({ name: chunk.name, test: chunk.test })),
            { name: 'start', tags: ['$initial'] },
            // The screen's own modules are captured, and with them (includeDependenciesRecursively) all they import.
            ...SCREEN_CHUNKS.map((chunk) => ({
              name: chunk.name,
              test: (id: string) => chunk.modules.some((module) => isModuleId(id, module)),
            })),
          ],
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
