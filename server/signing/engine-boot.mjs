// The sign engine's entry (started by server/signing/engine.ts). pdf-lib and fontkit are imported before
// the TypeScript loader is registered, so that tsx does not transform their JavaScript at every start; the
// TypeScript modules then find them in the module cache.
const { PARAPH_SANDBOX_LOADER: loaderUrl } = process.env;
if (!loaderUrl) throw new Error('The sign engine is started by server/signing/engine.ts only');
await import('pdf-lib');
await import('@pdf-lib/fontkit');
await import(loaderUrl);
await import('./engine-child.ts');
