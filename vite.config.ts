import { parse } from '@formatjs/icu-messageformat-parser';
import { tokens as FLUENT_TOKENS, webDarkTheme, webLightTheme } from '@fluentui/tokens';
import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineConfig, loadEnv, minify, type Plugin } from 'vite';
import { messageIdsIn, splitCatalog } from './scripts/catalog-parts';
import { griffelAot } from './scripts/griffel-aot';
import { buildQuickGuides } from './scripts/quick-guides';
import { LOCALES } from './src/i18n/locale';

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

// A module that imports Fluent's `tokens` by that name (the app's, Fluent's own, the tokens package's).
const TOKENS_IMPORT =
  /import\s*\{[^}]*\btokens\b[^}]*\}\s*from\s*['"](?:@fluentui\/(?:react-theme|react-components)|\.\.\/tokens\.js)['"]/;

/**
 * Fluent's `tokens` is an object of some 470 names, each standing for its CSS variable
 * (`tokens.colorNeutralForeground1` is 'var(--colorNeutralForeground1)'), and every style sheet reads
 * it: the whole object went into the first screen's chunk (about 3 KB gzipped). The build writes each
 * use as the string it stands for, so the object is left out. A name it does not know stays as it is.
 */
function inlineFluentTokens(): Plugin {
  const values = FLUENT_TOKENS as Record<string, string>;
  return {
    name: 'paraph:inline-fluent-tokens',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/](src|node_modules[\\/]@fluentui)[\\/].*\.[jt]sx?$/.test(id) || !TOKENS_IMPORT.test(code)) {
        return null;
      }
      const rewritten = code.replace(/(?<![\w$.])tokens\.([A-Za-z0-9]+)\b/g, (whole, name: string) =>
        Object.hasOwn(values, name) ? JSON.stringify(values[name]) : whole,
      );
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}

// The modules that define the themes' values rather than use them.
const THEME_SOURCES = /[\\/]node_modules[\\/]@fluentui[\\/](tokens|react-theme)[\\/]/;
const THEMES = [
  { module: 'src/services/light-theme.ts', name: 'webLightTheme', theme: webLightTheme },
  { module: 'src/services/dark-theme.ts', name: 'webDarkTheme', theme: webDarkTheme },
];

/**
 * src/services/light-theme.ts and dark-theme.ts re-export Fluent's themes; the build writes each theme's
 * values in their place, so the palettes they are derived from and the deriving code (about 6 KB
 * gzipped) stay out of the start chunk, and no start derives them. Only the tokens that the built code
 * names are written: a theme is a CSS variable per token on the provider's element, and more than half
 * of Fluent's 459 tokens serve components the app does not have (avatars' and badges' palettes,
 * inverted and brand shadows): 1.8 KB gzipped of the start chunk. What counts is every chunk's code as
 * it is written, on-demand chunks included, where Fluent's resolved styles and the app's name each token
 * they use (`var(--colorNeutralForeground1)`) and code reading a theme names its key. A token's name put
 * together from parts would not be seen: no code does that. A style sheet naming a token left out fails
 * the build.
 *
 * Each token's CSS variable is then given a short name in every chunk and style sheet, and the themes'
 * keys with it (`--t2q` for `--colorNeutralForeground1`): the names, some 10 KB of the first screen's
 * code, cost 1.1 KB gzipped. The provider writes a theme's keys as its variables, and nothing reads a
 * theme by key, so the page looks the same; the browser's tools show `var(--t2q)`, and
 * dist/assets/token-variables.json says which token each short name stands for.
 */
function themeValues(): Plugin {
  const allNames = new Set(THEMES.flatMap(({ theme }) => Object.keys(theme)));
  const shortNames = new Map([...allNames].sort().map((name, index) => [name, `t${index.toString(36)}`]));
  const shorten = (text: string) =>
    text.replace(/(?<![\w-])--([A-Za-z][A-Za-z0-9]*)(?![\w-])/g, (whole, name: string) => {
      const short = shortNames.get(name);
      return short === undefined ? whole : `--${short}`;
    });
  const placeholder = (name: string) => `__paraphThemeValues_${name}`;
  let written = new Set<string>();
  return {
    name: 'paraph:theme-values',
    apply: 'build',
    load(id) {
      const theme = THEMES.find(({ module }) => isModuleId(id, module));
      if (theme === undefined) return null;
      // An undeclared global, so that nothing renames it before renderChunk writes the values in.
      return { code: `export const ${theme.name} = ${placeholder(theme.name)};\n`, map: null };
    },
    renderChunk(code, _chunk, _options, { chunks }) {
      let rendered = shorten(code);
      if (THEMES.some(({ name }) => code.includes(placeholder(name)))) {
        // Every chunk's modules as they are written (after tree-shaking), the theme values' own aside.
        const named = new Set<string>();
        for (const chunk of Object.values(chunks)) {
          for (const [id, module] of Object.entries(chunk.modules)) {
            if (THEME_SOURCES.test(id) || THEMES.some(({ module: theme }) => isModuleId(id, theme))) continue;
            for (const [word] of (module.code ?? '').matchAll(/[A-Za-z][A-Za-z0-9]*/g))
              if (allNames.has(word)) named.add(word);
          }
        }
        for (const { name, theme } of THEMES) {
          const values = Object.entries(theme)
            .filter(([token]) => named.has(token))
            .map(([token, value]) => `${shortNames.get(token) ?? token}:${JSON.stringify(value)}`);
          rendered = rendered.replace(placeholder(name), `{${values.join(',')}}`);
        }
        written = new Set([...written, ...named]);
      }
      return rendered === code ? null : { code: rendered, map: null };
    },
    generateBundle(_options, bundle) {
      for (const asset of Object.values(bundle)) {
        if (asset.type !== 'asset' || !asset.fileName.endsWith('.css')) continue;
        for (const [, token] of String(asset.source).matchAll(/--([A-Za-z][A-Za-z0-9]*)/g)) {
          if (token !== undefined && allNames.has(token) && !written.has(token))
            throw new Error(`paraph:theme-values: ${asset.fileName} names --${token}, which no theme has`);
        }
        asset.source = shorten(String(asset.source));
      }
      this.emitFile({
        type: 'asset',
        fileName: 'assets/token-variables.json',
        source: `${JSON.stringify(Object.fromEntries([...shortNames].map(([name, short]) => [`--${short}`, name])), null, 1)}\n`,
      });
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
// The list and the sign screen (route-modules.ts loadListScreen, loadSignScreen): with the document
// screen, what cold links open most.
const LIST_SCREEN_MODULES = ['src/views/documents/document-list.tsx', 'src/app/compose-list.ts'];
const SIGN_SCREEN_MODULES = ['src/views/sign/sign-screen.tsx', 'src/app/compose-signing.ts'];
// What the sign screen shares with the document screen: the pages' images, Fluent's Spinner and
// MessageBar, and two icons. In a chunk of their own, the sign screen does not load the document
// screen's chunk for them (some 12 KB gzipped it would not run). A folder (ending in '/') takes a
// package's every module.
const SHARED_SCREEN_MODULES = [
  'src/views/document/page-images.tsx',
  'src/views/document/pages-unavailable.tsx',
  '@fluentui/react-spinner/',
  '@fluentui/react-message-bar/',
  '@fluentui/react-icons/lib/atoms/svg/signature.js',
  '@fluentui/react-icons/lib/atoms/svg/arrow-left.js',
];

/**
 * One chunk for each screen a cold link opens most, holding the screen and all it imports beyond the
 * start chunk, instead of the twenty to thirty chunks of a few KB that automatic splitting made of them
 * (one per set of screens sharing a module). Over HTTP/1.1 a browser fetches six files at a time, so
 * those came in waves of round trips. In this order, each chunk holds what the ones before it do not:
 * the list's chunk holds the Fluent components most screens share, the document screen's what it adds,
 * and the sign screen's what it adds to both. A later screen loads the earlier chunks it takes modules
 * from (the sign screen: the list's, and the parts it shares with the document screen); bench/bundle
 * reports the sizes.
 */
const SCREEN_CHUNKS: { name: string; modules: string[] }[] = [
  { name: 'list-screen', modules: LIST_SCREEN_MODULES },
  { name: 'screen-parts', modules: SHARED_SCREEN_MODULES },
  { name: 'document-screen', modules: DOCUMENT_SCREEN_MODULES },
  { name: 'sign-screen', modules: SIGN_SCREEN_MODULES },
];

/** Whether a bundler module id is the file `module` ('src/...'), or in the folder `module` ('pkg/'). */
function isModuleId(id: string | null | undefined, module: string): boolean {
  const file = id?.replaceAll('\\', '/');
  if (file === undefined) return false;
  return module.endsWith('/') ? file.includes(`/${module}`) : file.endsWith(`/${module}`);
}

type BundleChunk = {
  type: 'chunk';
  fileName: string;
  code: string;
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
/** The chunks `start` loads: themselves and, one after the other, the chunks they import. */
function reachableChunks(bundle: Record<string, unknown>, start: BundleChunk[]): Set<string> {
  const byFile = new Map(chunksOf(bundle).map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const visit = (chunk: BundleChunk | undefined) => {
    if (chunk === undefined || seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const imported of chunk.imports) visit(byFile.get(imported));
  };
  start.forEach(visit);
  return seen;
}

/** The chunks every page loads: the entry's and what it imports (its static graph). */
function pageChunks(bundle: Record<string, unknown>): Set<string> {
  return reachableChunks(
    bundle,
    chunksOf(bundle).filter((chunk) => chunk.isEntry),
  );
}

/** The files of the chunks holding `modules` and what they import, less what every page loads. */
function chunkFileNamesFor(bundle: Record<string, unknown>, modules: string[]): string[] {
  const chunks = chunksOf(bundle);
  const loadedByThePage = pageChunks(bundle);
  const facades = modules.map((module) => {
    // A screen's module is its chunk's facade, or one module of a screen chunk (SCREEN_CHUNKS).
    const facade =
      chunks.find((chunk) => isModuleId(chunk.facadeModuleId, module)) ??
      chunks.find((chunk) => chunk.moduleIds.some((id) => isModuleId(id, module)));
    if (facade === undefined) throw new Error(`paraph: no chunk for ${module}`);
    return facade;
  });
  return [...reachableChunks(bundle, facades)].filter((file) => !loadedByThePage.has(file));
}

/**
 * The files a set of dynamically imported modules needs beyond what the page already loads: their
 * chunks and everything those import, less the entry's own static graph (already modulepreloaded).
 */
function chunkFilesFor(bundle: Record<string, unknown>, modules: string[]): string[] {
  return chunkFileNamesFor(bundle, modules).map((file) => `${BASE}${file}`);
}

// Modules whose own dynamic imports load no code that shows a message: the catalogs' and the dark
// theme's loaders (the theme is loaded before the first render on a dark page).
const LOADS_NO_MESSAGES = ['src/i18n/messages.ts', 'src/services/theme.ts'];

/** Each language's two catalog files (by locale), once the build has written them. */
type CatalogFiles = Map<string, { first: string; rest: string }>;

/** Calls `visit` on every node of an ESTree program (objects with a string `type`). */
function walkNodes(node: unknown, visit: (node: { type: string; [key: string]: unknown }) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walkNodes(child, visit);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as { type?: unknown; [key: string]: unknown };
  if (typeof record.type === 'string') visit(record as { type: string; [key: string]: unknown });
  for (const value of Object.values(record)) if (typeof value === 'object') walkNodes(value, visit);
}

/**
 * Each language's catalog in two parts (docs/decisions.md "The first screen's bundle"): the messages the
 * first screen's code names (the page's chunks and the list's, read once they are built:
 * scripts/catalog-parts.ts), some 2 KB gzipped, and the rest, some 10 KB. Both are written parsed, so
 * the ICU parser (about 8 KB gzipped) stays out of the bundle: react-intl formats parsed messages with
 * the parser aliased away (dev and tests keep plain strings); a message that fails to parse fails the
 * build. The page names the files (earlyStart); src/i18n/messages.ts loads them, and every dynamic
 * import in src but the list's waits for the second part (withMessages), so code loaded on demand
 * never meets a message that is not there yet.
 */
function catalogParts(files: CatalogFiles): Plugin {
  let root = process.cwd();
  return {
    name: 'paraph:catalog-parts',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes('import(')) return null;
      if (LOADS_NO_MESSAGES.some((module) => isModuleId(id, module))) return null;
      const calls: { start: number; end: number }[] = [];
      walkNodes(this.parse(code), (node) => {
        if (node.type !== 'ImportExpression') return;
        const source = node.source as { type: string; value?: unknown };
        // Packages (the inspector) show no message; relative imports are the app's own code.
        if (source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.'))
          return;
        const target = path
          .relative(root, path.resolve(path.dirname(id), source.value))
          .replaceAll('\\', '/');
        // The list's code names only messages of the first part: it does not wait for the second.
        if (LIST_SCREEN_MODULES.some((module) => module.replace(/\.tsx?$/, '') === target)) return;
        const start = node.start as number;
        const end = node.end as number;
        if (code.slice(start, start + 'import('.length) !== 'import(')
          throw new Error(`paraph:catalog-parts: no import at ${id}:${start}`);
        calls.push({ start, end });
      });
      if (calls.length === 0) return null;
      let rewritten = code;
      for (const { start, end } of calls.sort((a, b) => b.start - a.start)) {
        const call = rewritten.slice(start, end);
        rewritten = `${rewritten.slice(0, start)}__withMessages(${call})${rewritten.slice(end)}`;
      }
      // On the first line, so the lines below keep their numbers for the source map.
      const helper = "import { withMessages as __withMessages } from '/src/i18n/messages.ts'; ";
      return { code: helper + rewritten, map: null };
    },
    generateBundle: {
      order: 'pre',
      async handler(_options, bundle) {
        const firstScreen = new Set([
          ...pageChunks(bundle),
          ...chunkFileNamesFor(bundle, LIST_SCREEN_MODULES),
        ]);
        const code = chunksOf(bundle)
          .filter((chunk) => firstScreen.has(chunk.fileName))
          .map((chunk) => chunk.code)
          .join('\n');
        const catalogs = new Map<string, Record<string, string>>();
        for (const locale of LOCALES) {
          const file = path.join(root, 'src', 'i18n', `${locale}.json`);
          catalogs.set(locale, JSON.parse(await readFile(file, 'utf8')) as Record<string, string>);
        }
        const firstIds = messageIdsIn(code, Object.keys(catalogs.get('en') ?? {}));
        for (const [locale, messages] of catalogs) {
          const parsed = Object.fromEntries(
            Object.entries(messages).map(([id, message]) => [id, parse(message)]),
          );
          const parts = splitCatalog(parsed, firstIds);
          const emit = (part: 'first' | 'rest') =>
            this.getFileName(
              this.emitFile({
                type: 'asset',
                name: `${locale}-${part}.js`,
                source: `export default ${JSON.stringify(parts[part])};\n`,
              }),
            );
          files.set(locale, { first: emit('first'), rest: emit('rest') });
        }
      },
    },
  };
}

/**
 * Any page opened cold asks for its language's catalog (and on a dark page the dark theme's tokens) from
 * src/app/early-start-script.js, before the app's
 * bundle has arrived, and a document link starts more there: the API reads, pdfjs's worker, and the
 * document screen's and viewer's code (as modulepreload, fetched and compiled beside the bundle). Their file names carry content hashes, so the build writes
 * them into the page for that script to read.
 */
function earlyStart(catalogFiles: CatalogFiles): Plugin {
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
        const catalogs = (part: 'first' | 'rest') =>
          LOCALES.map((locale) => {
            const file = catalogFiles.get(locale)?.[part];
            if (file === undefined) throw new Error(`paraph:early-start: no ${part} part of ${locale}`);
            return `${locale}=${BASE}${file}`;
          }).join(' ');
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
          meta('paraph-catalogs', catalogs('first')),
          meta('paraph-catalog-rests', catalogs('rest')),
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

// Left-to-right languages only: src/app/ltr-only-rtl-css-js.ts says why, and when to drop it (with
// griffelAot's leftToRight).
const LTR_ONLY = { find: /^rtl-css-js\/core$/, replacement: '/src/app/ltr-only-rtl-css-js.ts' };

export default defineConfig(({ command, mode }) => {
  const catalogFiles: CatalogFiles = new Map();
  return {
    base: BASE,
    plugins: [
      react(),
      iconAtoms(),
      inlineFluentTokens(),
      themeValues(),
      griffelAot({ aliases: [LTR_ONLY], leftToRight: true, sourcePlugins: [iconAtoms()] }),
      catalogParts(catalogFiles),
      earlyStart(catalogFiles),
      quickGuides(),
    ],
    resolve: {
      alias:
        command === 'build'
          ? [
              {
                find: /^@formatjs\/icu-messageformat-parser$/,
                replacement: '@formatjs/icu-messageformat-parser/no-parser.js',
              },
              LTR_ONLY,
              // React 19 has useSyncExternalStore: @xstate/react's shims for older Reacts would only hand it on.
              {
                find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
                replacement: 'use-sync-external-store/with-selector',
              },
              {
                find: /^use-sync-external-store\/shim(\/index\.js)?$/,
                replacement: 'use-sync-external-store',
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
      // Without the polyfill, a browser without modulepreload (Safari before 17, Firefox before 115)
      // fetches the start chunk's and a screen's files when it imports them instead of beside the page:
      // the same app, loaded later. Every other browser never ran it.
      modulePreload: { polyfill: false },
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
  };
});
