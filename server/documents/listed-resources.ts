// A list page's documents as the JSON of their resources. Each is kept, per process, as it was last written
// for a person, and written again only when something it shows has moved: the document's version
// (migration 0016), the names and addresses ('*' in document_list_counts), whether the person archived
// it, or the age of its links (link-cache.ts). A page read anew after one of a person's documents changed
// (and the page itself could not be reused, handlers/documents.ts) then reads and writes that one
// document, not twenty.
//
// Each is kept as UTF-8 bytes, encoded once: a page is then those bytes put together, which the socket takes
// as they are, instead of text encoded again for every request (the most of a page's cost once its
// statement ran, names with accents included).
import type { Kysely } from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { linksStillFresh } from '../storage/link-cache.ts';
import type { ListedDocument, ListState } from './list-query.ts';
import { serializeShownDocuments } from './serialize.ts';
import { readShownDocuments } from './shown.ts';

type Kept = { version: string; names: number; archived: boolean; signedAt: number; json: Buffer };
type KeptResources = { resources: Map<string, Kept>; bytes: number };

// Per database: tests and benchmarks run several in one process.
const keptByDatabase = new WeakMap<Kysely<Database>, KeptResources>();

function keptOf(db: Kysely<Database>): KeptResources {
  let kept = keptByDatabase.get(db);
  if (kept === undefined) {
    kept = { resources: new Map(), bytes: 0 };
    keptByDatabase.set(db, kept);
  }
  return kept;
}

function forget(kept: KeptResources, key: string, entry: Kept): void {
  kept.resources.delete(key);
  kept.bytes -= entry.json.length;
}

// The least recently used go first once the JSON outgrows the budget.
function keep(kept: KeptResources, key: string, entry: Kept, budgetBytes: number): void {
  const previous = kept.resources.get(key);
  if (previous !== undefined) forget(kept, key, previous);
  kept.resources.set(key, entry);
  kept.bytes += entry.json.length;
  for (const [oldest, old] of kept.resources) {
    if (kept.bytes <= budgetBytes) break;
    forget(kept, oldest, old);
  }
}

const versionOf = (value: ListedDocument['version']): string | null =>
  value === null ? null : String(value);

/**
 * The JSON of each document's resource for the viewer (UTF-8), in the page's order (a document deleted since
 * the page was read is left out), and when the oldest of their links was signed.
 */
export async function listedResources(
  deps: AppDeps,
  viewer: AuthUser,
  page: readonly ListedDocument[],
  state: ListState,
): Promise<{ json: Buffer[]; signedAt: number }> {
  const now = deps.clock().getTime();
  const budget = deps.config.documentCacheBytes;
  const kept = keptOf(deps.db);
  const json: (Buffer | null)[] = new Array<Buffer | null>(page.length).fill(null);
  let signedAt = now;
  const missing: number[] = [];
  for (let index = 0; index < page.length; index += 1) {
    const listed = page[index];
    if (listed === undefined) continue;
    const key = `${viewer.id}\n${listed.id}`;
    const found = budget === 0 ? undefined : kept.resources.get(key);
    if (found !== undefined) {
      if (
        found.version === versionOf(listed.version) &&
        found.names === state.names &&
        found.archived === Boolean(listed.archived) &&
        linksStillFresh(found.signedAt, now)
      ) {
        // Most recently used last.
        kept.resources.delete(key);
        kept.resources.set(key, found);
        json[index] = found.json;
        if (found.signedAt < signedAt) signedAt = found.signedAt;
        continue;
      }
      forget(kept, key, found);
    }
    missing.push(index);
  }
  if (missing.length > 0) {
    const ids = missing.map((index) => page[index]?.id ?? '');
    const rows = await readShownDocuments(deps, viewer, ids);
    const found = missing.flatMap((index) => {
      const row = rows.get(page[index]?.id ?? '');
      return row === undefined ? [] : [{ index, row }];
    });
    const written = await serializeShownDocuments(
      deps,
      found.map(({ row }) => row),
      viewer,
    );
    if (written.signedAt < signedAt) signedAt = written.signedAt;
    for (const [at, { index, row }] of found.entries()) {
      const text = Buffer.from(JSON.stringify(written.resources[at]));
      json[index] = text;
      const version = versionOf(row.version);
      // A document without a version (none should be) is written every time.
      if (budget > 0 && version !== null) {
        const entry = {
          version,
          names: state.names,
          archived: Boolean(row.archived),
          signedAt: written.signedAt,
          json: text,
        };
        keep(kept, `${viewer.id}\n${row.id}`, entry, budget);
      }
    }
  }
  return { json: json.filter((text) => text !== null), signedAt };
}
