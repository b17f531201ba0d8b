// The settings screen (/app/settings, spec 001 §2 "Settings"): the interface language and the default
// signing location. Loads the stored values when the screen mounts, saves them (the location trimmed,
// spec 001 §5), and on success switches the interface to the saved language and refreshes the
// session's profile (spec 001 §4). Until then the language chosen here is only the form's: Cancel (or
// leaving any other way) keeps the language on screen as it was. Stopped when the screen unmounts.
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode } from './types.ts';

export type SettingsLocale = components['schemas']['Locale'];
export type Settings = { locale: SettingsLocale; location: string };

/** The language on screen when the screen opens: the form starts from it (docs/decisions.md). */
export type SettingsInput = { shownLocale: SettingsLocale };

export type SettingsContext = Settings & {
  /** The language on screen, which the sidebar's selector may change while the form is open. */
  shownLocale: SettingsLocale;
  errorCode: string | null;
};

export type SettingsEvent =
  | { type: 'locale.changed'; locale: SettingsLocale }
  /** The language on screen changed while the screen is open (the sidebar's selector applies at once). */
  | { type: 'locale.shown'; locale: SettingsLocale }
  | { type: 'location.changed'; location: string }
  | { type: 'settings.save' }
  | { type: 'settings.cancel' }
  | { type: 'settings.retry' };

export const LOCATION_MAX_LENGTH = 128;

/** What is saved: the location without its surrounding spaces (spec 001 §5). */
export function settingsToSave(context: Settings): Settings {
  return { locale: context.locale, location: context.location.trim() };
}

export function isLocationTooLong(location: string): boolean {
  return location.trim().length > LOCATION_MAX_LENGTH;
}

const settingsOfOutput = ({ event }: { event: { output: Settings } }) => event.output;
const locationOfOutput = ({ event }: { event: { output: Settings } }) => ({
  location: event.output.location,
});
const localeOfOutput = ({ event }: { event: { output: Settings } }) => ({ locale: event.output.locale });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
// In every state but the final one (an event sent after leaving would reach a stopped actor).
const FOLLOW_SHOWN = { actions: 'followShownLocale' } as const;

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as SettingsEvent,
    input: {} as SettingsInput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadSettings: fromPromise<Settings>(async () => {
      throw new Error('loadSettings not provided');
    }),
    saveSettings: fromPromise<Settings, Settings>(async () => {
      throw new Error('saveSettings not provided');
    }),
  },
  actions: {
    // The profile's language is not shown: the form starts from the one on screen, which this device may
    // have chosen, so that a Save of the location alone never switches the screen to another language.
    keepLocation: assign((_, params: { location: string }) => ({
      location: params.location,
      errorCode: null,
    })),
    // The saved language is the one on screen from now on (applyLocale runs with it).
    keepSettings: assign((_, params: Settings) => ({
      locale: params.locale,
      shownLocale: params.locale,
      location: params.location,
      errorCode: null,
    })),
    setFormLocale: assign(({ event }) => (event.type === 'locale.changed' ? { locale: event.locale } : {})),
    // A form whose language nobody changed follows the screen; one changed here keeps that choice.
    followShownLocale: assign(({ context, event }) =>
      event.type === 'locale.shown'
        ? {
            shownLocale: event.locale,
            locale: context.locale === context.shownLocale ? event.locale : context.locale,
          }
        : {},
    ),
    setLocation: assign(({ event }) =>
      event.type === 'location.changed' ? { location: event.location } : {},
    ),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
    applyLocale: (_, _params: { locale: SettingsLocale }) => {},
    refreshProfile: () => {},
    goToDocuments: () => {},
  },
  guards: {
    canSave: ({ context }) => !isLocationTooLong(context.location),
  },
}).createMachine({
  id: 'settings',
  context: ({ input }) => ({
    locale: input.shownLocale,
    shownLocale: input.shownLocale,
    location: '',
    errorCode: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'editing', actions: { type: 'keepLocation', params: locationOfOutput } },
        onError: { target: 'loadFailed', actions: { type: 'rememberError', params: codeOfError } },
      },
      on: { 'locale.shown': FOLLOW_SHOWN, 'settings.cancel': { target: 'left', actions: 'goToDocuments' } },
    },
    loadFailed: {
      tags: ['error'],
      on: {
        'locale.shown': FOLLOW_SHOWN,
        'settings.retry': { target: 'loading', actions: 'clearError' },
        'settings.cancel': { target: 'left', actions: 'goToDocuments' },
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'locale.shown': FOLLOW_SHOWN,
        'locale.changed': { target: '.idle', actions: ['setFormLocale', 'clearError'] },
        'location.changed': { target: '.idle', actions: ['setLocation', 'clearError'] },
        'settings.save': { guard: 'canSave', target: 'saving', actions: 'clearError' },
        'settings.cancel': { target: 'left', actions: 'goToDocuments' },
      },
      states: {
        idle: {},
        saved: {},
        failed: { tags: ['error'] },
      },
    },
    saving: {
      tags: ['busy'],
      on: { 'locale.shown': FOLLOW_SHOWN },
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => settingsToSave(context),
        onDone: {
          target: 'editing.saved',
          actions: [
            { type: 'keepSettings', params: settingsOfOutput },
            { type: 'applyLocale', params: localeOfOutput },
            'refreshProfile',
          ],
        },
        onError: { target: 'editing.failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    left: { type: 'final' },
  },
});
