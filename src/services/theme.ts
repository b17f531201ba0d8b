// Light or dark (docs/decisions.md "Dark mode ([6/6])"). The preference is this device's own, kept in
// local storage under `theme`: the profile has no field for it. 'system' follows the operating system's
// `prefers-color-scheme`, live. A tiny external store, so React reads it with useSyncExternalStore; the
// snapshots are plain strings, read afresh each time, so another tab's choice and the system's change
// are simply what the next read says once the listeners are told.
import { webDarkTheme, webLightTheme, type Theme } from '@fluentui/react-components';

export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'theme';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

export const FLUENT_THEMES: Record<ResolvedTheme, Theme> = { light: webLightTheme, dark: webDarkTheme };

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

/** A choice that local storage refused (private modes): it still holds until the page is reloaded. */
let unstoredChoice: ThemePreference | null = null;

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getThemePreference(): ThemePreference {
  if (unstoredChoice) return unstoredChoice;
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    // An unknown value means 'system' and is left as it is: a later version may have written it.
    return isThemePreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function systemScheme(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_SCHEME_QUERY) : null;
}

export function resolveTheme(preference: ThemePreference, systemIsDark: boolean): ResolvedTheme {
  if (preference === 'system') return systemIsDark ? 'dark' : 'light';
  return preference;
}

export function getResolvedTheme(): ResolvedTheme {
  return resolveTheme(getThemePreference(), systemScheme()?.matches ?? false);
}

export function setThemePreference(preference: ThemePreference): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, preference);
    unstoredChoice = null;
  } catch {
    unstoredChoice = preference;
  }
  notify();
}

export function subscribeTheme(listener: Listener): () => void {
  listeners.add(listener);
  const scheme = systemScheme();
  scheme?.addEventListener('change', listener);
  // The same device's other tabs: a choice there applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    scheme?.removeEventListener('change', listener);
    window.removeEventListener('storage', onStorage);
  };
}

/**
 * The page around the app follows the theme too: `color-scheme` for native controls and scrollbars, and
 * the background, so no white edge shows on overscroll or while a screen's code loads.
 */
export function paintDocument(theme: ResolvedTheme): void {
  const root = document.documentElement;
  root.style.colorScheme = theme;
  root.style.backgroundColor = FLUENT_THEMES[theme].colorNeutralBackground1;
}

// main.tsx renders only once the catalog has loaded: painting now shows a stored choice from the start.
if (typeof document !== 'undefined') paintDocument(getResolvedTheme());
