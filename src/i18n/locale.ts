// The interface language: detected once at start-up (spec 001 §1: local storage `locale`, then the
// browser language, then English; a mobile wrapper's `?forceLocale=` before all) and changed by the
// language choosers. A tiny external store, so React reads it with useSyncExternalStore and nothing
// copies it into component state. What reaches the profile: docs/decisions.md "Language, welcome and
// mobile wrappers ([6/6])".
import { loadCatalog, type Catalog } from './messages';

export const LOCALES = ['en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
export const LOCALE_STORAGE_KEY = 'locale';
/** The query parameter mobile wrappers open the app with. */
export const FORCE_LOCALE_PARAM = 'forceLocale';
/** Session storage: a forced locale the profile has not been given yet (it survives the sign-in pages). */
export const FORCED_LOCALE_PENDING_KEY = 'paraph.forcedLocale';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** 'fr-BE' -> 'fr'; anything we do not translate -> null. */
function toLocale(tag: string | null | undefined): Locale | null {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : null;
}

/** A stored value that names no language we translate ('de', 'xx'): bad input, not a missing choice. */
function isUnknownStored(stored: string | null): boolean {
  return stored !== null && stored.trim() !== '' && toLocale(stored) === null;
}

export function detectLocale(stored: string | null, browserLanguages: readonly string[]): Locale {
  const fromStorage = toLocale(stored);
  if (fromStorage) return fromStorage;
  // Issue [6/6] "Bad input": an unknown stored locale means English, as an unknown forced one does.
  if (isUnknownStored(stored)) return DEFAULT_LOCALE;
  for (const language of browserLanguages) {
    const fromBrowser = toLocale(language);
    if (fromBrowser) return fromBrowser;
  }
  return DEFAULT_LOCALE;
}

/** `?forceLocale=`: absent, a language we translate (region tags mapped: 'EN-gb' is en), or unknown. */
export type ForcedLocale = { kind: 'none' } | { kind: 'valid'; locale: Locale } | { kind: 'unknown' };

export function readForcedLocale(search: string): ForcedLocale {
  const value = new URLSearchParams(search).get(FORCE_LOCALE_PARAM);
  if (value === null) return { kind: 'none' };
  const locale = toLocale(value);
  return locale ? { kind: 'valid', locale } : { kind: 'unknown' };
}

export type LocaleState = { locale: Locale; messages: Catalog | null };

/**
 * Where the language on screen came from: a person's choice (stored here, forced, or chosen in this
 * page) or only the browser's languages, which the signed-in profile's locale may replace.
 */
type LocaleSource = 'chosen' | 'forced-unknown' | 'browser';
let source: LocaleSource = 'browser';
let pendingForProfile: Locale | null = null;

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

function storeLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not stored: the choice still holds until the page is reloaded.
  }
}

function rememberForProfile(locale: Locale): void {
  pendingForProfile = locale;
  try {
    window.sessionStorage.setItem(FORCED_LOCALE_PENDING_KEY, locale);
  } catch {
    // Kept in memory only: a signed-in start still gives it to the profile.
  }
}

/** Drops `forceLocale` from the address bar, so that a reload neither applies nor saves it again. */
function removeForceParam(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(FORCE_LOCALE_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export async function initLocale(): Promise<void> {
  const forced = readForcedLocale(window.location.search);
  if (forced.kind === 'valid') {
    storeLocale(forced.locale);
    rememberForProfile(forced.locale);
    removeForceParam();
    source = 'chosen';
    await apply(forced.locale);
    return;
  }
  if (forced.kind === 'unknown') {
    // English for this page; nothing is stored, and the parameter stays so a reload says the same.
    source = 'forced-unknown';
    await apply(DEFAULT_LOCALE);
    return;
  }
  const stored = readStoredLocale();
  // An unknown stored value means English, is left as it is (never rewritten) and, like an unknown forced
  // one, is not replaced by the profile's language: the person sees the fallback the issue names.
  source = toLocale(stored) ? 'chosen' : isUnknownStored(stored) ? 'forced-unknown' : 'browser';
  const languages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  await apply(detectLocale(stored, languages));
}

export async function setLocale(locale: Locale): Promise<void> {
  storeLocale(locale);
  source = 'chosen';
  if (locale !== current.locale || current.messages === null) await apply(locale);
}

/** The forced locale the profile still has to be given, once: null after the first call. */
export function takeLocaleForProfile(): Locale | null {
  let pending = pendingForProfile;
  try {
    const stored = window.sessionStorage.getItem(FORCED_LOCALE_PENDING_KEY);
    window.sessionStorage.removeItem(FORCED_LOCALE_PENDING_KEY);
    pending = pending ?? toLocale(stored);
  } catch {
    // Session storage refused: the memory copy is all there is.
  }
  pendingForProfile = null;
  return pending;
}

/** True while nobody chose a language on this device: the signed-in profile's locale then applies. */
export function followsProfileLocale(): boolean {
  return source === 'browser';
}

export function getLocaleState(): LocaleState {
  return current;
}

export function subscribeLocale(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
