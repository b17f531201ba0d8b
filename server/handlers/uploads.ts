// Upload in two calls around the browser's direct POST to storage (docs/decisions.md "Upload"):
// createUploadRequest issues presigned POST fields for one key; createDocument turns that key into a
// document only after re-reading the stored bytes. A refused upload is deleted: nothing is kept.
import { createHash, randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { recordAudit } from '../audit.ts';
import { currentUser } from '../auth/current-user.ts';
import { DAY_MS } from '../config.ts';
import type { AppDeps, AuthUser, Handlers, OperationRequest } from '../context.ts';
import type { UploadRequestsTable } from '../db/schema.ts';
import { serializeDocument } from '../documents/serialize.ts';
import { ApiError } from '../http/errors.ts';
import { queueRenderPages } from '../images/worker.ts';
import { inspectPdf } from '../pdf/inspect.ts';
import { ObjectNotFoundError } from '../storage/object-store.ts';
import { cancelPendingDeletions, recordPendingDeletions } from '../storage/pending-deletions.ts';
import { insertUploadGrant } from '../storage/upload-grants.ts';
import { sendTooManyRequests } from './connections.ts';

export const UPLOAD_TTL_SECONDS = 15 * 60;
// S3 checks a policy's expiration when the POST starts; a large file started in the last minute may land
// after it, so the key stays usable by createDocument for a while longer.
export const CREATE_GRACE_MS = 15 * 60 * 1000;
// Far longer than createDocument's transaction can take, so the cleanup job never removes a file that
// is about to be kept.
const UNCOMMITTED_FILE_GUARD_MS = 60 * 60 * 1000;
const MAX_FILENAME_LENGTH = 255;
const MAX_USER_AGENT_LENGTH = 512;

function uploadKey(userId: string): string {
  return `uploads/${userId}/${randomUUID()}.pdf`;
}

// Presigned POST field names differ in case between stores ("Policy" from the AWS SDK, "policy" here).
function field(fields: Record<string, string>, name: string): string {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(fields)) if (key.toLowerCase() === wanted) return value;
  throw new Error(`The object store gave no ${name} field`);
}

// A field the contract fixes: a store that signed something else would hand browsers a form that fails.
function fixedField<Value extends string>(
  fields: Record<string, string>,
  name: string,
  expected: Value,
): Value {
  const value = field(fields, name);
  if (value !== expected) throw new Error(`The object store gave ${name} ${value}, not ${expected}`);
  return expected;
}

async function createUploadRequest(req: OperationRequest<'createUploadRequest'>, reply: FastifyReply) {
  const user = currentUser(req);
  const deps = req.server.deps;
  const now = deps.clock();
  const id = randomUUID();
  const key = uploadKey(user.id);
  const grant = await insertUploadGrant(
    deps,
    {
      id,
      user_id: user.id,
      key,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000).toISOString(),
      consumed_at: null,
    },
    deps.config.uploadGrantsPerMinute,
  );
  if (!grant.granted) return sendTooManyRequests(reply, grant.retryAfterSeconds);
  const post = await deps.store.presignPost(key, {
    maxBytes: deps.config.maxUploadBytes,
    expiresInSeconds: UPLOAD_TTL_SECONDS,
    contentType: 'application/pdf',
  });
  reply.status(201);
  return {
    data: {
      id,
      type: 'uploadRequests' as const,
      attributes: {
        url: post.url,
        key,
        acl: fixedField(post.fields, 'acl', 'private'),
        policy: field(post.fields, 'policy'),
        successActionStatus: fixedField(post.fields, 'success_action_status', '201'),
        xAmzCredential: field(post.fields, 'x-amz-credential'),
        xAmzSignature: field(post.fields, 'x-amz-signature'),
        xAmzAlgorithm: fixedField(post.fields, 'x-amz-algorithm', 'AWS4-HMAC-SHA256'),
        xAmzDate: field(post.fields, 'x-amz-date'),
        // The browser refuses a larger file at once instead of posting it for the store to cut off.
        maxFileSize: deps.config.maxUploadBytes,
      },
    },
  };
}

// "C:\Users\ada\Contract.pdf" and "../../Contract.pdf" are both "Contract.pdf": a name, never a path.
export function cleanOriginalFilename(raw: string): string {
  const lastPart = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
  return lastPart.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

async function findIssuedUpload(deps: AppDeps, user: AuthUser, key: string): Promise<UploadRequestsTable> {
  const upload = await deps.db
    .selectFrom('upload_requests')
    .selectAll()
    .where('key', '=', key)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  // Someone else's key answers exactly like a key never issued, and their upload is left alone.
  if (upload === undefined) {
    throw new ApiError(422, 'upload_not_found', 'No upload with this key was issued to you.', {
      field: 'filename',
    });
  }
  if (upload.consumed_at !== null) {
    throw new ApiError(
      409,
      'upload_already_used',
      'This upload has already been turned into a document or refused.',
    );
  }
  if (deps.clock().getTime() > new Date(upload.expires_at).getTime() + CREATE_GRACE_MS) {
    throw new ApiError(422, 'upload_expired', 'This upload request has expired; upload the file again.');
  }
  return upload;
}

async function markConsumed(deps: AppDeps, uploadId: string): Promise<void> {
  await deps.db
    .updateTable('upload_requests')
    .set({ consumed_at: deps.clock().toISOString() })
    .where('id', '=', uploadId)
    .where('consumed_at', 'is', null)
    .execute();
}

// Refuses the upload for good: the stored bytes go, and the key cannot be offered again.
async function discardUpload(deps: AppDeps, upload: UploadRequestsTable): Promise<void> {
  await deps.store.delete(upload.key);
  await markConsumed(deps, upload.id);
}

async function readUpload(deps: AppDeps, key: string): Promise<Buffer> {
  try {
    return await deps.store.getBuffer(key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) {
      throw new ApiError(422, 'upload_missing', 'Nothing was uploaded under this key.', {
        field: 'filename',
      });
    }
    throw error;
  }
}

async function createDocument(req: OperationRequest<'createDocument'>, reply: FastifyReply) {
  const user = currentUser(req);
  const deps = req.server.deps;
  const body = req.body;
  const originalFilename = cleanOriginalFilename(body.original_filename);
  if (originalFilename.length < 1 || originalFilename.length > MAX_FILENAME_LENGTH) {
    throw new ApiError(
      400,
      'invalid_request',
      'original_filename must be a file name of 1 to 255 characters.',
      {
        field: 'original_filename',
      },
    );
  }

  const upload = await findIssuedUpload(deps, user, body.filename);
  const bytes = await readUpload(deps, upload.key);
  if (bytes.length > deps.config.maxUploadBytes) {
    await discardUpload(deps, upload);
    throw new ApiError(422, 'file_too_large', 'The file is larger than the upload limit.');
  }
  const inspection = await inspectPdf(bytes, deps.config);
  if (!inspection.ok) {
    const messages = {
      not_a_pdf: 'The file is not a PDF document.',
      encrypted_pdf: 'The PDF is encrypted or password protected.',
      empty_file: 'The file is empty.',
      too_many_pages: `The PDF has more than ${deps.config.maxPages} pages.`,
    } as const;
    await discardUpload(deps, upload);
    // A PDF that opens but could never be signed validly says why, under the code of a damaged file.
    const message =
      inspection.damage === undefined
        ? messages[inspection.code]
        : `The PDF is damaged and cannot be signed: ${inspection.damage}.`;
    throw new ApiError(422, inspection.code, message);
  }

  const now = deps.clock();
  const nowIso = now.toISOString();
  const documentId = randomUUID();
  const fileKey = `documents/${documentId}/original.pdf`;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // The document's own copy is written before the row exists, so the page worker never sees a document
  // without its file; if the transaction fails, the copy goes again. A guard recorded first removes it
  // should the process die before either happens; the transaction that keeps the file cancels it.
  const guard = await recordPendingDeletions(deps.db, [{ key: `documents/${documentId}/`, isPrefix: true }], {
    now,
    notBefore: new Date(now.getTime() + UNCOMMITTED_FILE_GUARD_MS),
  });
  await deps.store.put(fileKey, bytes, 'application/pdf');
  try {
    await deps.db.transaction().execute(async (trx) => {
      const consumed = await trx
        .updateTable('upload_requests')
        .set({ consumed_at: nowIso })
        .where('id', '=', upload.id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      // A second createDocument for the same key got here first.
      if (Number(consumed.numUpdatedRows) !== 1) {
        throw new ApiError(
          409,
          'upload_already_used',
          'This upload has already been turned into a document or refused.',
        );
      }
      await trx
        .insertInto('documents')
        .values({
          id: documentId,
          owner_id: user.id,
          original_filename: originalFilename,
          file_key: fileKey,
          file_size: bytes.length,
          sha256,
          page_count: inspection.pageCount,
          state: 'uploaded',
          images_state: 'pending',
          created_at: nowIso,
          updated_at: nowIso,
          autodeletion_at: new Date(now.getTime() + deps.config.retentionDays * DAY_MS).toISOString(),
          signed_file_key: null,
        })
        .execute();
      await queueRenderPages(trx, documentId, now);
      await cancelPendingDeletions(trx, guard);
      await recordAudit(trx, {
        documentId,
        actorId: user.id,
        action: 'document.uploaded',
        at: now,
        ip: req.ip,
        userAgent: req.headers['user-agent']?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
        sha256After: sha256,
        details: { originalFilename, fileSize: bytes.length, pageCount: inspection.pageCount },
      });
    });
  } catch (error) {
    await deps.store.delete(fileKey).catch((cleanupError: unknown) => {
      req.log.warn(
        { error: String(cleanupError), key: fileKey },
        'could not remove an orphaned document file',
      );
    });
    throw error;
  }
  // The upload key's object is a duplicate now; losing it only wastes space, so a failure is logged.
  await deps.store.delete(upload.key).catch((cleanupError: unknown) => {
    req.log.warn({ error: String(cleanupError), key: upload.key }, 'could not remove a consumed upload');
  });

  const row = await deps.db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  reply.status(201);
  return { data: await serializeDocument(deps, row, user) };
}

export const uploadHandlers: Handlers = { createUploadRequest, createDocument };
