// The settings screen's part of the composition root (see compose.ts), loaded with the screen. A saved
// language becomes the interface's at once (spec 001 §4): the shell's language actor shows it without
// saving it again, and the session's profile is read again.
import { fromPromise } from 'xstate';
import { settingsMachine, type Settings } from '../../machines/settings.machine';
import { toErrorCode } from '../../machines/types';
import { goToDocuments } from '../services/navigation';
import { readSettings, saveSettings } from '../services/settings';
import type { ShellActorRef } from './shell-context';

export function composeSettings(shell: ShellActorRef) {
  const children = () => shell.getSnapshot().children;
  return settingsMachine.provide({
    actors: {
      // GET /profiles is a call whose 401 the API client leaves to the session, whose poll ignores it;
      // on this screen an expired session must end as it would after any other call.
      loadSettings: fromPromise<Settings>(async ({ signal }) => {
        try {
          return await readSettings(signal);
        } catch (error) {
          if (toErrorCode(error) === 'unauthorized') {
            children().session?.send({ type: 'session.unauthorized' });
          }
          throw error;
        }
      }),
      saveSettings,
    },
    actions: {
      applyLocale: (_, params) => children().language?.send({ type: 'language.show', locale: params.locale }),
      refreshProfile: () => children().session?.send({ type: 'profile.refresh' }),
      goToDocuments: () => goToDocuments(),
    },
  });
}
