import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { settingsMachine, type Settings } from '../../machines/settings.machine';
import { ApiError } from '../../src/api/errors';
import { SettingsPage } from '../../src/views/settings/settings-page';
import { renderView } from './render';

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
  return { logic, saveSettings, applyLocale, refreshProfile, goToDocuments };
}

async function form() {
  const language = await screen.findByRole('combobox', { name: 'Language' });
  const location = screen.getByRole('textbox', { name: 'Default signing location' });
  return { language: language as HTMLSelectElement, location: location as HTMLInputElement };
}

describe('settings page', () => {
  it('starts from the stored language and location, each language named in itself', async () => {
    const { logic } = settingsWith();
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
    const { language, location } = await form();
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    expect(language.value).toBe('es');
    expect(location.value).toBe('Leiden');
    const options = screen.getAllByRole('option').map((option) => [option.textContent, option.lang]);
    expect(options).toEqual([
      ['English', 'en'],
      ['Español', 'es'],
      ['Français', 'fr'],
    ]);
    expect(document.title).toBe('Settings · Paraph');
  });

  it('saves the trimmed location, says so, and asks for the saved language', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, applyLocale, refreshProfile } = settingsWith();
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
    const { language, location } = await form();
    await user.selectOptions(language, 'fr');
    await user.clear(location);
    await user.type(location, '  Den Haag  ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Your settings have been saved.')).toBeTruthy();
    expect(saveSettings).toHaveBeenCalledWith({ locale: 'fr', location: 'Den Haag' });
    expect(applyLocale).toHaveBeenCalledWith('fr');
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(location.value).toBe('Den Haag');
    expect(screen.getByRole('status').textContent).toContain('Your settings have been saved.');
  });

  it('shows the error and keeps what was typed when the save fails', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings, applyLocale } = settingsWith(async () => {
      throw new ApiError({ code: 'server', status: 500 });
    });
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
    const { language, location } = await form();
    await user.selectOptions(language, 'en');
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
    const { logic } = settingsWith(
      () =>
        new Promise<Settings>((resolve) => {
          finish = resolve;
        }),
    );
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
    const { location } = await form();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const saving = await screen.findByRole('button', { name: 'Saving…' });
    expect(saving.hasAttribute('disabled')).toBe(true);
    expect(location.disabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
    finish({ locale: 'es', location: 'Leiden' });
    expect(await screen.findByText('Your settings have been saved.')).toBeTruthy();
  });

  it('refuses a location over 128 characters with a message, and Save is disabled', async () => {
    const user = userEvent.setup();
    const { logic, saveSettings } = settingsWith();
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
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
    const { logic, saveSettings, goToDocuments } = settingsWith();
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
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
    renderView(<SettingsPage logic={logic} />, { path: '/settings' });
    expect((await screen.findByRole('alert')).textContent).toContain('Your settings could not be loaded.');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    const { language, location } = await form();
    expect(language.value).toBe('fr');
    expect(location.value).toBe('Lyon');
  });
});
