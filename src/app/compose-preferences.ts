// The shell's part of the composition root (see compose.ts) for the language and the welcome screen:
// the language actor's catalogs, this device's storage and <html lang>; both actors save to the profile
// (src/services/locale-sync.ts). The shell machine wires them to the session and the modal.
import { fromPromise } from 'xstate';
import { languageMachine, type LanguageCatalog } from '../../machines/language.machine';
import { welcomeMachine } from '../../machines/welcome.machine';
import { forgetLocaleForProfile, storeChosenLocale, type Locale } from '../i18n/locale';
import { loadCatalog } from '../i18n/messages';
import { saveLocale, saveWelcomeScreenWatched } from '../services/locale-sync';

export const languageLogic = languageMachine.provide({
  actors: {
    saveLocale,
    loadCatalog: fromPromise<LanguageCatalog, { locale: Locale }>(({ input }) => loadCatalog(input.locale)),
  },
  actions: {
    markDocumentLanguage: (_, params) => {
      document.documentElement.lang = params.locale;
    },
    storeLocale: (_, params) => storeChosenLocale(params.locale),
    forgetPendingForProfile: () => forgetLocaleForProfile(),
  },
});

export const welcomeLogic = welcomeMachine.provide({ actors: { saveWelcomeScreenWatched } });
