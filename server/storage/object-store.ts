// One interface over where files live: the embedded local store or any S3-compatible object store. Handlers
// and the image worker see only this, so swapping one for the other changes no other code.
import type { Readable } from 'node:stream';

export type PresignedPost = {
  url: string;
  // Exactly the form fields the browser must send before `file`, named as the store expects them.
  fields: Record<string, string>;
};

export type PresignPostOptions = {
  maxBytes: number;
  expiresInSeconds: number;
  // The type the object is read back as. The browser's form carries no Content-Type field
  // (docs/decisions.md), so it is not a policy condition.
  contentType: string;
};

export type SignedGetOptions = {
  expiresInSeconds: number;
  // When set, the link downloads the file under this name (Content-Disposition: attachment).
  downloadFilename?: string;
  contentType?: string;
};

export type ObjectStore = {
  // 'local' stores also need their /storage routes registered; 's3' stores are reached directly.
  readonly kind: 'local' | 's3';
  presignPost(key: string, opts: PresignPostOptions): Promise<PresignedPost>;
  signedGetUrl(key: string, opts: SignedGetOptions): Promise<string>;
  getBuffer(key: string): Promise<Buffer>;
  getStream(key: string): Promise<Readable>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
  // Removes every object whose key starts with `prefix` (a folder: it ends in `/`); nothing there is fine.
  deletePrefix(prefix: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  // A cheap call that throws when the store cannot be reached (GET /readyz): the bucket's folder, or a
  // HEAD on the bucket.
  check(): Promise<void>;
  // Removes what interrupted writes left in the store's own scratch space, last touched before
  // `olderThan`; answers how many went. An S3 store keeps none (a presigned POST or a PutObject lands whole
  // or not at all).
  removeStaleTemporaryFiles(olderThan: Date): Promise<number>;
  // Start-up checks of a store the server does not run itself (S3): `checkBucket` throws one sentence
  // saying why the bucket cannot be used (missing, credentials refused, endpoint unreachable);
  // `checkBrowserAccess` answers what will stop browsers at `publicOrigin` from uploading to it or
  // reading from it (its CORS), or null when nothing is known to be wrong.
  checkBucket?(): Promise<void>;
  checkBrowserAccess?(publicOrigin: string): Promise<string | null>;
};

export class ObjectNotFoundError extends Error {
  key: string;

  constructor(key: string) {
    super(`No stored object under ${key}`);
    this.key = key;
    this.name = 'ObjectNotFoundError';
  }
}

// Keys are made by the server (uploads/<user>/<uuid>.pdf, documents/<id>/...), so anything else is refused
// rather than escaped: no empty or dot segments, no backslashes, nothing that could leave the bucket.
const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function isSafeKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => KEY_SEGMENT.test(segment));
}

// A folder of keys the server makes, such as `documents/<id>/`: never the whole bucket.
export function isSafePrefix(prefix: string): boolean {
  return prefix.endsWith('/') && isSafeKey(prefix.slice(0, -1));
}

export function contentTypeForKey(key: string): string {
  if (key.endsWith('.pdf')) return 'application/pdf';
  if (key.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}
