// The app's shell actor for view tests: the real shell machine and its real children, with the calls a
// test names (fetchProfile, the document actions, the saves) and harmless fakes for the rest. Views
// rendered inside <ShellHarness> reach the session, the modal, the document actions and the language on
// screen as in the app.
import type { ReactNode } from 'react';
import { createActor, fromPromise, type Actor } from 'xstate';
import { documentActionsMachine } from '../../machines/document-actions.machine';
import { languageMachine, type LanguageCatalog, type LanguageInput } from '../../machines/language.machine';
import { modalMachine } from '../../machines/modal.machine';
import { SAMPLE_PROFILE } from '../samples';
import { sessionMachine } from '../../machines/session.machine';
import { createShellMachine, type ShellParts } from '../../machines/shell.machine';
import type { Profile, TokenGrant } from '../../machines/types';
import { welcomeMachine } from '../../machines/welcome.machine';
import { ShellContext } from '../../src/app/shell-context';
import en from '../../src/i18n/en.json';
import { loadCatalog } from '../../src/i18n/messages';

/** English, as only the browser's languages chose it (the profile's may replace it), as main.tsx reads it. */
export const START_LANGUAGE: LanguageInput = {
  locale: 'en',
  messages: en,
  source: 'browser',
  pendingForProfile: null,
};

export type TestShellOptions = {
  storedToken?: string | null;
  profile?: Profile;
  /** The session's profile read, for a test that counts the reads; `profile` answers otherwise. */
  fetchProfile?: () => Promise<Profile>;
  session?: ShellParts['session'];
  documentActions?: ShellParts['documentActions'];
  welcome?: ShellParts['welcome'];
  language?: ShellParts['language'];
  /** The language read before the first render; English from the browser otherwise. */
  startLanguage?: LanguageInput;
  /** Sends session.require once started, as a protected screen does. */
  requireSession?: boolean;
};

export type TestShell = Actor<ReturnType<typeof createShellMachine>>;

const never = () => new Promise<void>(() => {});

// A shell outlives its view (the session polls the profile): each test's shells stop once its views are
// unmounted, so no timer or call of one test reaches the next. setup.ts calls this after every test of
// every file: a hook registered here would run only in the first file of a worker that loads this module,
// since the view files share their worker's modules.
const started = new Set<TestShell>();
export function stopTestShells(): void {
  for (const shell of started) shell.stop();
  started.clear();
}

export function createTestShell(options: TestShellOptions = {}): TestShell {
  const profile = options.profile ?? SAMPLE_PROFILE;
  const logic = createShellMachine({
    session:
      options.session ??
      sessionMachine.provide({
        actors: {
          fetchProfile: fromPromise(options.fetchProfile ?? (async () => profile)),
          // A sign-in (the /auth route) waits: no test here is about the token exchange.
          fetchToken: fromPromise<TokenGrant>(() => new Promise<never>(() => {})),
        },
      }),
    modal: modalMachine,
    documentActions:
      options.documentActions ??
      documentActionsMachine.provide({ actors: { downloadDocuments: fromPromise(never) } }),
    // The sample profile has seen the welcome screen; a profile that has not would open it, and its save
    // would never answer.
    welcome:
      options.welcome ?? welcomeMachine.provide({ actors: { saveWelcomeScreenWatched: fromPromise(never) } }),
    language:
      options.language ??
      languageMachine.provide({
        actors: {
          saveLocale: fromPromise(never),
          loadCatalog: fromPromise<LanguageCatalog, { locale: LanguageInput['locale'] }>(({ input }) =>
            loadCatalog(input.locale),
          ),
        },
      }),
  });
  // null is a visitor without a stored token; left out, the visitor has one.
  const storedToken = options.storedToken === undefined ? 'token' : options.storedToken;
  const shell = createActor(logic, {
    input: { storedToken, language: options.startLanguage ?? START_LANGUAGE },
  }).start();
  started.add(shell);
  if (options.requireSession) {
    shell.getSnapshot().children.session?.send({ type: 'session.require', returnUrl: '/app/documents' });
  }
  return shell;
}

export function ShellHarness({ shell, children }: { shell: TestShell; children: ReactNode }) {
  return <ShellContext.Provider value={shell}>{children}</ShellContext.Provider>;
}
