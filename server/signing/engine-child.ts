// The sign engine's process: the PDF work of a signature (loading the document, drawing the stamp,
// writing the incremental updates) happens here, one request at a time, so that a large or hostile file
// costs this process its time and memory but never blocks the API's event loop. It holds no key: the
// parent signs the digest it answers, and sends back only bytes to place.
import { readFile, writeFile } from 'node:fs/promises';
import { appendDss, placeDocumentTimeStamp } from './ltv.ts';
import { placeSignature, prepareForSigning } from './pades.ts';
import {
  INLINE_PDF_BYTES,
  type EngineReply,
  type EngineRequest,
  type PdfBytes,
  type PlaceholderReply,
} from './engine-protocol.ts';
import type { Placeholder } from './increment.ts';

function describe(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function read(pdf: PdfBytes): Promise<Buffer> {
  return 'file' in pdf ? readFile(pdf.file) : asBuffer(pdf.bytes);
}

async function written(pdf: Buffer, output: string): Promise<PdfBytes> {
  if (pdf.length <= INLINE_PDF_BYTES) return { bytes: pdf };
  await writeFile(output, pdf);
  return { file: output };
}

async function placeholder(value: Placeholder, output: string): Promise<PlaceholderReply> {
  return { ...value, pdf: await written(value.pdf, output) };
}

async function run(request: EngineRequest): Promise<unknown> {
  const pdf = await read(request.pdf);
  switch (request.type) {
    case 'place':
      return placeholder(
        await placeSignature(await prepareForSigning(pdf), { ...request.request, pdf }),
        request.output,
      );
    case 'dss':
      return written(await appendDss(pdf, request.entries), request.output);
    case 'document-timestamp':
      return placeholder(await placeDocumentTimeStamp(pdf), request.output);
  }
}

// A file the engine cannot handle is an answer, not a crash: the parent tells a presign error (the PDF's
// fault) from any other.
async function handle(request: EngineRequest): Promise<EngineReply> {
  try {
    return { type: 'result', id: request.id, value: { ok: true, value: await run(request) } };
  } catch (error) {
    const presign = error instanceof Error && (error as { code?: unknown }).code === 'presign_error';
    return { type: 'result', id: request.id, value: { ok: false, message: describe(error), presign } };
  }
}

process.on('message', (request: EngineRequest) => {
  void handle(request).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ type: 'ready' });
