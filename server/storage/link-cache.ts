// Signed storage links for documents, reused for half a minute. A list page of twenty documents carries a
// hundred links or so (the file, every page image); signing each anew on every request cost more than the
// whole query. A list page sent again is kept as long (handlers/documents.ts), so a link reaches a browser
// at most a minute after it was signed, with at least 14 of its 15 minutes left; and the same link for the
// same image lets the browser keep the image it already has.
import type { ObjectStore, SignedGetOptions } from './object-store.ts';

export const LINK_REUSE_MS = 30_000;
const MAX_LINKS = 20_000;

type Signed = { url: string; signedAt: number };

const links = new WeakMap<ObjectStore, Map<string, Signed>>();

export async function reusableSignedGetUrl(
  store: ObjectStore,
  now: Date,
  key: string,
  options: SignedGetOptions,
): Promise<string> {
  let signed = links.get(store);
  if (signed === undefined) {
    signed = new Map();
    links.set(store, signed);
  }
  const id = [key, options.expiresInSeconds, options.contentType ?? '', options.downloadFilename ?? ''].join('\n');
  const at = now.getTime();
  const found = signed.get(id);
  // A clock that went back (tests move it) signs again rather than hand out a link from its future.
  if (found !== undefined && at >= found.signedAt && at - found.signedAt < LINK_REUSE_MS) return found.url;
  const url = await store.signedGetUrl(key, options);
  // Links expire on their own; the map is only kept from growing without end.
  if (signed.size >= MAX_LINKS) signed.clear();
  signed.set(id, { url, signedAt: at });
  return url;
}
