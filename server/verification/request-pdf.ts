// The PDF a verification is asked about: the body itself (application/pdf), or the part named `file` of a
// form (multipart/form-data), as an upload to the object store sends it. Neither is parsed before the
// handler runs: the handler counts the call against the client's limit first, then reads the body here,
// giving up at the first byte past the size limit.
import type { Readable } from 'node:stream';
import { Busboy } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { mediaTypeOf } from '../http/request-body.ts';

// The body streams, by request, as the content-type parser was handed them (after every preParsing hook).
const bodies = new WeakMap<FastifyRequest, Readable>();

/**
 * Media types whose bodies are left unread until the handler asks. Only operations that declare them get
 * this far: the body gate (http/request-body.ts) refuses them anywhere else before any parser runs.
 */
export function registerDeferredBodies(app: FastifyInstance): void {
  app.addContentTypeParser(['application/pdf', 'multipart/form-data'], (req, payload, done) => {
    bodies.set(req, payload);
    done(null);
  });
}

export const fileTooLarge = (maxBytes: number): ApiError =>
  new ApiError(413, 'file_too_large', `The file is larger than the upload limit (${maxBytes} bytes).`);

const noFile = (): ApiError =>
  new ApiError(400, 'invalid_request', 'The form has no file: send the PDF as the part named "file".', {
    field: 'file',
    validations: { file: ['is required'] },
  });

const malformedForm = (): ApiError =>
  new ApiError(400, 'invalid_request', 'The body is not well-formed multipart/form-data.', { field: 'base' });

async function readAll(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) throw fileTooLarge(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

// Room for a form's boundaries and part headers around the file.
const FORM_OVERHEAD_BYTES = 64 * 1024;

function readForm(req: FastifyRequest, stream: Readable, maxBytes: number): Promise<Buffer> {
  let form: InstanceType<typeof Busboy>;
  try {
    form = new Busboy({
      headers: { ...req.headers, 'content-type': req.headers['content-type'] ?? '' },
      limits: {
        fileSize: maxBytes + 1,
        files: 4,
        fields: 20,
        parts: 24,
        fieldSize: 16 * 1024,
        headerPairs: 20,
      },
    });
  } catch {
    return Promise.reject(malformedForm());
  }
  return new Promise((resolve, reject) => {
    let file: Promise<Buffer> | null = null;
    let isSettled = false;
    const fail = (error: unknown): void => {
      if (isSettled) return;
      isSettled = true;
      stream.unpipe(form);
      reject(error instanceof ApiError ? error : malformedForm());
    };
    form.on('file', (name, part) => {
      if (name !== 'file' || file !== null) {
        part.resume();
        return;
      }
      file = readAll(part, maxBytes).then((bytes) => {
        // busboy ends a part at its limit (one byte past ours) without an error.
        if (part.truncated) throw fileTooLarge(maxBytes);
        return bytes;
      });
      file.catch(fail);
    });
    form.on('error', fail);
    form.on('finish', () => {
      if (file === null) {
        fail(noFile());
        return;
      }
      file.then((bytes) => {
        if (isSettled) return;
        isSettled = true;
        resolve(bytes);
      }, fail);
    });
    stream.on('error', fail);
    stream.pipe(form);
  });
}

/** The PDF's bytes; ApiError 413 past `maxBytes`, 400 for a form without a file or a broken one. */
export async function readRequestPdf(req: FastifyRequest, maxBytes: number): Promise<Buffer> {
  const stream = bodies.get(req);
  // No parser ran: the body was empty.
  if (stream === undefined) throw new ApiError(422, 'empty_file', 'The file is empty.');
  const isForm = mediaTypeOf(req.headers['content-type'] ?? '') === 'multipart/form-data';
  // A declared length past the limit is refused before a byte is read.
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + (isForm ? FORM_OVERHEAD_BYTES : 0)) {
    throw fileTooLarge(maxBytes);
  }
  return isForm ? readForm(req, stream, maxBytes) : readAll(stream, maxBytes);
}
