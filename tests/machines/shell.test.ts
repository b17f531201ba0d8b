// The shell's wiring, with its real children and fake calls: a document action's dialog, Enter, Esc and
// what a success tells the other actors; the welcome screen's moment; the language lined up once.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { ACTION_SETTLE_MS, documentActionsMachine } from '../../machines/document-actions.machine';
import { languageMachine, type LanguageCatalog, type LanguageLocale } from '../../machines/language.machine';
import { modalMachine } from '../../machines/modal.machine';
import { SAMPLE_PROFILE, sampleDocument } from '../samples';
import { sessionMachine } from '../../machines/session.machine';
import { createShellMachine, type ShellEmitted } from '../../machines/shell.machine';
import type { Profile } from '../../machines/types';
import { welcomeMachine } from '../../machines/welcome.machine';
import { deferred } from './support';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const DOCUMENT = sampleDocument('d1');
const SIGNED = sampleDocument('d2', { state: 'signed' });

function startShell({ profile = SAMPLE_PROFILE }: { profile?: Profile } = {}) {
  const calls = {
    fetchProfile: vi.fn(async () => profile),
    archiveDocument: vi.fn(async (_input: { documentId: string }) => {}),
    download: deferred<void>(),
    saveWelcome: vi.fn(async () => {}),
    loadCatalog: vi.fn(async (input: { locale: LanguageLocale }): Promise<LanguageCatalog> => ({
      'common.language': input.locale,
    })),
  };
  const aligns: unknown[] = [];
  const clock = new SimulatedClock();
  const shell = createActor(
    createShellMachine({
      session: sessionMachine.provide({ actors: { fetchProfile: fromPromise(calls.fetchProfile) } }),
      modal: modalMachine,
      documentActions: documentActionsMachine.provide({
        actors: {
          archiveDocument: fromPromise(({ input }) => calls.archiveDocument(input)),
          downloadDocuments: fromPromise(() => calls.download.promise),
        },
      }),
      welcome: welcomeMachine.provide({
        actors: { saveWelcomeScreenWatched: fromPromise(calls.saveWelcome) },
      }),
      language: languageMachine.provide({
        actors: {
          saveLocale: fromPromise(async () => {}),
          loadCatalog: fromPromise(({ input }) => calls.loadCatalog(input)),
        },
      }),
    }),
    {
      // English from the browser's languages: the first profile's language replaces it.
      input: {
        storedToken: 'token',
        language: { locale: 'en', messages: {}, source: 'browser', pendingForProfile: null },
      },
      clock,
      inspect: (event) => {
        if (event.type === '@xstate.event' && event.event.type === 'language.align') aligns.push(event.event);
      },
    },
  ).start();
  const changes: ShellEmitted[] = [];
  shell.on('documents.changed', (event) => changes.push(event));
  const children = () => {
    const { session, modal, documentActions, welcome, language } = shell.getSnapshot().children;
    if (!session || !modal || !documentActions || !welcome || !language)
      throw new Error('a child is missing');
    return { session, modal, documentActions, welcome, language };
  };
  const signIn = async () => {
    children().session.send({ type: 'session.require', returnUrl: '/app/documents' });
    await flush();
  };
  return { shell, calls, clock, changes, children, signIn, aligns };
}

describe('shell', () => {
  it('starts every long-lived actor under its system id', () => {
    const { shell } = startShell();
    for (const id of ['session', 'modal', 'documentActions', 'welcome', 'language']) {
      expect(shell.system.get(id), id).toBe(shell.getSnapshot().children[id as 'session']);
    }
  });

  it('opens an action’s dialog from the request alone, and Esc drops the request', async () => {
    const { shell, children, signIn } = startShell();
    await signIn();
    shell.send({ type: 'action.request', action: 'archive', documents: [DOCUMENT] });
    expect(children().modal.getSnapshot().context.name).toBe('archive');
    expect(
      children()
        .documentActions.getSnapshot()
        .matches({ dialog: { confirming: 'valid' } }),
    ).toBe(true);

    children().modal.send({ type: 'key.escape' });
    expect(children().modal.getSnapshot().value).toBe('closed');
    expect(children().documentActions.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
    expect(children().documentActions.getSnapshot().context.action).toBeNull();
  });

  it('confirms on Enter; a success refreshes the counters, tells the screens, then closes the dialog', async () => {
    const { shell, calls, clock, changes, children, signIn } = startShell();
    await signIn();
    expect(calls.fetchProfile).toHaveBeenCalledTimes(1);
    shell.send({ type: 'action.request', action: 'archive', documents: [DOCUMENT] });
    children().modal.send({ type: 'key.enter' });
    await flush();
    expect(calls.archiveDocument).toHaveBeenCalledWith({ documentId: 'd1' });
    expect(changes).toEqual([{ type: 'documents.changed' }]);
    expect(calls.fetchProfile).toHaveBeenCalledTimes(2);
    expect(children().modal.getSnapshot().context.name).toBe('archive');

    clock.increment(ACTION_SETTLE_MS);
    await flush();
    expect(children().modal.getSnapshot().value).toBe('closed');
    expect(children().documentActions.getSnapshot().matches({ dialog: 'idle' })).toBe(true);
  });

  it('keeps a new request when another action’s dialog replaces the first', () => {
    const { shell, children } = startShell();
    shell.send({ type: 'action.request', action: 'archive', documents: [DOCUMENT] });
    shell.send({ type: 'action.request', action: 'delete', documents: [DOCUMENT] });
    expect(children().modal.getSnapshot().context.name).toBe('delete');
    expect(children().documentActions.getSnapshot().context.action).toBe('delete');
  });

  it('leaves a modal opened after a download’s progress dialog was closed open when the download ends', async () => {
    const { shell, calls, children } = startShell();
    shell.send({ type: 'action.request', action: 'download', documents: [SIGNED] });
    expect(children().modal.getSnapshot().context.name).toBe('confirm');
    children().modal.send({ type: 'modal.close' });
    children().modal.send({ type: 'modal.open', name: 'documentUpload' });

    calls.download.resolve();
    await flush();
    expect(children().modal.getSnapshot().context.name).toBe('documentUpload');
  });

  it('opens the welcome screen once a new profile is read and no modal is in the way', async () => {
    const { shell, calls, children, signIn } = startShell({
      profile: { ...SAMPLE_PROFILE, welcomeScreenWatched: false },
    });
    children().modal.send({ type: 'modal.open', name: 'documentUpload' });
    await signIn();
    expect(children().modal.getSnapshot().context.name).toBe('documentUpload');
    expect(children().welcome.getSnapshot().value).toBe('waiting');

    children().modal.send({ type: 'modal.close' });
    expect(children().modal.getSnapshot().context.name).toBe('welcome');
    expect(calls.saveWelcome).not.toHaveBeenCalled();

    // However it goes (here, the upload it offers), the welcome screen counts as seen.
    children().modal.send({ type: 'modal.open', name: 'documentUpload' });
    await flush();
    expect(calls.saveWelcome).toHaveBeenCalledTimes(1);
    expect(shell.getSnapshot().context.openModal).toBe('documentUpload');
  });

  it('hands the start language to its language actor and lines it up with the first profile only', async () => {
    const { calls, children, signIn, aligns } = startShell({ profile: { ...SAMPLE_PROFILE, locale: 'fr' } });
    expect(children().language.getSnapshot().context.locale).toBe('en');
    await signIn();
    expect(calls.loadCatalog).toHaveBeenCalledWith({ locale: 'fr' });
    expect(children().language.getSnapshot().context.locale).toBe('fr');
    expect(children().language.getSnapshot().context.messages).toEqual({ 'common.language': 'fr' });
    children().session.send({ type: 'profile.refresh' });
    await flush();
    expect(calls.fetchProfile).toHaveBeenCalledTimes(2);
    expect(aligns).toEqual([{ type: 'language.align', profileLocale: 'fr' }]);
  });

  it('keeps the list’s notice until it is dismissed', () => {
    const { shell } = startShell();
    shell.send({ type: 'notice.show', code: 'invite_not_found' });
    expect(shell.getSnapshot().context.notice).toBe('invite_not_found');
    shell.send({ type: 'notice.dismiss' });
    expect(shell.getSnapshot().context.notice).toBeNull();
  });
});
