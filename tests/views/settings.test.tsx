import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { languageMachine, type LanguageLocale } from '../../machines/language.machine';
import { settingsMachine, type Settings } from '../../machines/settings.machine';
import { ApiError } from '../../src/api/errors';
import { getLocaleState, setLocale } from '../../src/i18n/locale';
import { SettingsPage } from '../../src/views/settings/settings-page';
import { renderView } from './render';

/** The language field's actor as the app composes it (compose-preferences.ts), the profile save faked. */
function languageWith(save: (input: { locale: LanguageLocale }) => Promise<void> = async () => {}) {
  const saveLocale = vi.fn(save);
  const languageRefreshesProfile = vi.fn();
  const languageLogic = languageMachine.provide({
    actors: { saveLocale: fromPromise<void, { locale: LanguageLocale }>(({ input }) => saveLocale(input)) },
    actions: {
      applyLocale: (_, params) => {
        void setLocale(params.locale);
      },
      refreshProfile: languageRefreshesProfile,
    },
  });
  return { languageLogic, saveLocale, languageRefreshesProfile };
}

// The language on screen is the app's one store: each test starts in English.
afterEach(async () => {
  await setLocale('en');
});

function settingsWith(
  save: (settings: Settings) => Promise<Settings> = async (settings) => settings,
  load: () => Promise<Settings> = async () => ({ locale: 'es', location: 'Leiden' }),
) {
  const saveSettings = vi.fn(save);
  const applyLocale = vi.fn();
  const refreshProfile = vi.fn();
  const goToDocuments = vi.fn();
  const logic = settingsMachine.provide({
    actors: {
      loadSettings: fromPromise<Settings>(() => load()),
      saveSettings: fromPromise<Settings, Settings>(({ input }) => saveSettings(input)),
    },
    actions: {
      applyLocale: (_, params) => applyLocale(params.locale),
      refreshProfile,
      goToDocuments,
    },
  });
  return { logic, ...languageWith(), saveSettings, applyLocale, refreshProfile, goToDocuments };
}

async function form() {
  const language = await screen.findByRole('combobox', { name: 'Language' });
  const location = screen.getByRole('textbox', { name: 'Default signing location' });
  return { language: language as HTMLSelectElement, location: location as HTMLInputElement };
}

describe('settings page', () => {
  it('starts from the language on screen and the stored location, each language named in itself', async () => {
    // This device chose French; the profile still says Spanish (another device's choice).
    await setLocale('fr');
    const { logic, languageLogic } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { language, location } = await form();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
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

  it('saves the trimmed location with the language on screen, says so, and asks for that language', async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveSettings, applyLocale, refreshProfile } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { location } = await form();
    await user.clear(location);
    await user.type(location, '  Den Haag  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Your settings have been saved.')).toBeTruthy();
    // English is on screen, not the profile's Spanish: saving must not switch the screen back.
    expect(saveSettings).toHaveBeenCalledWith({ locale: 'en', location: 'Den Haag' });
    expect(applyLocale).toHaveBeenCalledWith('en');
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(location.value).toBe('Den Haag');
    expect(screen.getByRole('status').textContent).toContain('Your settings have been saved.');
  });

  it('shows the error and keeps what was typed when the save fails', async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveSettings, applyLocale } = settingsWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { language, location } = await form();
    await user.clear(location);
    await user.type(location, 'Rotterdam');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(
      'Changes to your settings could not be saved. Please try saving again.',
    );
    expect(language.value).toBe('en');
    expect(location.value).toBe('Rotterdam');
    expect(applyLocale).not.toHaveBeenCalled();
    // Saving again is possible at once.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledTimes(2));
  });

  it('is busy while saving: Save says so and nothing can change', async () => {
    const user = userEvent.setup();
    let finish: (settings: Settings) => void = () => {};
    const { logic, languageLogic } = settingsWith(
      () =>
        new Promise<Settings>((resolve) => {
          finish = resolve;
        }),
    );
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { location } = await form();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const saving = await screen.findByRole('button', { name: 'Saving…' });
    expect(saving.hasAttribute('disabled')).toBe(true);
    expect(location.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    // The server answers what was saved: the language on screen.
    finish({ locale: 'en', location: 'Leiden' });
    expect(await screen.findByText('Your settings have been saved.')).toBeTruthy();
  });

  it('refuses a location over 128 characters with a message, and Save is disabled', async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveSettings } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { location } = await form();
    await user.clear(location);
    await user.click(location);
    await user.paste('x'.repeat(129));
    expect(await screen.findByText('The location must be at most 128 characters long.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('Cancel goes back to the documents without saving', async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveSettings, goToDocuments } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { location } = await form();
    await user.type(location, ' changed');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(goToDocuments).toHaveBeenCalledTimes(1);
    expect(saveSettings).not.toHaveBeenCalled();
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const { logic, languageLogic } = settingsWith(undefined, async () => {
      attempts += 1;
      if (attempts === 1) throw new ApiError({ code: 'network', status: 0 });
      return { locale: 'fr', location: 'Lyon' };
    });
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    expect((await screen.findByRole('alert')).textContent).toContain('Your settings could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const { language, location } = await form();
    expect(language.value).toBe('en');
    expect(location.value).toBe('Lyon');
  });
});

describe("settings' language field", () => {
  it("applies a choice at once, keeps it on this device and saves it to the profile, as the sidebar's does", async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveLocale, languageRefreshesProfile, saveSettings } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { language } = await form();
    await user.selectOptions(language, 'es');

    await waitFor(() => expect(getLocaleState().locale).toBe('es'));
    expect(window.localStorage.getItem('locale')).toBe('es');
    expect(saveLocale).toHaveBeenCalledWith({ locale: 'es' });
    await waitFor(() => expect(languageRefreshesProfile).toHaveBeenCalledTimes(1));
    expect(language.value).toBe('es');
    // No Save needed for the language; a later Save keeps it.
    expect(saveSettings).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledWith({ locale: 'es', location: 'Leiden' }));
  });

  it('follows a language chosen elsewhere while it is open (the sidebar), and Save keeps that one', async () => {
    const user = userEvent.setup();
    const { logic, languageLogic, saveSettings } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={languageLogic} />, { path: '/settings' });
    const { language } = await form();
    await setLocale('fr');
    await waitFor(() => expect(language.value).toBe('fr'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saveSettings).toHaveBeenCalledWith({ locale: 'fr', location: 'Leiden' }));
  });

  it('keeps the language when the profile save fails, and says it was not saved', async () => {
    const user = userEvent.setup();
    const failing = languageWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    const { logic } = settingsWith();
    renderView(<SettingsPage logic={logic} languageLogic={failing.languageLogic} />, { path: '/settings' });
    const { language } = await form();
    await user.selectOptions(language, 'fr');
    expect(
      await screen.findByText(
        'Your language is used on this device, but it could not be saved to your profile.',
      ),
    ).toBeTruthy();
    expect(getLocaleState().locale).toBe('fr');
    expect(language.value).toBe('fr');
    expect(failing.languageRefreshesProfile).not.toHaveBeenCalled();
  });
});
