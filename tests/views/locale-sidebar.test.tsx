// The sidebar's language selector: a choice applies at once, is kept in local storage and is saved to
// the profile; a failed save keeps it on this device and says so. The login page's selector (no
// onChange) shows and keeps a choice without saving it: nobody is signed in.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { LanguageLocale } from '../../machines/language.machine';
import { ApiError } from '../../src/api/errors';
import { languageLogic } from '../../src/app/compose-preferences';
import { AppProviders } from '../../src/app/providers';
import { LanguageSelect } from '../../src/views/language-select';
import { SidebarLanguage } from '../../src/views/shell/sidebar-language';
import { renderView } from './render';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

const saves = { locale: vi.fn(async (_input: { locale: LanguageLocale }) => {}) };

// The app's language actor, with only its profile save faked.
const appLanguageLogic = languageLogic.provide({
  actors: { saveLocale: fromPromise<void, { locale: LanguageLocale }>(({ input }) => saves.locale(input)) },
});

let shell: TestShell;

/** The language on screen, as the shell's language actor owns it. */
const shownLocale = () => shell.getSnapshot().children.language?.getSnapshot().context.locale;

/** The selector in the shell, whose language actor is the app's own (only the profile save is faked). */
function renderSelector() {
  shell = createTestShell({ storedToken: null, language: appLanguageLogic });
  renderView(
    <ShellHarness shell={shell}>
      <SidebarLanguage />
    </ShellHarness>,
  );
  return screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
}

beforeEach(() => {
  window.localStorage.clear();
  saves.locale.mockReset().mockResolvedValue(undefined);
});

describe('sidebar language selector', () => {
  it('offers each language in its own language', () => {
    renderSelector();
    expect(screen.getAllByRole('option').map((option) => [option.textContent, option.lang])).toEqual([
      ['English', 'en'],
      ['Español', 'es'],
      ['Français', 'fr'],
    ]);
  });

  it('applies a choice at once, keeps it locally and saves it to the profile', async () => {
    const user = userEvent.setup();
    const select = renderSelector();
    await user.selectOptions(select, 'fr');
    await waitFor(() => expect(shownLocale()).toBe('fr'));
    expect(document.documentElement.lang).toBe('fr');
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(saves.locale).toHaveBeenCalledWith({ locale: 'fr' });
    expect(select.value).toBe('fr');
    expect(screen.queryByText(/could not be saved to your profile/)).toBeNull();
  });

  it('keeps the language when the profile save fails, and says it was not saved', async () => {
    const user = userEvent.setup();
    saves.locale.mockRejectedValue(new ApiError({ code: 'internal_error', status: 500 }));
    const select = renderSelector();
    await user.selectOptions(select, 'es');
    expect(
      await screen.findByText(
        'Your language is used on this device, but it could not be saved to your profile.',
      ),
    ).toBeVisible();
    await waitFor(() => expect(shownLocale()).toBe('es'));
    expect(window.localStorage.getItem('locale')).toBe('es');

    saves.locale.mockResolvedValue(undefined);
    await user.selectOptions(select, 'en');
    await waitFor(() => expect(screen.queryByText(/could not be saved to your profile/)).toBeNull());
    expect(saves.locale).toHaveBeenLastCalledWith({ locale: 'en' });
  });
});

describe("the login page's language selector", () => {
  it('shows the chosen language at once and keeps it on this device, without a profile save', async () => {
    const user = userEvent.setup();
    shell = createTestShell({ storedToken: null, language: appLanguageLogic });
    // The app's providers: the texts come from the catalog the language actor shows.
    renderView(
      <ShellHarness shell={shell}>
        <AppProviders>
          <LanguageSelect />
        </AppProviders>
      </ShellHarness>,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    const select = await screen.findByRole('combobox', { name: 'Langue' });
    expect((select as HTMLSelectElement).value).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(saves.locale).not.toHaveBeenCalled();
  });
});
