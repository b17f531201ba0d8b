// The shell's part of the composition root (see compose.ts) for the language and the welcome screen:
// both save to the profile (src/services/locale-sync.ts); the shell machine wires them to the session
// and the modal.
import { languageMachine } from '../../machines/language.machine';
import { welcomeMachine } from '../../machines/welcome.machine';
import { setLocale } from '../i18n/locale';
import { decideLocaleForProfile, saveLocale, saveWelcomeScreenWatched } from '../services/locale-sync';

export const languageLogic = languageMachine.provide({
  actors: { saveLocale, decideLocale: decideLocaleForProfile },
  actions: {
    applyLocale: (_, params) => {
      void setLocale(params.locale);
    },
  },
});

export const welcomeLogic = welcomeMachine.provide({ actors: { saveWelcomeScreenWatched } });
