// Any S3-compatible object store (AWS S3, MinIO) behind the same interface as the local store. The browser
// posts to it directly with the same presigned POST fields, and reads through presigned GET links.
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  type CORSRule,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.ts';
import { errorText } from '../http/logging.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { ObjectNotFoundError, isSafePrefix, type ObjectStore, type PresignedPost } from './object-store.ts';

// DeleteObjects takes at most 1000 keys, as many as one ListObjectsV2 page gives.
const DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === 404;
}

// A start-up check waits no longer for an endpoint that swallows packets.
const CHECK_TIMEOUT_MS = 10_000;

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function codeOf(error: unknown): string {
  const { name, code, Code } = (error ?? {}) as { name?: unknown; code?: unknown; Code?: unknown };
  const found = [Code, code, name].find((value) => typeof value === 'string' && value !== 'Error');
  return typeof found === 'string' ? found : 'unknown error';
}

/** The origin browsers post uploads to and read files from. */
export function storeOrigin(config: S3Config): string {
  return config.endpoint === null
    ? `https://s3.${config.region}.amazonaws.com`
    : new URL(config.endpoint).origin;
}

// One sentence for the operator: what is wrong with the bucket, and which setting to look at.
function bucketProblem(config: S3Config, error: unknown): string {
  const where = `bucket "${config.bucket}" at ${storeOrigin(config)}`;
  const status = statusOf(error);
  const code = codeOf(error);
  if (status === 404 || code === 'NotFound' || code === 'NoSuchBucket') {
    return `The object store has no ${where}: create it, or correct S3_BUCKET / S3_ENDPOINT`;
  }
  if (status === 403 || status === 401) {
    return (
      `The object store refused the credentials for ${where} (${status}): check S3_ACCESS_KEY_ID and ` +
      'S3_SECRET_ACCESS_KEY, and that this key may use the bucket'
    );
  }
  if (code === 'CredentialsProviderError') {
    return `No credentials for ${where}: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
  }
  if (status === 301 || status === 400) {
    return `The object store refused to serve ${where} (${status} ${code}): check S3_REGION and S3_ENDPOINT`;
  }
  if (status === undefined) {
    // No HTTP answer at all: refused, unknown host, TLS, or the time ran out.
    const reason =
      code === 'TimeoutError' || code === 'AbortError' ? 'no answer in time' : errorText(error) || code;
    return `The object store at ${storeOrigin(config)} cannot be reached (${reason}): check S3_ENDPOINT`;
  }
  return `The object store cannot use ${where} (${status} ${code})`;
}

// An AllowedOrigin may hold one * wildcard (S3's rule).
function originAllowed(pattern: string, origin: string): boolean {
  const star = pattern.indexOf('*');
  if (star === -1) return pattern === origin;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return origin.length >= head.length + tail.length && origin.startsWith(head) && origin.endsWith(tail);
}

// Uploads POST the form from the browser; the document viewer GETs the file through its signed link.
const BROWSER_METHODS = ['POST', 'GET'] as const;

function corsProblem(rules: readonly CORSRule[], publicOrigin: string, bucket: string): string | null {
  const missing = BROWSER_METHODS.filter(
    (method) =>
      !rules.some(
        (rule) =>
          (rule.AllowedMethods ?? []).some((allowed) => allowed.toUpperCase() === method) &&
          (rule.AllowedOrigins ?? []).some((allowed) => originAllowed(allowed, publicOrigin)),
      ),
  );
  if (missing.length === 0) return null;
  return (
    `The CORS of bucket "${bucket}" does not allow ${missing.join(' and ')} from ${publicOrigin}: browsers ` +
    'will refuse uploads and the document viewer (see "Running several instances" in the README)'
  );
}

export function createS3Store(config: S3Config): ObjectStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
    // MinIO and most self-hosted stores serve buckets by path, not by sub-domain.
    forcePathStyle: true,
    ...(config.accessKeyId !== null && config.secretAccessKey !== null
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
  });
  const Bucket = config.bucket;

  async function getBody(key: string): Promise<NonNullable<GetObjectCommandOutput['Body']>> {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
      if (answer.Body === undefined) throw new ObjectNotFoundError(key);
      return answer.Body;
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  return {
    kind: 's3',

    async presignPost(key, opts): Promise<PresignedPost> {
      const { url, fields } = await createPresignedPost(client, {
        Bucket,
        Key: key,
        Conditions: [['content-length-range', 1, opts.maxBytes]],
        Fields: { acl: 'private', success_action_status: '201' },
        Expires: opts.expiresInSeconds,
      });
      // The SDK adds a `bucket` field that the path-style URL already carries, and names the policy
      // "Policy"; the browser sends exactly the fields of docs/decisions.md.
      const { bucket: _bucket, Policy, ...rest } = fields;
      return { url, fields: { ...rest, ...(Policy === undefined ? {} : { policy: Policy }) } };
    },

    async signedGetUrl(key, opts): Promise<string> {
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ...(opts.downloadFilename === undefined
          ? {}
          : { ResponseContentDisposition: attachmentDisposition(opts.downloadFilename) }),
        ...(opts.contentType === undefined ? {} : { ResponseContentType: opts.contentType }),
      });
      return getSignedUrl(client, command, { expiresIn: opts.expiresInSeconds });
    },

    async getBuffer(key): Promise<Buffer> {
      const body = await getBody(key);
      return Buffer.from(await body.transformToByteArray());
    },

    async getStream(key): Promise<Readable> {
      const body = await getBody(key);
      if (body instanceof Readable) return body;
      return Readable.fromWeb(body.transformToWebStream() as Parameters<typeof Readable.fromWeb>[0]);
    },

    async put(key, body, contentType): Promise<void> {
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },

    async delete(key): Promise<void> {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    // Lists the first page again after each batch instead of following a continuation token, which could
    // skip keys once those before it are gone; ends when the prefix holds nothing.
    async deletePrefix(prefix): Promise<void> {
      if (!isSafePrefix(prefix)) throw new Error('Refused a key prefix that the server does not make');
      for (;;) {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: DELETE_BATCH }),
        );
        const keys = (page.Contents ?? []).flatMap((object) =>
          object.Key === undefined ? [] : [object.Key],
        );
        if (keys.length === 0) return;
        const answer = await client.send(
          new DeleteObjectsCommand({
            Bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
        const failed = answer.Errors ?? [];
        if (failed.length > 0) {
          throw new Error(
            `The object store kept ${failed.length} objects under ${prefix}: ${failed[0]?.Code ?? 'unknown error'}`,
          );
        }
      }
    },

    async removeStaleTemporaryFiles(): Promise<number> {
      return 0;
    },

    // The bucket exists and these credentials may reach it; no object is read.
    async check(): Promise<void> {
      await client.send(new HeadBucketCommand({ Bucket }));
    },

    async checkBucket(): Promise<void> {
      try {
        await client.send(new HeadBucketCommand({ Bucket }), {
          abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
      } catch (error) {
        throw new Error(bucketProblem(config, error), { cause: error });
      }
    },

    async checkBrowserAccess(publicOrigin): Promise<string | null> {
      // Behind one origin (a proxy in front of both), the browser never crosses origins.
      if (storeOrigin(config) === publicOrigin) return null;
      try {
        const answer = await client.send(new GetBucketCorsCommand({ Bucket }), {
          abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
        });
        return corsProblem(answer.CORSRules ?? [], publicOrigin, Bucket);
      } catch (error) {
        if (codeOf(error) === 'NoSuchCORSConfiguration') {
          return corsProblem([], publicOrigin, Bucket);
        }
        // Some stores do not let this key read the CORS, or do not implement it: say what must be true.
        return (
          `The CORS of bucket "${Bucket}" could not be read (${codeOf(error)}): make sure it allows POST ` +
          `and GET from ${publicOrigin}, or browsers will refuse uploads and the document viewer`
        );
      }
    },

    async exists(key): Promise<boolean> {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
  };
}
