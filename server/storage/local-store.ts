// The embedded object store: files under <dataDir>/storage/<bucket>/<key>, reached by the browser through
// S3-style presigned POST uploads and signed GET links that this server verifies itself (routes.ts).
// Its one secret lives in the database, so every instance sharing the database and the folder agrees.
import { randomBytes, randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { attachmentDisposition } from './content-disposition.ts';
import {
  ObjectNotFoundError,
  isSafeKey,
  isSafePrefix,
  type ObjectStore,
  type PresignPostOptions,
  type PresignedPost,
  type SignedGetOptions,
} from './object-store.ts';
import {
  SIGV4_ALGORITHM,
  amzDate,
  canonicalUri,
  credentialScope,
  encodePolicy,
  parseAmzDate,
  parseCredential,
  signPolicy,
  signQuery,
  signaturesMatch,
  uriEncode,
  type ParsedCredential,
  type QueryParams,
} from './sigv4.ts';

export const LOCAL_BUCKET = 'paraph';
export const LOCAL_ACCESS_KEY_ID = 'PARAPHLOCALSTORE';
export const LOCAL_REGION = 'us-east-1';
const SECRET_NAME = 'local_store_secret';
// S3 refuses presigned links valid for more than a week; so does this store.
export const MAX_SIGNED_GET_SECONDS = 7 * 24 * 60 * 60;
// Links dated this far ahead of the server's clock are refused (clock skew between instances is allowed).
const MAX_FUTURE_SKEW_MS = 5 * 60 * 1000;

export type LocalStore = ObjectStore & {
  readonly kind: 'local';
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly region: string;
  // Where an object lives on disk; throws for a key that is not one the server makes.
  pathFor(key: string): string;
  // Same filesystem as the bucket, so a verified upload is moved into place with one link (routes.ts).
  readonly tempDir: string;
  // `params` are the link's query parameters as received, in any order.
  verifySignedGet(key: string, params: QueryParams, now: Date): SignedGetCheck;
  // The secret never leaves this module: the routes ask whether a policy signature is ours.
  isPolicySignedByUs(credential: ParsedCredential, policyBase64: string, signatureHex: string): boolean;
};

export type SignedGetCheck =
  | { ok: true; disposition: string | null; contentType: string | null }
  | { ok: false; code: 'AccessDenied' | 'SignatureDoesNotMatch' | 'InvalidAccessKeyId'; message: string };

async function loadOrCreateSecret(db: Kysely<Database>): Promise<string> {
  // Insert-if-absent, then read: when several instances start at once they all end up with the first one.
  await db
    .insertInto('server_secrets')
    .values({ name: SECRET_NAME, value: randomBytes(32).toString('hex') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', SECRET_NAME)
    .executeTakeFirstOrThrow();
  return row.value;
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export async function createLocalStore(options: {
  dataDir: string;
  db: Kysely<Database>;
  clock?: () => Date;
}): Promise<LocalStore> {
  const clock = options.clock ?? (() => new Date());
  const root = path.join(options.dataDir, 'storage');
  const bucketDir = path.join(root, LOCAL_BUCKET);
  const tempDir = path.join(root, '.tmp');
  await mkdir(bucketDir, { recursive: true });
  await mkdir(tempDir, { recursive: true });
  const secret = await loadOrCreateSecret(options.db);

  function pathFor(key: string): string {
    if (!isSafeKey(key)) throw new Error('Refused an object key that the server does not make');
    return path.join(bucketDir, ...key.split('/'));
  }

  const store: LocalStore = {
    kind: 'local',
    bucket: LOCAL_BUCKET,
    accessKeyId: LOCAL_ACCESS_KEY_ID,
    region: LOCAL_REGION,
    tempDir,
    pathFor,

    async presignPost(key: string, opts: PresignPostOptions): Promise<PresignedPost> {
      pathFor(key);
      const now = clock();
      const date = amzDate(now);
      const dateStamp = date.slice(0, 8);
      const credential = credentialScope(LOCAL_ACCESS_KEY_ID, dateStamp, LOCAL_REGION);
      const policy = encodePolicy(new Date(now.getTime() + opts.expiresInSeconds * 1000), [
        { bucket: LOCAL_BUCKET },
        ['eq', '$key', key],
        { acl: 'private' },
        { success_action_status: '201' },
        ['content-length-range', 1, opts.maxBytes],
        { 'x-amz-credential': credential },
        { 'x-amz-algorithm': SIGV4_ALGORITHM },
        { 'x-amz-date': date },
      ]);
      return {
        url: `/storage/${LOCAL_BUCKET}`,
        fields: {
          key,
          acl: 'private',
          success_action_status: '201',
          policy,
          'X-Amz-Credential': credential,
          'X-Amz-Algorithm': SIGV4_ALGORITHM,
          'X-Amz-Date': date,
          'X-Amz-Signature': signPolicy(secret, dateStamp, LOCAL_REGION, policy),
        },
      };
    },

    async signedGetUrl(key: string, opts: SignedGetOptions): Promise<string> {
      pathFor(key);
      const date = amzDate(clock());
      const credential = {
        accessKeyId: LOCAL_ACCESS_KEY_ID,
        dateStamp: date.slice(0, 8),
        region: LOCAL_REGION,
      };
      const expires = Math.min(Math.max(1, Math.floor(opts.expiresInSeconds)), MAX_SIGNED_GET_SECONDS);
      const params: [string, string][] = [
        ['X-Amz-Algorithm', SIGV4_ALGORITHM],
        ['X-Amz-Credential', credentialScope(LOCAL_ACCESS_KEY_ID, credential.dateStamp, LOCAL_REGION)],
        ['X-Amz-Date', date],
        ['X-Amz-Expires', String(expires)],
        ['X-Amz-SignedHeaders', ''],
      ];
      if (opts.downloadFilename !== undefined) {
        params.push(['response-content-disposition', attachmentDisposition(opts.downloadFilename)]);
      }
      if (opts.contentType !== undefined) params.push(['response-content-type', opts.contentType]);
      const uri = canonicalUri(LOCAL_BUCKET, key);
      params.push(['X-Amz-Signature', signQuery(secret, credential, 'GET', uri, params, date)]);
      return `/storage${uri}?${params.map(([name, value]) => `${uriEncode(name)}=${uriEncode(value)}`).join('&')}`;
    },

    verifySignedGet(key: string, params: QueryParams, now: Date): SignedGetCheck {
      const values = new Map<string, string[]>();
      for (const [name, value] of params) values.set(name, [...(values.get(name) ?? []), value]);
      const single = (name: string): string | undefined => {
        const found = values.get(name);
        return found?.length === 1 ? found[0] : undefined;
      };
      const algorithm = single('X-Amz-Algorithm');
      const credential = parseCredential(single('X-Amz-Credential') ?? '');
      const date = single('X-Amz-Date') ?? '';
      const signedAt = parseAmzDate(date);
      const expires = single('X-Amz-Expires') ?? '';
      const seconds = Number(expires);
      const signature = single('X-Amz-Signature');
      if (
        algorithm !== SIGV4_ALGORITHM ||
        credential === null ||
        signedAt === null ||
        !date.startsWith(credential.dateStamp) ||
        !/^\d+$/.test(expires) ||
        seconds < 1 ||
        seconds > MAX_SIGNED_GET_SECONDS ||
        single('X-Amz-SignedHeaders') !== '' ||
        signature === undefined
      ) {
        return {
          ok: false,
          code: 'AccessDenied',
          message:
            'Query-string authentication requires a valid X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date, X-Amz-Expires, X-Amz-SignedHeaders and X-Amz-Signature.',
        };
      }
      if (credential.accessKeyId !== LOCAL_ACCESS_KEY_ID) {
        return {
          ok: false,
          code: 'InvalidAccessKeyId',
          message: 'The access key id does not exist in our records.',
        };
      }
      const expected = signQuery(secret, credential, 'GET', canonicalUri(LOCAL_BUCKET, key), params, date);
      if (!signaturesMatch(expected, signature)) {
        return {
          ok: false,
          code: 'SignatureDoesNotMatch',
          message: 'The request signature we calculated does not match the signature you provided.',
        };
      }
      if (now.getTime() > signedAt.getTime() + seconds * 1000) {
        return { ok: false, code: 'AccessDenied', message: 'Request has expired.' };
      }
      if (signedAt.getTime() - now.getTime() > MAX_FUTURE_SKEW_MS) {
        return { ok: false, code: 'AccessDenied', message: 'Request is not yet valid.' };
      }
      const disposition = single('response-content-disposition');
      const contentType = single('response-content-type');
      return { ok: true, disposition: disposition ?? null, contentType: contentType ?? null };
    },

    isPolicySignedByUs(credential: ParsedCredential, policyBase64: string, signatureHex: string): boolean {
      if (credential.accessKeyId !== LOCAL_ACCESS_KEY_ID) return false;
      return signaturesMatch(
        signPolicy(secret, credential.dateStamp, credential.region, policyBase64),
        signatureHex,
      );
    },

    async getBuffer(key: string): Promise<Buffer> {
      try {
        return await readFile(pathFor(key));
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    async getStream(key: string): Promise<Readable> {
      try {
        // Opening first turns a missing file into an error here rather than on the stream later.
        const handle = await open(pathFor(key), fsConstants.O_RDONLY);
        return handle.createReadStream();
      } catch (error) {
        if (isNotFound(error)) throw new ObjectNotFoundError(key);
        throw error;
      }
    },

    // The type is not kept: reads take it from the key's extension or from the signed link.
    async put(key: string, body: Buffer): Promise<void> {
      const target = pathFor(key);
      const temp = path.join(tempDir, randomUUID());
      try {
        await writeFile(temp, body, { flag: 'wx' });
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temp, target);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },

    async delete(key: string): Promise<void> {
      await rm(pathFor(key), { force: true });
    },

    async deletePrefix(prefix: string): Promise<void> {
      if (!isSafePrefix(prefix)) throw new Error('Refused a key prefix that the server does not make');
      await rm(pathFor(prefix.slice(0, -1)), { recursive: true, force: true });
    },

    // A temporary file is written by one upload or put and renamed or linked away at its end; one whose
    // last write is older than `olderThan` belongs to a process that died or a connection that stalled.
    async removeStaleTemporaryFiles(olderThan: Date): Promise<number> {
      let removed = 0;
      for (const name of await readdir(tempDir)) {
        const file = path.join(tempDir, name);
        try {
          if ((await stat(file)).mtimeMs >= olderThan.getTime()) continue;
          await rm(file, { recursive: true, force: true });
          removed += 1;
        } catch (error) {
          // Another instance, or the upload itself, removed it meanwhile.
          if (!isNotFound(error)) throw error;
        }
      }
      return removed;
    },

    // The folder must still be there and be one: a volume that came unmounted or was never mounted.
    async check(): Promise<void> {
      if (!(await stat(bucketDir)).isDirectory()) throw new Error(`${bucketDir} is not a folder`);
    },

    async exists(key: string): Promise<boolean> {
      try {
        return (await stat(pathFor(key))).isFile();
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
  };
  return store;
}
