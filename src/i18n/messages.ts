// en.json is the reference catalog: its keys type every message id in the app. Catalogs are loaded on
// demand, so only the language in use is downloaded.
//
// The build ships each catalog in two parts (vite.config.ts catalogParts): the messages the first
// screen's code names, and the rest, which are about 80% of the text. The app starts with the first part
// (loadStartCatalog); the rest is added to that very object before any code loaded on demand runs: the
// build makes every dynamic import in src wait for it (withMessages). react-intl looks a message up when
// it formats it, so the added messages need no new render. Dev and tests load the whole catalog at once.
import type { Locale } from './locale';

type EnglishCatalog = typeof import('./en.json');
export type MessageId = Exclude<keyof EnglishCatalog, 'default'>;
export type Catalog = Record<MessageId, string>;

type CatalogPart = 'first' | 'rest';

// The page's meta tags name each part's file by language ("en=/app/assets/en-first-1a2b.js es=…").
const PART_META: Record<CatalogPart, string> = {
  first: 'paraph-catalogs',
  rest: 'paraph-catalog-rests',
};

async function importPart(part: CatalogPart, locale: Locale): Promise<Partial<Catalog>> {
  const entries = document.querySelector(`meta[name="${PART_META[part]}"]`)?.getAttribute('content') ?? '';
  const url = entries
    .split(' ')
    .find((entry) => entry.startsWith(`${locale}=`))
    ?.slice(locale.length + 1);
  if (!url) throw new Error(`The page names no ${part} part of the ${locale} catalog`);
  const module = (await import(/* @vite-ignore */ url)) as { default: Partial<Catalog> };
  return module.default;
}

/** A whole catalog: a language chosen later, and anything that needs every message at once. */
export async function loadCatalog(locale: Locale): Promise<Catalog> {
  if (import.meta.env.PROD) {
    const [first, rest] = await Promise.all([importPart('first', locale), importPart('rest', locale)]);
    return { ...first, ...rest } as Catalog;
  }
  switch (locale) {
    case 'es':
      return (await import('./es.json')).default;
    case 'fr':
      return (await import('./fr.json')).default;
    default:
      return (await import('./en.json')).default;
  }
}

type StartCatalog = { locale: Locale; messages: Promise<Catalog>; rest: Promise<void> | null };
let announceStartCatalog: (start: StartCatalog) => void = () => {};
// Code may be asked for before the start catalog is (the start-up preload of a screen's code comes
// first): it waits for the start catalog to be asked for, and then for both its parts.
const startCatalog = new Promise<StartCatalog>((resolve) => {
  announceStartCatalog = resolve;
});

/**
 * The catalog of the first render. In the build, the first part only, completed in place before any
 * code loaded on demand runs (withMessages): the first screen's code names no other message.
 */
export async function loadStartCatalog(locale: Locale): Promise<Catalog> {
  if (!import.meta.env.PROD) return loadCatalog(locale);
  // Typed whole: what the start chunk and the list's code ask of it is there, and the rest follows.
  const messages = importPart('first', locale) as Promise<Catalog>;
  announceStartCatalog({ locale, messages, rest: null });
  return messages;
}

async function completeStartCatalog(): Promise<void> {
  const start = await startCatalog;
  start.rest ??= Promise.all([start.messages, importPart('rest', start.locale)]).then(
    ([messages, rest]) => {
      Object.assign(messages, rest);
    },
    (error: unknown) => {
      // The next code loaded on demand asks again.
      start.rest = null;
      throw error;
    },
  );
  return start.rest;
}

/** `load` (a dynamic import), once the start catalog has all its messages. The build applies it. */
export function withMessages<T>(load: Promise<T>): Promise<T> {
  return Promise.all([load, completeStartCatalog()]).then(([module]) => module);
}

declare global {
  // react-intl reads message ids from this global declaration; merging needs `interface` here.
  // eslint-disable-next-line @typescript-eslint/no-namespace -- react-intl's typing hook is this global namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
