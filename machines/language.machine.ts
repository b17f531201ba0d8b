// The interface language (spec 000 §1, spec 001 §1 and §4): this actor owns the language on screen and
// its catalog from the first render on; the app's providers and the language selectors read them here.
// It starts from what main.tsx read before the first render (a forced locale, local storage, the browser)
// with that language's catalog already loaded, handed over by the shell. A language asked for loads its
// catalog (loadCatalog), then shows it: the context switches, <html lang> follows (markDocumentLanguage)
// and local storage keeps it (storeLocale). `language.choose` (the sidebar) then saves it to the profile
// (PATCH /profiles/update_settings settings.locale); `language.show` (the login page, where nobody is
// signed in, and a Save in settings, which saved it already) does not. A failed save keeps the language
// on this device and says so (tag error) until the next language. A catalog that cannot load leaves
// the language on screen as it was. Once per page, when the first profile arrives, the shell asks it to
// line up with the profile's (language.align): a forced locale the profile lacks is saved to it, once;
// otherwise, if only the browser's languages chose (source 'browser'), the profile's is shown. One actor
// for the app's lifetime, a child of the shell (docs/decisions.md "Language, welcome and mobile wrappers").
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode } from './types.ts';

export type LanguageLocale = components['schemas']['Locale'];
/** The interface's texts in one language, by message id (src/i18n/*.json). */
export type LanguageCatalog = Record<string, string>;
/**
 * Where the language on screen came from: a person's choice (stored on this device, forced, or chosen
 * in this page), an unknown forced or stored value (English, which nothing replaces), or only the
 * browser's languages, which the signed-in profile's locale may replace.
 */
export type LanguageSource = 'chosen' | 'forced-unknown' | 'browser';

/** The start, read before the first render (src/i18n/locale.ts readStartLocale) with its catalog. */
export type LanguageInput = {
  locale: LanguageLocale;
  messages: LanguageCatalog;
  source: LanguageSource;
  /** A forced locale the profile has not been given yet. */
  pendingForProfile: LanguageLocale | null;
};

export type LanguageContext = LanguageInput & {
  /** The language last asked for: the one loading, shown, or being saved to the profile. */
  requested: LanguageLocale;
  errorCode: string | null;
};

export type LanguageEvent =
  | { type: 'language.choose'; locale: LanguageLocale }
  | { type: 'language.show'; locale: LanguageLocale }
  | { type: 'language.align'; profileLocale: string };

// Every locale of the contract, so that a language added there fails to compile here until it is listed.
const KNOWN_LOCALES: Record<LanguageLocale, true> = { en: true, es: true, fr: true };
const isLanguageLocale = (value: string): value is LanguageLocale => Object.hasOwn(KNOWN_LOCALES, value);

type LocaleParams = { locale: LanguageLocale };
type AlignParams = { profileLocale: string };

const localeOfEvent = ({ event }: { event: LocaleParams }) => ({ locale: event.locale });
const profileLocaleOfEvent = ({ event }: { event: AlignParams }) => ({ profileLocale: event.profileLocale });
const requestedLocale = ({ context }: { context: LanguageContext }) => ({ locale: context.requested });
const catalogOfOutput = ({ event }: { event: { output: LanguageCatalog } }) => ({ messages: event.output });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

// The requested language's catalog is loaded: it is the one on screen, kept on this device.
const SHOW = [
  { type: 'showRequested', params: catalogOfOutput },
  { type: 'markDocumentLanguage', params: requestedLocale },
  { type: 'storeLocale', params: requestedLocale },
] as const;
const PENDING_TAKEN = ['clearPendingForProfile', 'forgetPendingForProfile'] as const;

export const languageMachine = setup({
  types: {
    context: {} as LanguageContext,
    events: {} as LanguageEvent,
    input: {} as LanguageInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadCatalog: fromPromise<LanguageCatalog, LocaleParams>(async () => {
      throw new Error('loadCatalog not provided');
    }),
    saveLocale: fromPromise<void, LocaleParams>(async () => {
      throw new Error('saveLocale not provided');
    }),
  },
  actions: {
    markDocumentLanguage: (_, _params: LocaleParams) => {},
    storeLocale: (_, _params: LocaleParams) => {},
    forgetPendingForProfile: () => {},
    refreshProfile: () => {},
    request: assign((_, params: LocaleParams) => ({ requested: params.locale, errorCode: null })),
    // Whatever asked for it, a language shown in this page is a choice: the profile's no longer replaces it.
    showRequested: assign(({ context }, params: { messages: LanguageCatalog }) => ({
      locale: context.requested,
      messages: params.messages,
      source: 'chosen' as const,
    })),
    clearPendingForProfile: assign({ pendingForProfile: null }),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    profileLacksPending: ({ context }, params: AlignParams) =>
      context.pendingForProfile !== null && context.pendingForProfile !== params.profileLocale,
    hasPending: ({ context }) => context.pendingForProfile !== null,
    followsProfile: ({ context }, params: AlignParams) =>
      context.source === 'browser' &&
      isLanguageLocale(params.profileLocale) &&
      params.profileLocale !== context.locale,
  },
}).createMachine({
  id: 'language',
  context: ({ input }) => ({ ...input, requested: input.locale, errorCode: null }),
  entry: { type: 'markDocumentLanguage', params: ({ context }) => ({ locale: context.locale }) },
  initial: 'idle',
  on: {
    // A newer language wins over one still loading or being saved: the state it targets is left and
    // entered again (its load restarts), the root is not (its entry marks the language on screen).
    'language.choose': { target: '.choosing', actions: { type: 'request', params: localeOfEvent } },
    'language.show': { target: '.showing', actions: { type: 'request', params: localeOfEvent } },
  },
  states: {
    idle: {
      on: {
        'language.align': [
          {
            guard: { type: 'profileLacksPending', params: profileLocaleOfEvent },
            target: 'saving',
            actions: [
              {
                type: 'request',
                params: ({ context }) => ({ locale: context.pendingForProfile ?? context.requested }),
              },
              ...PENDING_TAKEN,
            ],
          },
          // The profile already has the forced locale: nothing to send, and nothing to send later.
          { guard: 'hasPending', actions: PENDING_TAKEN },
          {
            guard: { type: 'followsProfile', params: profileLocaleOfEvent },
            target: 'showing',
            actions: {
              type: 'request',
              params: ({ context, event }) => ({
                locale: isLanguageLocale(event.profileLocale) ? event.profileLocale : context.requested,
              }),
            },
          },
        ],
      },
    },
    choosing: {
      tags: ['busy'],
      invoke: {
        id: 'loadCatalog',
        src: 'loadCatalog',
        input: requestedLocale,
        onDone: { target: 'saving', actions: SHOW },
        onError: 'idle',
      },
    },
    showing: {
      tags: ['busy'],
      invoke: {
        id: 'loadCatalog',
        src: 'loadCatalog',
        input: requestedLocale,
        onDone: { target: 'idle', actions: SHOW },
        onError: 'idle',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveLocale',
        src: 'saveLocale',
        input: requestedLocale,
        onDone: { target: 'idle', actions: 'refreshProfile' },
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    failed: { tags: ['error'] },
  },
});
