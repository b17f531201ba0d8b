// The PDF sandbox's process (started by sandbox.ts with child_process.fork, through sandbox-boot.mjs): parses uploads and renders
// pages, one request at a time, so that a hostile PDF can cost this process its memory or its time but
// never the API's. It holds no secrets: its environment carries only its limits.
import type { PDFDocumentLoadingTask, PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PdfSandboxLimits } from '../config.ts';
import { inspectPdfBytes } from './inspect-bytes.ts';
import { loadPdfjs, openPdf, renderPage } from './render-pages.ts';
import type { SandboxReply, SandboxRequest } from './sandbox-protocol.ts';
import { STREAM_LIMIT_HOOK, type StreamLimitHook } from './stream-limit.ts';

const limits = JSON.parse(process.env.PARAPH_SANDBOX_LIMITS ?? '{}') as PdfSandboxLimits;

// pdfjs swallows many errors inside a page's operators and draws the rest, so the limit is also
// remembered here: a page during which it fired is reported as failed, whatever pdfjs made of it.
let streamLimitHit = false;
const streamLimit: StreamLimitHook = (requested) => {
  if (requested > limits.maxStreamBytes) {
    streamLimitHit = true;
    throw new Error(`A stream inflates to more than ${limits.maxStreamBytes} bytes`);
  }
};
(globalThis as Record<string, unknown>)[STREAM_LIMIT_HOOK] = streamLimit;

let loading: PDFDocumentLoadingTask | null = null;
let document: PDFDocumentProxy | null = null;

function send(reply: SandboxReply): void {
  process.send?.(reply);
}

function describe(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
}

async function close(): Promise<void> {
  const task = loading;
  loading = null;
  document = null;
  await task?.destroy();
}

async function handle(request: SandboxRequest): Promise<SandboxReply> {
  streamLimitHit = false;
  try {
    switch (request.type) {
      case 'inspect':
        return { type: 'result', id: request.id, value: await inspectPdfBytes(request.bytes) };
      case 'open': {
        await close();
        // pdfjs refuses a Buffer (which is what arrives), and may detach what it is given.
        loading = await openPdf(
          new Uint8Array(request.bytes.buffer, request.bytes.byteOffset, request.bytes.length),
        );
        document = await loading.promise;
        if (streamLimitHit) throw new Error('stream limit');
        return { type: 'result', id: request.id, value: { numPages: document.numPages } };
      }
      case 'verify': {
        // Loaded on the first verification only: inspection and page images never need it.
        const { verifyPdf } = await import('../verification/verify-pdf.ts');
        const value = await verifyPdf(request.bytes, {
          anchors: request.anchors,
          currentCrls: request.currentCrls,
          now: new Date(request.now),
        });
        return { type: 'result', id: request.id, value };
      }
      case 'render': {
        if (document === null) throw new Error('No document is open');
        const page = await renderPage(document, request.pageNumber);
        if (streamLimitHit) throw new Error('stream limit');
        return {
          type: 'result',
          id: request.id,
          value: { png: new Uint8Array(page.png), width: page.width, height: page.height },
        };
      }
    }
  } catch (error) {
    return {
      type: 'failed',
      id: request.id,
      reason: streamLimitHit ? 'stream_limit' : 'error',
      message: streamLimitHit
        ? `A stream inflates to more than ${limits.maxStreamBytes} bytes`
        : describe(error),
    };
  }
}

// The parent sends one request at a time and waits for its answer.
process.on('message', (request: SandboxRequest) => {
  void handle(request).then(send);
});
// The parent is gone (or closed the channel): nothing is left to do.
process.on('disconnect', () => process.exit(0));
// pdfjs rejects promises nobody awaits when a page is broken; they must not end the process.
process.on('unhandledRejection', (error) => {
  process.stderr.write(`pdf sandbox: ${describe(error)}\n`);
});

// Already imported by the boot script, before the TypeScript loader; this only takes the cached modules.
loadPdfjs(process.env.PARAPH_SANDBOX_WORKER).then(
  () => send({ type: 'ready' }),
  (error: unknown) => {
    process.stderr.write(`pdf sandbox could not start: ${describe(error)}\n`);
    process.exit(70);
  },
);
