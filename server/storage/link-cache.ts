// Signed storage links for documents, reused for half a minute. A list page of twenty documents carries a
// hundred links or so (the file, every page image); signing each anew on every request cost more than the
// whole query. What is written with them (a document's resource, a list page) is reused until its oldest
// link is a minute old (LINK_SENT_WITHIN_MS), so a link reaches a browser with at least 14 of its 15
// minutes left; and the same link for the same image lets the browser keep the image it already has.
import type { ObjectStore, SignedGetOptions } from './object-store.ts';

export const LINK_REUSE_MS = 30_000;
export const LINK_SENT_WITHIN_MS = 60_000;
const MAX_LINKS = 20_000;

/** Whether something written with links signed at `signedAt` may still be sent at `now`. */
export function linksStillFresh(signedAt: number, now: number): boolean {
  // A clock that went back (tests move it) counts as stale too.
  return now >= signedAt && now - signedAt < LINK_SENT_WITHIN_MS;
}

type Signed = { url: string; signedAt: number };

const links = new WeakMap<ObjectStore, Map<string, Signed>>();

// How a link serves its object, as part of the cache's key; the serializer's few options objects are
// written out once.
const variants = new WeakMap<SignedGetOptions, string>();

function variantOf(options: SignedGetOptions): string {
  let variant = variants.get(options);
  if (variant === undefined) {
    variant = `${options.expiresInSeconds}\n${options.contentType ?? ''}\n${options.downloadFilename ?? ''}`;
    variants.set(options, variant);
  }
  return variant;
}

/** A link to sign: the object's key and how the link serves it. */
export type LinkRequest = { key: string; options: SignedGetOptions };

function linksOf(store: ObjectStore): Map<string, Signed> {
  let signed = links.get(store);
  if (signed === undefined) {
    signed = new Map();
    links.set(store, signed);
  }
  return signed;
}

/**
 * The links, in the order asked: those signed in the last half minute as they were, the others signed
 * now, together, and when the oldest of them was signed. A page asks once for all of its links, so a page
 * whose links are all fresh waits for nothing.
 */
export async function reusableSignedGetUrls(
  store: ObjectStore,
  now: Date,
  requests: readonly LinkRequest[],
): Promise<{ urls: string[]; signedAt: number }> {
  const signed = linksOf(store);
  const at = now.getTime();
  let oldest = at;
  const urls: string[] = new Array<string>(requests.length);
  const signing: Promise<void>[] = [];
  for (let index = 0; index < requests.length; index += 1) {
    const request = requests[index];
    if (request === undefined) continue;
    const { key, options } = request;
    const id = `${key}\n${variantOf(options)}`;
    const found = signed.get(id);
    // A clock that went back (tests move it) signs again rather than hand out a link from its future.
    if (found !== undefined && at >= found.signedAt && at - found.signedAt < LINK_REUSE_MS) {
      urls[index] = found.url;
      if (found.signedAt < oldest) oldest = found.signedAt;
      continue;
    }
    signing.push(
      store.signedGetUrl(key, options).then((url) => {
        // Links expire on their own; the map is only kept from growing without end.
        if (signed.size >= MAX_LINKS) signed.clear();
        signed.set(id, { url, signedAt: at });
        urls[index] = url;
      }),
    );
  }
  if (signing.length > 0) await Promise.all(signing);
  return { urls, signedAt: oldest };
}
