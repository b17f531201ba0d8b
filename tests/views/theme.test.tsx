// Dark mode (docs/decisions.md "Dark mode"): the app follows the system's colour scheme, live,
// unless this device chose Light or Dark in settings; the choice applies at once, without Save.
import { readFileSync } from 'node:fs';
import { webDarkTheme, webLightTheme } from '@fluentui/react-components';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { settingsMachine, type Settings } from '../../machines/settings.machine';
import {
  DARK_SCHEME_QUERY,
  getThemePreference,
  PAGE_BACKGROUNDS,
  setThemePreference,
} from '../../src/services/theme';
import { SettingsPage } from '../../src/views/settings/settings-page';
import { renderView } from './render';

/** The operating system's `prefers-color-scheme`, which a test switches while the app runs. */
class SystemScheme extends EventTarget {
  isDark: boolean;
  readonly media = DARK_SCHEME_QUERY;
  onchange: MediaQueryList['onchange'] = null;
  constructor(isDark: boolean) {
    super();
    this.isDark = isDark;
  }
  get matches(): boolean {
    return this.isDark;
  }
  addListener(): void {}
  removeListener(): void {}
  switchTo(isDark: boolean): void {
    this.isDark = isDark;
    this.dispatchEvent(new Event('change'));
  }
}

const originalMatchMedia = window.matchMedia;

function systemIs(scheme: 'dark' | 'light'): SystemScheme {
  const system = new SystemScheme(scheme === 'dark');
  window.matchMedia = (query: string) => (query === DARK_SCHEME_QUERY ? system : originalMatchMedia(query));
  return system;
}

afterEach(() => {
  window.matchMedia = originalMatchMedia;
  document.documentElement.removeAttribute('style');
  vi.restoreAllMocks();
});

function settingsLogic(save = vi.fn(async (settings: Settings) => settings)) {
  return settingsMachine.provide({
    actors: {
      loadSettings: fromPromise<Settings>(async () => ({ locale: 'en', location: 'Leiden' })),
      saveSettings: fromPromise<Settings, Settings>(({ input }) => save(input)),
    },
  });
}

/** What the page around the app shows: the scheme for native controls and the background. */
function pageTheme() {
  const style = document.documentElement.style;
  return { colorScheme: style.colorScheme, background: style.backgroundColor };
}

const DARK_PAGE = { colorScheme: 'dark', background: 'rgb(41, 41, 41)' };
const LIGHT_PAGE = { colorScheme: 'light', background: 'rgb(255, 255, 255)' };

/** The Fluent theme's colours: the provider writes its tokens as CSS variables into a style sheet. */
function fluentBackground(): string | undefined {
  const rules = [...document.styleSheets]
    .flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText))
    .join('\n');
  return /--colorNeutralBackground1:\s*(#[0-9a-f]+)/i.exec(rules)?.[1];
}

describe('the theme follows the system', () => {
  it('is dark on a dark system with no choice made, and follows a change of the system live', async () => {
    const system = systemIs('dark');
    renderView(<SettingsPage logic={settingsLogic()} />, { path: '/settings' });
    expect(await screen.findByRole('radio', { name: 'System' })).toHaveProperty('checked', true);
    // The dark theme's tokens load on demand (the app's start waits for them on a dark page).
    await waitFor(() => expect(pageTheme()).toEqual(DARK_PAGE));
    expect(fluentBackground()).toBe(webDarkTheme.colorNeutralBackground1);

    act(() => system.switchTo(false));
    expect(pageTheme()).toEqual(LIGHT_PAGE);
    expect(fluentBackground()).toBe(webLightTheme.colorNeutralBackground1);
    act(() => system.switchTo(true));
    expect(pageTheme()).toEqual(DARK_PAGE);
    // Following the system stores nothing.
    expect(window.localStorage.getItem('theme')).toBeNull();
  });

  it('treats an unknown stored value as System and leaves it as it is', async () => {
    window.localStorage.setItem('theme', 'sepia');
    const system = systemIs('light');
    renderView(<SettingsPage logic={settingsLogic()} />, { path: '/settings' });
    expect(await screen.findByRole('radio', { name: 'System' })).toHaveProperty('checked', true);
    expect(pageTheme()).toEqual(LIGHT_PAGE);
    act(() => system.switchTo(true));
    expect(pageTheme()).toEqual(DARK_PAGE);
    expect(window.localStorage.getItem('theme')).toBe('sepia');
  });

  it('keeps a stored choice whatever the system says', async () => {
    window.localStorage.setItem('theme', 'light');
    const system = systemIs('dark');
    renderView(<SettingsPage logic={settingsLogic()} />, { path: '/settings' });
    expect(await screen.findByRole('radio', { name: 'Light' })).toHaveProperty('checked', true);
    expect(pageTheme()).toEqual(LIGHT_PAGE);
    act(() => system.switchTo(false));
    act(() => system.switchTo(true));
    expect(pageTheme()).toEqual(LIGHT_PAGE);
  });
});

describe('the switch in settings', () => {
  it('offers System, Light and Dark, applies a choice at once and stores it on this device only', async () => {
    const user = userEvent.setup();
    systemIs('light');
    const save = vi.fn(async (settings: Settings) => settings);
    renderView(<SettingsPage logic={settingsLogic(save)} />, {
      path: '/settings',
    });
    const group = await screen.findByRole('radiogroup', { name: 'Appearance' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['system', 'light', 'dark']);
    for (const [name, value] of [
      ['System', 'system'],
      ['Light', 'light'],
      ['Dark', 'dark'],
    ])
      expect(within(group).getByRole('radio', { name }).getAttribute('value')).toBe(value);
    expect(
      screen.getByText('Applies at once, on this device only. It is not saved to your profile.'),
    ).toBeVisible();

    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(pageTheme()).toEqual(DARK_PAGE);
    expect(window.localStorage.getItem('theme')).toBe('dark');

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(pageTheme()).toEqual(LIGHT_PAGE);
    expect(window.localStorage.getItem('theme')).toBe('light');

    await user.click(screen.getByRole('radio', { name: 'System' }));
    expect(window.localStorage.getItem('theme')).toBe('system');
    expect(pageTheme()).toEqual(LIGHT_PAGE);
    // Not a profile setting: nothing was sent, and the form has nothing new to save.
    expect(save).not.toHaveBeenCalled();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('follows a choice made in another tab of this device', async () => {
    systemIs('light');
    renderView(<SettingsPage logic={settingsLogic()} />, { path: '/settings' });
    await screen.findByRole('radiogroup', { name: 'Appearance' });
    act(() => {
      window.localStorage.setItem('theme', 'dark');
      window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    });
    expect(screen.getByRole('radio', { name: 'Dark' })).toHaveProperty('checked', true);
    expect(pageTheme()).toEqual(DARK_PAGE);
  });

  it('still applies a choice for this page when local storage refuses it', () => {
    systemIs('light');
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    setThemePreference('dark');
    expect(getThemePreference()).toBe('dark');
    vi.restoreAllMocks();
    setThemePreference('system');
    expect(getThemePreference()).toBe('system');
  });
});

describe('before the app has run', () => {
  it('paints a dark system with the dark theme background', () => {
    const css = readFileSync('src/app/global.css', 'utf8');
    const dark = /@media \(prefers-color-scheme: dark\)\s*\{[^}]*background-color:\s*(#[0-9a-f]+)/i.exec(css);
    expect(dark?.[1]).toBe(webDarkTheme.colorNeutralBackground1);
  });

  it("paints the page with each theme's own background", () => {
    expect(PAGE_BACKGROUNDS).toEqual({
      light: webLightTheme.colorNeutralBackground1,
      dark: webDarkTheme.colorNeutralBackground1,
    });
  });
});

describe("the dark theme's tokens", () => {
  // A fresh module each time: the tokens, once loaded, stay for the page.
  async function freshTheme() {
    vi.resetModules();
    return import('../../src/services/theme');
  }

  it('are not loaded for a light page, and the light theme is drawn', async () => {
    systemIs('light');
    const theme = await freshTheme();
    await theme.loadThemeInUse();
    expect(theme.getResolvedTheme()).toBe('light');
    // Asked for dark anyway, the theme is still the light one: nothing dark has arrived.
    expect(theme.fluentTheme('dark').colorNeutralBackground1).toBe(webLightTheme.colorNeutralBackground1);
  });

  it('are there before the first render on a dark page, so the first render is dark', async () => {
    systemIs('dark');
    const theme = await freshTheme();
    await theme.loadThemeInUse();
    expect(theme.getResolvedTheme()).toBe('dark');
    expect(theme.fluentTheme('dark').colorNeutralBackground1).toBe(webDarkTheme.colorNeutralBackground1);
  });

  it('arrive after a switch to dark, and the listeners are told', async () => {
    const system = systemIs('light');
    const theme = await freshTheme();
    const told = vi.fn();
    const unsubscribe = theme.subscribeTheme(told);
    system.switchTo(true);
    // Until the tokens are here the page stays light rather than half dark.
    expect(theme.getResolvedTheme()).toBe('light');
    await waitFor(() => expect(theme.getResolvedTheme()).toBe('dark'));
    expect(told.mock.calls.length).toBeGreaterThanOrEqual(2);
    unsubscribe();
  });
});
