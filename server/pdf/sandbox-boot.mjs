// The PDF sandbox's entry. pdfjs (with the stream limit injected: stream-limit.ts), pdf-lib and the canvas
// are imported before the TypeScript loader is registered: tsx would otherwise transform their megabytes
// of JavaScript at every start, which costs seconds and a couple of hundred megabytes that count against
// the sandbox's memory cap. The TypeScript modules then find them in the module cache. Node 22.18 and later
// run the TypeScript themselves (server/start.mjs) and need no loader.
const { PARAPH_SANDBOX_WORKER: workerUrl, PARAPH_SANDBOX_LOADER: loaderUrl } = process.env;
if (!workerUrl || !loaderUrl) throw new Error('The PDF sandbox is started by server/pdf/sandbox.ts only');
await import('./pdfjs-node20.mjs');
await import('pdfjs-dist/legacy/build/pdf.mjs');
await import(workerUrl);
await import('pdf-lib');
await import('@napi-rs/canvas');
if (!process.features.typescript) await import(loaderUrl);
await import('./sandbox-child.ts');
