import type { ReactElement } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { LanguageLocale } from '../../machines/language.machine';
import type { Settings } from '../../machines/settings.machine';
import { ApiError } from '../../src/api/errors';
import { composeSettings } from '../../src/app/compose-settings';
import { languageLogic } from '../../src/app/compose-preferences';
import en from '../../src/i18n/en.json';
import fr from '../../src/i18n/fr.json';
import { LOCALE_STORAGE_KEY } from '../../src/i18n/locale';
import { SettingsPage } from '../../src/views/settings/settings-page';
import { isDisabled, renderView } from './render';
import { createTestShell, ShellHarness, START_LANGUAGE, type TestShell } from './shell-harness';

const saves = { locale: vi.fn(async (_input: { locale: LanguageLocale }) => {}) };

// The app's language actor, with only its profile save faked.
const appLanguageLogic = languageLogic.provide({
  actors: { saveLocale: fromPromise<void, { locale: LanguageLocale }>(({ input }) => saves.locale(input)) },
});

// Each test's shell owns the language on screen, with the app's language actor; English to start with.
let shell: TestShell;

beforeEach(() => {
  window.localStorage.clear();
  saves.locale.mockReset().mockResolvedValue(undefined);
  shell = createTestShell({ storedToken: null, language: appLanguageLogic });
});

function languageActor() {
  const language = shell.getSnapshot().children.language;
  if (!language) throw new Error('the shell has no language actor');
  return language;
}

/** The language on screen, as the shell's language actor and this device keep it. */
function languageOnScreen() {
  return {
    locale: languageActor().getSnapshot().context.locale,
    lang: document.documentElement.lang,
    stored: window.localStorage.getItem(LOCALE_STORAGE_KEY),
  };
}

/** Another language shown while the page is open, as the sidebar's selector does, once its catalog is in. */
async function showElsewhere(locale: LanguageLocale) {
  languageActor().send({ type: 'language.show', locale });
  await waitFor(() => expect(languageOnScreen().locale).toBe(locale));
}

function renderSettings(page: ReactElement) {
  return renderView(<ShellHarness shell={shell}>{page}</ShellHarness>, { path: '/settings' });
}

function settingsWith(
  save: (settings: Settings) => Promise<Settings> = async (settings) => settings,
  load: () => Promise<Settings> = async () => ({ locale: 'es', location: 'Leiden' }),
) {
  const saveSettings = vi.fn(save);
  const refreshProfile = vi.fn();
  const goToDocuments = vi.fn();
  // As the app composes it (compose-settings.ts): a saved language is shown by the shell's language actor.
  const logic = composeSettings(shell).provide({
    actors: {
      loadSettings: fromPromise<Settings>(() => load()),
      saveSettings: fromPromise<Settings, Settings>(({ input }) => saveSettings(input)),
    },
    actions: { refreshProfile, goToDocuments },
  });
  return { logic, saveSettings, refreshProfile, goToDocuments };
}

async function form() {
  const language = await screen.findByRole('combobox', { name: 'Language' });
  const location = screen.getByRole('textbox', { name: 'Default signing location' });
  return { language: language as HTMLSelectElement, location: location as HTMLInputElement };
}

describe('settings page', () => {
  it('starts from the language on screen and the stored location, each language named in itself', async () => {
    // This device chose French; the profile still says Spanish (another device's choice).
    shell = createTestShell({
      storedToken: null,
      language: appLanguageLogic,
      startLanguage: { ...START_LANGUAGE, locale: 'fr', messages: fr, source: 'chosen' },
    });
    const { logic } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { language, location } = await form();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    expect(language.value).toBe('fr');
    expect(location.value).toBe('Leiden');
    const options = screen.getAllByRole('option').map((option) => [option.textContent, option.lang]);
    expect(options).toEqual([
      ['English', 'en'],
      ['Español', 'es'],
      ['Français', 'fr'],
    ]);
    expect(document.title).toBe('Settings · Paraph');
  });

  it('saves the trimmed location with the language on screen, says so, and keeps that language', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, refreshProfile } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { location } = await form();
    await user.clear(location);
    await user.type(location, '  Den Haag  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Your settings have been saved.')).toBeVisible();
    // English is on screen, not the profile's Spanish: saving must not switch the screen back.
    expect(saveSettings).toHaveBeenCalledWith({ locale: 'en', location: 'Den Haag' });
    await waitFor(() => expect(languageOnScreen()).toEqual({ locale: 'en', lang: 'en', stored: 'en' }));
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(location.value).toBe('Den Haag');
    expect(screen.getByRole('status').textContent).toContain('Your settings have been saved.');
  });

  it('shows the error and keeps what was typed when the save fails', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings } = settingsWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    renderSettings(<SettingsPage logic={logic} />);
    const { language, location } = await form();
    const before = languageOnScreen();
    await user.clear(location);
    await user.type(location, 'Rotterdam');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Changes to your settings could not be saved. Please try saving again.',
    );
    expect(language.value).toBe('en');
    expect(location.value).toBe('Rotterdam');
    expect(languageOnScreen()).toEqual(before);
    // Saving again is possible at once.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledTimes(2));
  });

  it('is busy while saving: Save says so and nothing can change', async () => {
    const user = userEvent.setup();
    let finish: (settings: Settings) => void = () => {};
    const { logic } = settingsWith(
      () =>
        new Promise<Settings>((resolve) => {
          finish = resolve;
        }),
    );
    renderSettings(<SettingsPage logic={logic} />);
    const { location } = await form();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const saving = await screen.findByRole('button', { name: 'Saving…' });
    expect(isDisabled(saving)).toBe(true);
    expect(location.disabled).toBe(true);
    expect(isDisabled(screen.getByRole('button', { name: 'Cancel' }))).toBe(true);
    // The server answers what was saved: the language on screen.
    finish({ locale: 'en', location: 'Leiden' });
    expect(await screen.findByText('Your settings have been saved.')).toBeVisible();
  });

  it('refuses a location over 128 characters with a message, and Save is disabled', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { location } = await form();
    await user.clear(location);
    await user.click(location);
    await user.paste('x'.repeat(129));
    expect(await screen.findByText('The location must be at most 128 characters long.')).toBeVisible();
    expect(isDisabled(screen.getByRole('button', { name: 'Save' }))).toBe(true);
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('Cancel goes back to the documents without saving', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, goToDocuments } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { location } = await form();
    await user.type(location, ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(goToDocuments).toHaveBeenCalledTimes(1);
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const { logic } = settingsWith(undefined, async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiError({ code: 'network', status: 0 });
      return { locale: 'fr', location: 'Lyon' };
    });
    renderSettings(<SettingsPage logic={logic} />);
    expect((await screen.findByRole('alert')).textContent).toContain('Your settings could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const { language, location } = await form();
    expect(language.value).toBe('en');
    expect(location.value).toBe('Lyon');
  });
});

describe("settings' language field", () => {
  it('a choice applies only on Save: until then the screen keeps its language', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, refreshProfile } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { language } = await form();
    const before = languageOnScreen();
    const descriptions = (language.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(descriptions).toContain('Applies when you save. It is saved to your profile.');
    await user.selectOptions(language, 'fr');

    expect(language.value).toBe('fr');
    expect(languageOnScreen()).toEqual(before);
    expect(saveSettings).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(languageOnScreen()).toEqual({ locale: 'fr', lang: 'fr', stored: 'fr' }));
    expect(languageActor().getSnapshot().context.messages).toEqual(fr);
    expect(saveSettings).toHaveBeenCalledWith({ locale: 'fr', location: 'Leiden' });
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(language.value).toBe('fr');
    // The settings' save gave the profile its language: the language actor does not save it again.
    expect(saves.locale).not.toHaveBeenCalled();
  });

  it('Cancel leaves the language as it was, and saves nothing', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, goToDocuments } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { language } = await form();
    const before = languageOnScreen();
    await user.selectOptions(language, 'es');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(goToDocuments).toHaveBeenCalledTimes(1);
    expect(languageOnScreen()).toEqual(before);
    expect(languageActor().getSnapshot().context.messages).toEqual(en);
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('a failed save leaves the language as it was and keeps the choice in the form', async () => {
    const user = userEvent.setup();
    const { logic } = settingsWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    renderSettings(<SettingsPage logic={logic} />);
    const { language } = await form();
    const before = languageOnScreen();
    await user.selectOptions(language, 'fr');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Changes to your settings could not be saved. Please try saving again.',
    );
    expect(languageOnScreen()).toEqual(before);
    expect(languageActor().getSnapshot().value).toBe('idle');
    expect(language.value).toBe('fr');
  });

  it('follows a language chosen elsewhere while it is open (the sidebar), and Save keeps that one', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { language } = await form();
    await showElsewhere('fr');
    await waitFor(() => expect(language.value).toBe('fr'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledWith({ locale: 'fr', location: 'Leiden' }));
  });

  it('keeps a choice made in the form when the language changes elsewhere', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings } = settingsWith();
    renderSettings(<SettingsPage logic={logic} />);
    const { language } = await form();
    await user.selectOptions(language, 'es');
    await showElsewhere('fr');
    expect(language.value).toBe('es');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledWith({ locale: 'es', location: 'Leiden' }));
    await waitFor(() => expect(languageOnScreen().locale).toBe('es'));
  });
});
