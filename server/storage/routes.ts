// The local store's HTTP face, shaped like S3 so the browser code is the same for both stores:
//   POST /storage/:bucket    a presigned POST upload (multipart: fields first, `file` last)
//   GET  /storage/:bucket/*  a signed read link
// Answers are S3's: a PostResponse XML document on success, an <Error> XML document otherwise.
// An upload is verified (signature, expiration, every policy condition, the length range) while it streams
// to a temporary file, and is linked into place only when all of it passed: a refused upload leaves nothing.
// A key takes one upload only: a key that already holds an object, or whose upload request is used or
// unknown, is refused with 403 AccessDenied and nothing is stored (a replayed form would otherwise leave a
// file that no document refers to).
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../context.ts';
import type { LocalStore } from './local-store.ts';
import { contentTypeForKey, isSafeKey, type ObjectStore } from './object-store.ts';
import {
  SIGV4_ALGORITHM,
  checkConditions,
  decodePolicy,
  lengthRange,
  parseAmzDate,
  parseCredential,
} from './sigv4.ts';

const FORM_LIMITS = {
  fieldNameSize: 100,
  // A policy for one key is well under 2 KB; 16 KB leaves room without inviting abuse.
  fieldSize: 16 * 1024,
  fields: 20,
  files: 1,
  parts: 21,
  headerPairs: 20,
};

class S3Failure extends Error {
  status: number;
  code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.name = 'S3Failure';
  }
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

function sendXml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'application/xml; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function sendFailure(reply: FastifyReply, failure: S3Failure): FastifyReply {
  return sendXml(
    reply,
    failure.status,
    `<Error><Code>${xmlEscape(failure.code)}</Code><Message>${xmlEscape(failure.message)}</Message></Error>`,
  );
}

export function isLocalStore(store: ObjectStore): store is LocalStore {
  return store.kind === 'local';
}

type FormFields = Map<string, string>;

type VerifiedForm = {
  key: string;
  range: { min: number; max: number } | null;
  successStatus: string | undefined;
};

const REQUIRED_FIELDS = [
  'key',
  'policy',
  'x-amz-algorithm',
  'x-amz-credential',
  'x-amz-date',
  'x-amz-signature',
];

// Everything that can be known before the first byte of the file: S3 checks the same, in this order, so
// that nothing about the policy is revealed to a form whose signature is not ours.
function verifyForm(store: LocalStore, fields: FormFields, bucket: string, now: Date): VerifiedForm {
  for (const name of REQUIRED_FIELDS) {
    if (!fields.has(name)) {
      throw new S3Failure(400, 'InvalidArgument', `Bucket POST must contain a field named '${name}'.`);
    }
  }
  const get = (name: string): string => fields.get(name) ?? '';
  if (get('x-amz-algorithm') !== SIGV4_ALGORITHM) {
    throw new S3Failure(400, 'InvalidArgument', `X-Amz-Algorithm must be ${SIGV4_ALGORITHM}.`);
  }
  const credential = parseCredential(get('x-amz-credential'));
  const signedAt = parseAmzDate(get('x-amz-date'));
  if (credential === null || signedAt === null || !get('x-amz-date').startsWith(credential.dateStamp)) {
    throw new S3Failure(400, 'InvalidArgument', 'X-Amz-Credential or X-Amz-Date is malformed.');
  }
  if (credential.accessKeyId !== store.accessKeyId) {
    throw new S3Failure(403, 'InvalidAccessKeyId', 'The access key id does not exist in our records.');
  }
  if (!store.isPolicySignedByUs(credential, get('policy'), get('x-amz-signature'))) {
    throw new S3Failure(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  const policy = decodePolicy(get('policy'));
  if (policy === null) {
    throw new S3Failure(400, 'InvalidPolicyDocument', 'Invalid Policy: the policy document is malformed.');
  }
  if (now.getTime() > policy.expiration.getTime()) {
    throw new S3Failure(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  }
  const failed = checkConditions(policy, fields, bucket);
  if (failed !== null) {
    throw new S3Failure(
      403,
      'AccessDenied',
      failed.reason === 'condition'
        ? `Invalid according to Policy: Policy Condition failed: ${failed.condition}`
        : `Invalid according to Policy: Extra input fields: ${failed.field}`,
    );
  }
  const key = get('key');
  if (!isSafeKey(key)) throw new S3Failure(400, 'InvalidArgument', 'The key is not a valid object key.');
  return { key, range: lengthRange(policy), successStatus: fields.get('success_action_status') };
}

function keyTaken(): S3Failure {
  return new S3Failure(403, 'AccessDenied', 'This key has already been used for an upload.');
}

// Only keys issued by createUploadRequest and not yet turned into a document (or refused) take a file.
async function checkKeyIsOpen(deps: AppDeps, store: LocalStore, key: string): Promise<void> {
  const upload = await deps.db
    .selectFrom('upload_requests')
    .select('consumed_at')
    .where('key', '=', key)
    .executeTakeFirst();
  if (upload === undefined || upload.consumed_at !== null || (await store.exists(key))) throw keyTaken();
}

// link() fails with EEXIST when the key already holds a file, where rename() would replace it: of two
// uploads of one key racing to the end, the second is refused.
async function moveIntoPlace(tempPath: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await link(tempPath, target);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'EEXIST') throw keyTaken();
    throw error;
  }
}

type Received = { tempPath: string; size: number; etag: string };

// Streams the file to a temporary path, counting as it goes, and gives up at the first byte past the
// policy's limit: the file is never held in memory and an oversized one is never written in full.
async function receiveFile(
  file: Readable & { truncated?: boolean },
  tempDir: string,
  range: VerifiedForm['range'],
): Promise<Received> {
  const tempPath = path.join(tempDir, randomUUID());
  const md5 = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (range !== null && size > range.max) {
        callback(
          new S3Failure(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.'),
        );
        return;
      }
      md5.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(file, meter, createWriteStream(tempPath, { flags: 'wx' }));
    // The parser's own size limit cuts the file short instead of failing: that is still too large.
    if (file.truncated === true) {
      throw new S3Failure(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size.');
    }
    if (range !== null && size < range.min) {
      throw new S3Failure(
        400,
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed size.',
      );
    }
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
  return { tempPath, size, etag: md5.digest('hex') };
}

function isClientFormError(error: unknown): boolean {
  const status = (error as Partial<FastifyError> | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

async function handlePost(
  store: LocalStore,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { bucket } = req.params as { bucket: string };
  if (bucket !== store.bucket) {
    return sendFailure(reply, new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist.'));
  }
  if (!req.isMultipart()) {
    return sendFailure(
      reply,
      new S3Failure(400, 'InvalidRequest', 'Bucket POST must be of the enclosure-type multipart/form-data.'),
    );
  }
  const now = req.server.deps.clock();
  const fields: FormFields = new Map();
  let verified: VerifiedForm | null = null;
  let received: Received | null = null;
  try {
    const parts = req.parts({
      limits: { ...FORM_LIMITS, fileSize: req.server.deps.config.maxUploadBytes + 1 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        // S3 ignores whatever follows the file.
        if (received !== null) continue;
        const name = part.fieldname.toLowerCase();
        if (fields.has(name) || part.valueTruncated || typeof part.value !== 'string') {
          throw new S3Failure(400, 'InvalidArgument', `The field '${name}' is repeated or malformed.`);
        }
        fields.set(name, part.value);
        continue;
      }
      if (part.fieldname.toLowerCase() !== 'file') {
        part.file.destroy();
        throw new S3Failure(400, 'InvalidArgument', "The file must be sent in a field named 'file'.");
      }
      try {
        verified = verifyForm(store, fields, bucket, now);
      } catch (error) {
        part.file.destroy();
        throw error;
      }
      try {
        await checkKeyIsOpen(req.server.deps, store, verified.key);
      } catch (error) {
        part.file.destroy();
        throw error;
      }
      received = await receiveFile(part.file, store.tempDir, verified.range);
    }
    if (verified === null || received === null) {
      throw new S3Failure(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
    }
    // The document may have been made from another upload of this key while this one streamed.
    await checkKeyIsOpen(req.server.deps, store, verified.key);
    await moveIntoPlace(received.tempPath, store.pathFor(verified.key));
    // The upload is stored now; a temporary name left behind is the cleanup job's to remove.
    await rm(received.tempPath, { force: true }).catch(() => undefined);
  } catch (error) {
    if (received !== null) await rm(received.tempPath, { force: true });
    // The rest of a refused body is not worth reading: drop the connection once the answer is out.
    reply.header('connection', 'close');
    if (error instanceof S3Failure) return sendFailure(reply, error);
    if (isClientFormError(error)) {
      return sendFailure(
        reply,
        new S3Failure(
          400,
          'MalformedPOSTRequest',
          'The body of the POST request is not well-formed multipart/form-data.',
        ),
      );
    }
    throw error;
  }

  const location = `/storage/${bucket}/${verified.key.split('/').map(encodeURIComponent).join('/')}`;
  const etag = `"${received.etag}"`;
  reply.header('etag', etag).header('location', location);
  if (verified.successStatus === '201') {
    return sendXml(
      reply,
      201,
      `<PostResponse><Location>${xmlEscape(location)}</Location><Bucket>${xmlEscape(bucket)}</Bucket>` +
        `<Key>${xmlEscape(verified.key)}</Key><ETag>${xmlEscape(etag)}</ETag></PostResponse>`,
    );
  }
  return reply.status(verified.successStatus === '200' ? 200 : 204).send();
}

// The signature covers the query exactly as sent, so it is read from the raw URL rather than from a parser
// that may merge, reorder or drop parameters.
function rawQueryParams(url: string): [string, string][] {
  const at = url.indexOf('?');
  if (at === -1) return [];
  return [...new URLSearchParams(url.slice(at + 1)).entries()];
}

async function handleGet(store: LocalStore, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const params = req.params as { bucket: string; '*': string };
  if (params.bucket !== store.bucket) {
    return sendFailure(reply, new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist.'));
  }
  const key = params['*'];
  const check = store.verifySignedGet(key, rawQueryParams(req.url), req.server.deps.clock());
  if (!check.ok) return sendFailure(reply, new S3Failure(403, check.code, check.message));
  // A signature can only be made for keys the server makes, but the path is checked again before use.
  if (!isSafeKey(key))
    return sendFailure(reply, new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.'));

  const notFound = new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.');
  let handle: FileHandle;
  try {
    handle = await open(store.pathFor(key), 'r');
  } catch {
    return sendFailure(reply, notFound);
  }
  const info = await handle.stat().catch(() => null);
  if (info === null || !info.isFile()) {
    await handle.close();
    return sendFailure(reply, notFound);
  }
  const size = info.size;
  reply
    .status(200)
    .header('content-type', check.contentType ?? contentTypeForKey(key))
    .header('content-length', String(size))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300');
  if (check.disposition !== null) reply.header('content-disposition', check.disposition);
  return reply.send(handle.createReadStream());
}

// Registers nothing for an S3 store: the browser talks to S3 directly then.
export function registerLocalStorageRoutes(app: FastifyInstance, store: ObjectStore): void {
  if (!isLocalStore(store)) return;
  // Encapsulated, so the multipart parser and the XML errors apply to these two routes and not to /api.
  void app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.setErrorHandler((error: FastifyError, req, reply) => {
      const status =
        typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
          ? error.statusCode
          : 500;
      if (status >= 500) req.log.error({ err: error }, 'storage request failed');
      return sendFailure(
        reply,
        new S3Failure(
          status,
          status >= 500 ? 'InternalError' : 'InvalidRequest',
          status >= 500 ? 'We encountered an internal error. Please try again.' : 'The request is not valid.',
        ),
      );
    });
    scope.post('/storage/:bucket', (req, reply) => handlePost(store, req, reply));
    scope.get('/storage/:bucket/*', (req, reply) => handleGet(store, req, reply));
  });
}
