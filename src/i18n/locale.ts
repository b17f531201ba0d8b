// The interface language: detected once at start-up (spec 001 §1: local storage `locale`, then the
// browser language, then English) and changed by the language choosers. A tiny external store, so
// React reads it with useSyncExternalStore and nothing copies it into component state.
import { loadCatalog, type Catalog } from './messages';

export const LOCALES = ['en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_STORAGE_KEY = 'locale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** 'fr-BE' -> 'fr'; anything we do not translate -> null. */
function toLocale(tag: string | null | undefined): Locale | null {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : null;
}

export function detectLocale(stored: string | null, browserLanguages: readonly string[]): Locale {
  const fromStorage = toLocale(stored);
  if (fromStorage) return fromStorage;
  for (const language of browserLanguages) {
    const fromBrowser = toLocale(language);
    if (fromBrowser) return fromBrowser;
  }
  return DEFAULT_LOCALE;
}

export type LocaleState = { locale: Locale; messages: Catalog | null };

type Listener = () => void;
const listeners = new Set<Listener>();
let current: LocaleState = { locale: DEFAULT_LOCALE, messages: null };

function readStoredLocale(): string | null {
  try {
    return window.localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Private modes may refuse storage: the browser language still applies.
    return null;
  }
}

async function apply(locale: Locale): Promise<void> {
  const messages = await loadCatalog(locale);
  current = { locale, messages };
  document.documentElement.lang = locale;
  for (const listener of listeners) listener();
}

export async function initLocale(): Promise<void> {
  const languages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  await apply(detectLocale(readStoredLocale(), languages));
}

export async function setLocale(locale: Locale): Promise<void> {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not stored: the choice still holds until the page is reloaded.
  }
  if (locale !== current.locale || current.messages === null) await apply(locale);
}

export function getLocaleState(): LocaleState {
  return current;
}

export function subscribeLocale(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
