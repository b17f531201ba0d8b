// The shell's language selector (spec 000 §1): a chosen language applies at once and is kept in local
// storage (applyLocale), then saved to the signed-in profile (PATCH /profiles/update_settings
// settings.locale). A forced locale the profile has not got yet is only saved (language.save). A failed
// save keeps the language on this device and says so (tag error) until the next choice. One actor per
// selector; stopped with it.
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode } from './types';

export type LanguageLocale = components['schemas']['Locale'];

export type LanguageContext = { locale: LanguageLocale | null; errorCode: string | null };

export type LanguageEvent =
  { type: 'language.choose'; locale: LanguageLocale } | { type: 'language.save'; locale: LanguageLocale };

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
}).createMachine({
  id: 'language',
  context: { locale: null, errorCode: null },
  initial: 'idle',
  on: { 'language.choose': CHOOSE, 'language.save': SAVE },
  states: {
    idle: {},
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
