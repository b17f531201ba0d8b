// The sign engine's process: the PDF work of a signature (loading the document, drawing the stamp,
// writing the incremental updates) happens here, one request at a time, so that a large or hostile file
// costs this process its time and memory but never blocks the API's event loop. It holds no key: the
// parent signs the digest it answers, and sends back only bytes to place.
import { appendDss, placeDocumentTimeStamp } from './ltv.ts';
import { placeSignature, prepareForSigning } from './pades.ts';
import type { EngineReply, EngineRequest } from './engine-protocol.ts';

function describe(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function run(request: EngineRequest): Promise<unknown> {
  switch (request.type) {
    case 'place':
      return placeSignature(await prepareForSigning(request.pdf), { ...request.request, pdf: request.pdf });
    case 'dss':
      return appendDss(asBuffer(request.pdf), request.entries);
    case 'document-timestamp':
      return placeDocumentTimeStamp(asBuffer(request.pdf));
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
