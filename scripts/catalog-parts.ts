// The build ships each language's catalog in two parts (vite.config.ts catalogParts, docs/decisions.md
// "The first screen's bundle"): the messages that the first screen's code names, and the rest. Which
// messages that code names is read from the built code itself, so it cannot go stale: every string that
// is a message id, and every string or template head ending in '.' that begins message ids (an id built
// as `documents.status.${status}` takes every `documents.status.` message). Reading too many costs bytes;
// a message read too few would show as its id, so the rule errs on the side of taking.

// A word of letters, digits, '.', '-' and '_' right after a quote or backtick and right before one (or
// before a template's `${`). Not a tokenizer: each candidate is judged on its own, so a quote inside a
// regular expression or another string cannot shift what the others are taken for.
const CANDIDATE = /(?<=["'`])([A-Za-z][\w.-]*)(?=["'`]|\$\{)/g;

/** The message ids (of `ids`) that `code` names, as a whole string or through a prefix ending in '.'. */
export function messageIdsIn(code: string, ids: readonly string[]): Set<string> {
  const known = new Set(ids);
  const found = new Set<string>();
  for (const [text] of code.matchAll(CANDIDATE)) {
    if (known.has(text)) found.add(text);
    else if (text.endsWith('.')) {
      for (const id of ids) if (id.startsWith(text)) found.add(id);
    }
  }
  return found;
}

export type CatalogParts<T> = { first: Record<string, T>; rest: Record<string, T> };

/** A catalog split into the messages `firstIds` names and the others, each keeping the catalog's order. */
export function splitCatalog<T>(catalog: Record<string, T>, firstIds: ReadonlySet<string>): CatalogParts<T> {
  const first: Record<string, T> = {};
  const rest: Record<string, T> = {};
  for (const [id, message] of Object.entries(catalog)) {
    if (firstIds.has(id)) first[id] = message;
    else rest[id] = message;
  }
  return { first, rest };
}
