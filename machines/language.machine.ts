// The shell's language selector (spec 000 §1): a chosen language applies at once and is kept in local
// storage (applyLocale), then saved to the signed-in profile (PATCH /profiles/update_settings
// settings.locale). A forced locale the profile has not got yet is only saved (language.save). A failed
// save keeps the language on this device and says so (tag error) until the next choice. Once per page,
// when the first profile arrives, the shell asks it to line the language up with the profile's
// (language.align): the composition decides (src/services/locale-sync.ts decideProfileLocale) whether the
// profile's language is shown, this device's forced one saved, or nothing done. One actor for the app's
// lifetime, a child of the shell.
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode } from './types';

export type LanguageLocale = components['schemas']['Locale'];

export type LanguageContext = { locale: LanguageLocale | null; errorCode: string | null };

export type LanguageEvent =
  | { type: 'language.choose'; locale: LanguageLocale }
  | { type: 'language.save'; locale: LanguageLocale }
  | { type: 'language.align'; profileLocale: string };

/** What lining up with the profile comes to: nothing, show the profile's language, or save this device's. */
export type LocaleDecision =
  { kind: 'none' } | { kind: 'show'; locale: LanguageLocale } | { kind: 'save'; locale: LanguageLocale };

const decisionOfOutput = ({ event }: { event: { output: LocaleDecision } }) => event.output;
const localeOfDecision = ({ event }: { event: { output: LocaleDecision } }) => ({
  locale: event.output.kind === 'none' ? ('en' as const) : event.output.locale,
});

const localeOfEvent = ({ event }: { event: { locale: LanguageLocale } }) => ({ locale: event.locale });
const localeOfContext = ({ context }: { context: LanguageContext }) => ({ locale: context.locale ?? 'en' });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

const CHOOSE = {
  target: '#language.saving',
  reenter: true,
  actions: [
    { type: 'rememberLocale', params: localeOfEvent },
    { type: 'applyLocale', params: localeOfEvent },
  ],
} as const;
const SAVE = {
  target: '#language.saving',
  reenter: true,
  actions: { type: 'rememberLocale', params: localeOfEvent },
} as const;

export const languageMachine = setup({
  types: {
    context: {} as LanguageContext,
    events: {} as LanguageEvent,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    saveLocale: fromPromise<void, { locale: LanguageLocale }>(async () => {
      throw new Error('saveLocale not provided');
    }),
    decideLocale: fromPromise<LocaleDecision, { profileLocale: string }>(async () => {
      throw new Error('decideLocale not provided');
    }),
  },
  actions: {
    applyLocale: (_, _params: { locale: LanguageLocale }) => {},
    refreshProfile: () => {},
    rememberLocale: assign((_, params: { locale: LanguageLocale }) => ({
      locale: params.locale,
      errorCode: null,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
  },
  guards: {
    isSave: (_, params: LocaleDecision) => params.kind === 'save',
    isShow: (_, params: LocaleDecision) => params.kind === 'show',
  },
}).createMachine({
  id: 'language',
  context: { locale: null, errorCode: null },
  initial: 'idle',
  on: { 'language.choose': CHOOSE, 'language.save': SAVE },
  states: {
    idle: { on: { 'language.align': 'aligning' } },
    aligning: {
      invoke: {
        id: 'decideLocale',
        src: 'decideLocale',
        input: ({ event }) => ({ profileLocale: event.type === 'language.align' ? event.profileLocale : '' }),
        onDone: [
          {
            guard: { type: 'isSave', params: decisionOfOutput },
            target: 'saving',
            actions: { type: 'rememberLocale', params: localeOfDecision },
          },
          {
            guard: { type: 'isShow', params: decisionOfOutput },
            target: 'idle',
            actions: { type: 'applyLocale', params: localeOfDecision },
          },
          { target: 'idle' },
        ],
        onError: 'idle',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveLocale',
        src: 'saveLocale',
        input: localeOfContext,
        onDone: { target: 'idle', actions: 'refreshProfile' },
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    failed: { tags: ['error'] },
  },
});
