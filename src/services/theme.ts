// Light or dark (docs/decisions.md "Dark mode"). The preference is this device's own, kept in
// local storage under `theme`: the profile has no field for it. 'system' follows the operating system's
// `prefers-color-scheme`, live. A tiny external store, so React reads it with useSyncExternalStore; the
// snapshots are plain strings, read afresh each time, so another tab's choice and the system's change
// are simply what the next read says once the listeners are told.
// The dark theme's tokens load only where dark is in effect (src/services/dark-theme.ts): main.tsx waits
// for them before the first render on a dark page, and a later switch to dark applies once they are here.
import type { Theme } from '@fluentui/react-components';
import { webLightTheme } from './light-theme';

export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'theme';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

/**
 * What the page around the app shows, also before the app's code has run: webDarkTheme's and
 * webLightTheme's colorNeutralBackground1 (src/app/early-start-script.js and global.css repeat them;
 * tests/views/theme.test.tsx keeps them equal).
 */
export const PAGE_BACKGROUNDS: Record<ResolvedTheme, string> = { light: '#ffffff', dark: '#292929' };

let darkTheme: Theme | null = null;
let darkThemeLoad: Promise<void> | null = null;

/** Loads the dark theme once; the listeners are told when it has arrived. */
export function loadDarkTheme(): Promise<void> {
  darkThemeLoad ??= import('./dark-theme').then(
    (module) => {
      darkTheme = module.webDarkTheme;
      notify();
    },
    (error: unknown) => {
      // The page stays light; the next switch to dark tries again.
      darkThemeLoad = null;
      throw error;
    },
  );
  return darkThemeLoad;
}

/** The Fluent theme for a resolved theme; light until the dark one has loaded. */
export function fluentTheme(theme: ResolvedTheme): Theme {
  return theme === 'dark' && darkTheme !== null ? darkTheme : webLightTheme;
}

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

/** The theme the preference and the system ask for, whether or not its tokens are here yet. */
export function getWantedTheme(): ResolvedTheme {
  return resolveTheme(getThemePreference(), systemScheme()?.matches ?? false);
}

/** The theme on screen: dark only once its tokens are here (asking for them when they are not). */
export function getResolvedTheme(): ResolvedTheme {
  if (getWantedTheme() === 'light') return 'light';
  if (darkTheme !== null) return 'dark';
  loadDarkTheme().catch((error: unknown) => console.error('The dark theme could not be loaded', error));
  return 'light';
}

/** Before the first render: a dark page waits for the dark theme, so nothing is ever drawn light. */
export async function loadThemeInUse(): Promise<void> {
  if (getWantedTheme() === 'dark') await loadDarkTheme().catch(() => undefined);
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
  root.style.backgroundColor = PAGE_BACKGROUNDS[theme];
}

// Painted once the module runs too, for a page the start-up script did not paint (the dev server's).
if (typeof document !== 'undefined') paintDocument(getWantedTheme());
