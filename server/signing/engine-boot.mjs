// The sign engine's entry (started by server/signing/engine.ts). On Node 20, pdf-lib and fontkit are
// imported before the TypeScript loader is registered, so that tsx does not transform their JavaScript at
// every start; the TypeScript modules then find them in the module cache. Node 22.18 and later run the
// TypeScript themselves (server/start.mjs) and need no loader.
const { PARAPH_SANDBOX_LOADER: loaderUrl } = process.env;
if (!loaderUrl) throw new Error('The sign engine is started by server/signing/engine.ts only');
await import('pdf-lib');
await import('@pdf-lib/fontkit');
if (!process.features.typescript) await import(loaderUrl);
await import('./engine-child.ts');
