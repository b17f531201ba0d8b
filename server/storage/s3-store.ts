// Any S3-compatible object store (AWS S3, MinIO) behind the same interface as the local store. The browser
// posts to it directly with the same presigned POST fields, and reads through presigned GET links.
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.ts';
import { attachmentDisposition } from './content-disposition.ts';
import { ObjectNotFoundError, isSafePrefix, type ObjectStore, type PresignedPost } from './object-store.ts';

// DeleteObjects takes at most 1000 keys, as many as one ListObjectsV2 page gives.
const DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  if (error instanceof NoSuchKey || error instanceof NotFound) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === 404;
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
