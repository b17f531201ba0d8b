// The shell's part of the composition root (see compose.ts) for the language selector and the welcome
// screen: both save to the profile (src/services/locale-sync.ts) and then have the session read it again.
import { languageMachine } from '../../machines/language.machine';
import { welcomeMachine } from '../../machines/welcome.machine';
import { setLocale } from '../i18n/locale';
import { saveLocale, saveWelcomeScreenWatched } from '../services/locale-sync';

type SessionRef = { send: (event: { type: 'profile.refresh' }) => void };
type ModalRef = { send: (event: { type: 'modal.open'; name: string }) => void };

export function composeLanguage(session: SessionRef) {
  return languageMachine.provide({
    actors: { saveLocale },
    actions: {
      applyLocale: (_, params) => {
        void setLocale(params.locale);
      },
      refreshProfile: () => session.send({ type: 'profile.refresh' }),
    },
  });
}

export function composeWelcome(modal: ModalRef, session: SessionRef) {
  return welcomeMachine.provide({
    actors: { saveWelcomeScreenWatched },
    actions: {
      openWelcome: () => modal.send({ type: 'modal.open', name: 'welcome' }),
      refreshProfile: () => session.send({ type: 'profile.refresh' }),
    },
  });
}
