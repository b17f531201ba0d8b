// The welcome screen on first use (spec 000 §1) as the shell runs it: the session's profile decides,
// the modal machine shows it, and closing it by any way saves welcome_screen_watched.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSelector } from '@xstate/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import type { LanguageInput, LanguageLocale } from '../../machines/language.machine';
import type { ModalName } from '../../machines/modal.machine';
import { SAMPLE_PROFILE } from '../samples';
import type { Profile } from '../../machines/types';
import { languageLogic, welcomeLogic } from '../../src/app/compose-preferences';
import { useModalActor } from '../../src/app/modal-context';
import fr from '../../src/i18n/fr.json';
import { readStartLocale } from '../../src/i18n/locale';
import { WelcomeModal } from '../../src/views/welcome/welcome-modal';
import { findOpenDialog, renderView } from './render';
import { createTestShell, ShellHarness, type TestShell } from './shell-harness';

const saves = {
  welcome: vi.fn(async () => {}),
  locale: vi.fn(async (_input: { locale: LanguageLocale }) => {}),
};

// The app's welcome and language actors, with only their profile saves faked.
const appWelcomeLogic = welcomeLogic.provide({
  actors: { saveWelcomeScreenWatched: fromPromise(() => saves.welcome()) },
});
const appLanguageLogic = languageLogic.provide({
  actors: { saveLocale: fromPromise<void, { locale: LanguageLocale }>(({ input }) => saves.locale(input)) },
});

function OpenModal() {
  const name = useSelector(useModalActor(), (snapshot) =>
    snapshot.matches('closed') ? 'none' : snapshot.context.name,
  );
  return <output aria-label="open modal">{name}</output>;
}

const modalOf = (shell: TestShell) => {
  const modal = shell.getSnapshot().children.modal;
  if (!modal) throw new Error('the shell has no modal');
  return modal;
};

/**
 * The shell with the app's welcome and language actors (only their saves are faked): the session reads
 * `profile` when a protected screen asks for it, optionally while another modal is already open.
 */
function renderShell(profile: Profile, openFirst?: ModalName, startLanguage?: LanguageInput) {
  const fetchProfile = vi.fn(async () => profile);
  const shell = createTestShell({
    fetchProfile,
    welcome: appWelcomeLogic,
    language: appLanguageLogic,
    ...(startLanguage ? { startLanguage } : {}),
  });
  if (openFirst) modalOf(shell).send({ type: 'modal.open', name: openFirst });
  shell.getSnapshot().children.session?.send({ type: 'session.require', returnUrl: '/app/documents' });
  renderView(
    <ShellHarness shell={shell}>
      <button type="button">Before</button>
      <OpenModal />
      <WelcomeModal />
    </ShellHarness>,
  );
  return { fetchProfile, shell };
}

const NEW_USER: Profile = { ...SAMPLE_PROFILE, welcomeScreenWatched: false };

beforeEach(() => {
  saves.welcome.mockReset().mockResolvedValue(undefined);
  saves.locale.mockReset().mockResolvedValue(undefined);
});

describe('welcome modal', () => {
  it('opens on first use with three cards, and Escape stores that it was watched', async () => {
    const user = userEvent.setup();
    const { fetchProfile } = renderShell(NEW_USER);
    const dialog = await findOpenDialog('Welcome to Paraph');
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Documents',
      'Signing flows',
      'Answers',
    ]);
    expect(dialog.contains(document.activeElement)).toBe(true);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getByLabelText('open modal').textContent).toBe('none'));
    await waitFor(() => expect(saves.welcome).toHaveBeenCalledTimes(1));
    // The session reads the profile again (its first load, then the refresh).
    await waitFor(() => expect(fetchProfile).toHaveBeenCalledTimes(2));
  });

  it('"Upload a document" closes it, opens the upload modal and stores the flag', async () => {
    const user = userEvent.setup();
    renderShell(NEW_USER);
    await findOpenDialog('Welcome to Paraph');
    await user.click(screen.getByRole('button', { name: 'Upload a document' }));
    await waitFor(() => expect(screen.getByLabelText('open modal').textContent).toBe('documentUpload'));
    await waitFor(() => expect(saves.welcome).toHaveBeenCalledTimes(1));
  });

  it('"Get started" closes it and stores the flag once; it does not open again in this page', async () => {
    const user = userEvent.setup();
    saves.welcome.mockRejectedValue(new Error('offline'));
    const { shell } = renderShell(NEW_USER);
    await findOpenDialog('Welcome to Paraph');
    await user.click(screen.getByRole('button', { name: 'Get started' }));
    await waitFor(() => expect(saves.welcome).toHaveBeenCalledTimes(1));
    // The save failed, so the profile still says false; the page does not show it twice.
    act(() => modalOf(shell).send({ type: 'modal.open', name: 'delete' }));
    act(() => modalOf(shell).send({ type: 'modal.close' }));
    expect(screen.getByLabelText('open modal').textContent).toBe('none');
    expect(saves.welcome).toHaveBeenCalledTimes(1);
  });

  it('does not open for a profile that has watched it', async () => {
    const { fetchProfile } = renderShell({ ...SAMPLE_PROFILE, welcomeScreenWatched: true });
    await waitFor(() => expect(fetchProfile).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
    expect(screen.getByLabelText('open modal').textContent).toBe('none');
  });

  it('waits for another open modal to close, then opens', async () => {
    const { shell } = renderShell(NEW_USER, 'confirm');
    // The profile has reached the shell while the other modal is open: the welcome screen waits.
    await waitFor(() => expect(shell.getSnapshot().context.welcomeScreenWatched).toBe(false));
    await act(async () => {});
    expect(screen.getByLabelText('open modal').textContent).toBe('confirm');
    act(() => modalOf(shell).send({ type: 'modal.close' }));
    await findOpenDialog('Welcome to Paraph');
    expect(saves.welcome).not.toHaveBeenCalled();
  });
});

describe('the profile and the forced locale', () => {
  it('gives the profile a forced locale once the session has one', async () => {
    // A wrapper forced French on an earlier page (the sign-in pages came between): main.tsx reads it.
    window.localStorage.setItem('locale', 'fr');
    window.sessionStorage.setItem('paraph.forcedLocale', 'fr');
    renderShell({ ...SAMPLE_PROFILE, locale: 'en' }, undefined, { ...readStartLocale(), messages: fr });
    await waitFor(() => expect(saves.locale).toHaveBeenCalledWith({ locale: 'fr' }));
    expect(window.sessionStorage.getItem('paraph.forcedLocale')).toBeNull();
    expect(saves.locale).toHaveBeenCalledTimes(1);
  });
});
