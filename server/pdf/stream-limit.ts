// pdfjs decodes every filtered stream (Flate, LZW, run-length, ASCII85...) into a buffer that
// DecodeStream.ensureBuffer grows on demand; a 4 MB file can ask it for gigabytes. pdfjs has no option to
// bound it, so the sandbox loads a copy of the worker module with a check injected at that method. The
// anchor is exact text of the pinned pdfjs-dist: if an upgrade changes it, the patch throws instead of
// silently rendering without the limit.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

export const PDFJS_WORKER_PATH = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');

const ANCHOR = `  ensureBuffer(requested) {
    const buffer = this.buffer;
    if (requested <= buffer.byteLength) {`;

// The hook the injected line calls; set by the sandbox before pdfjs decodes anything.
export const STREAM_LIMIT_HOOK = '__paraphStreamLimit';

export type StreamLimitHook = (requested: number) => void;

export function injectStreamLimit(source: string): string {
  const at = source.indexOf(ANCHOR);
  if (at === -1 || source.indexOf(ANCHOR, at + 1) !== -1) {
    throw new Error(
      'pdfjs-dist changed: DecodeStream.ensureBuffer was not found once in pdf.worker.mjs, so the stream ' +
        'inflation limit cannot be applied. Update server/pdf/stream-limit.ts for this pdfjs version.',
    );
  }
  const [head] = ANCHOR.split('\n');
  const check = `    globalThis.${STREAM_LIMIT_HOOK}(requested);`;
  return `${source.slice(0, at)}${head}\n${check}\n${source.slice(at + (head?.length ?? 0) + 1)}`;
}

export function patchedWorkerSource(): string {
  return injectStreamLimit(fs.readFileSync(PDFJS_WORKER_PATH, 'utf8'));
}

let patchedUrl: string | null = null;

// The patched module as a file the sandbox imports. Named by its content, so processes share it and a
// changed pdfjs never finds a stale copy; written beside and renamed, so a reader never sees half of it.
export function patchedWorkerUrl(): string {
  if (patchedUrl !== null) return patchedUrl;
  const source = patchedWorkerSource();
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const file = path.join(os.tmpdir(), `paraph-pdf-worker-${digest}.mjs`);
  if (!fs.existsSync(file)) {
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, source);
    fs.renameSync(partial, file);
  }
  patchedUrl = pathToFileURL(file).href;
  return patchedUrl;
}

// Called when the server starts, so a pdfjs upgrade that moved the anchor stops the start, not a render.
export function assertStreamLimitApplies(): void {
  patchedWorkerUrl();
}
