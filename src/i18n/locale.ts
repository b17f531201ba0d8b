// The interface language's pure rules and its start-up read (spec 001 §1: a mobile wrapper's
// `?forceLocale=` before all, then local storage `locale`, then the browser language, then English).
// Nothing here holds the language on screen: the shell's language actor owns it from the first render
// (machines/language.machine.ts); main.tsx reads the start once and hands it over. What reaches the
// profile: docs/decisions.md "Language, welcome and mobile wrappers".

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
  // Bad input: an unknown stored locale means English, as an unknown forced one does.
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

/**
 * Where the language on screen came from: a person's choice (stored here, forced, or chosen in this
 * page), an unknown forced or stored value (English, which nothing replaces), or only the browser's
 * languages, which the signed-in profile's locale may replace.
 */
export type LocaleSource = 'chosen' | 'forced-unknown' | 'browser';

export type StartLocale = {
  locale: Locale;
  source: LocaleSource;
  /** A forced locale the profile has not been given yet (this page's or an earlier one's). */
  pendingForProfile: Locale | null;
};

function readStoredLocale(): string | null {
  try {
    return window.localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    // Private modes may refuse storage: the browser language still applies.
    return null;
  }
}

/** Keeps a language chosen on this device (spec 001 §1's first source after a forced one). */
export function storeChosenLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // Not stored: the choice still holds until the page is reloaded.
  }
}

function readPendingForProfile(): Locale | null {
  try {
    return toLocale(window.sessionStorage.getItem(FORCED_LOCALE_PENDING_KEY));
  } catch {
    return null;
  }
}

function rememberForProfile(locale: Locale): void {
  try {
    window.sessionStorage.setItem(FORCED_LOCALE_PENDING_KEY, locale);
  } catch {
    // Not kept past this page: the language actor still gives it to a profile read in this page.
  }
}

/**
 * The profile was given the forced locale, or already had it: a later page must not give it again.
 * Only then is it dropped, so that it survives the sign-in pages in between.
 */
export function forgetLocaleForProfile(): void {
  try {
    window.sessionStorage.removeItem(FORCED_LOCALE_PENDING_KEY);
  } catch {
    // Session storage refused: nothing was kept there either.
  }
}

/** Drops `forceLocale` from the address bar, so that a reload neither applies nor saves it again. */
function removeForceParam(): void {
  const url = new URL(window.location.href);
  url.searchParams.delete(FORCE_LOCALE_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * The language to start with, read once before the first render. A valid forced locale is stored,
 * kept for the profile in session storage and removed from the address bar, as a choice would be.
 */
export function readStartLocale(): StartLocale {
  const forced = readForcedLocale(window.location.search);
  if (forced.kind === 'valid') {
    storeChosenLocale(forced.locale);
    rememberForProfile(forced.locale);
    removeForceParam();
    return { locale: forced.locale, source: 'chosen', pendingForProfile: forced.locale };
  }
  const pendingForProfile = readPendingForProfile();
  if (forced.kind === 'unknown') {
    // English for this page; nothing is stored, and the parameter stays so a reload says the same.
    return { locale: DEFAULT_LOCALE, source: 'forced-unknown', pendingForProfile };
  }
  const stored = readStoredLocale();
  // An unknown stored value means English, is left as it is (never rewritten) and, like an unknown forced
  // one, is not replaced by the profile's language: the person sees the fallback the issue names.
  const source = toLocale(stored) ? 'chosen' : isUnknownStored(stored) ? 'forced-unknown' : 'browser';
  const languages = navigator.languages.length > 0 ? navigator.languages : [navigator.language];
  return { locale: detectLocale(stored, languages), source, pendingForProfile };
}
