// The codec thread's entry (started by codec.ts). Node 22.18 and later run the TypeScript entry themselves
// (server/start.mjs). On Node 20 a worker thread does not get the TypeScript loader the process runs under
// (loader hooks are registered per thread): tsx's API loads it.
import { workerData } from 'node:worker_threads';

if (process.features.typescript) {
  await import(workerData.entry);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(workerData.entry, import.meta.url);
}
