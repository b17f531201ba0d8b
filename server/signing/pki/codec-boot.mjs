// The codec thread's entry (started by codec.ts). A worker thread does not get the TypeScript loader the
// process runs under (node 20 registers loader hooks per thread): tsx's API loads the TypeScript entry.
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.entry, import.meta.url);
