// The settings screen (/app/settings, spec 001 §2 "Settings"): the interface language and the default
// signing location. Loads the stored values when the screen mounts, saves them (the location trimmed,
// spec 001 §5), and on success switches the interface to the saved language and refreshes the
// session's profile (spec 001 §4). Cancel leaves for the documents. Stopped when the screen unmounts.
import { assign, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { toErrorCode } from './types';

export type SettingsLocale = components['schemas']['Locale'];
export type Settings = { locale: SettingsLocale; location: string };

export type SettingsContext = Settings & { errorCode: string | null };

export type SettingsEvent =
  | { type: 'locale.changed'; locale: SettingsLocale }
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
const localeOfOutput = ({ event }: { event: { output: Settings } }) => ({ locale: event.output.locale });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });

export const settingsMachine = setup({
  types: {
    context: {} as SettingsContext,
    events: {} as SettingsEvent,
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
    keepSettings: assign((_, params: Settings) => ({
      locale: params.locale,
      location: params.location,
      errorCode: null,
    })),
    setLocale: assign(({ event }) => (event.type === 'locale.changed' ? { locale: event.locale } : {})),
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
  context: { locale: 'en', location: '', errorCode: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'editing', actions: { type: 'keepSettings', params: settingsOfOutput } },
        onError: { target: 'loadFailed', actions: { type: 'rememberError', params: codeOfError } },
      },
      on: { 'settings.cancel': { target: 'left', actions: 'goToDocuments' } },
    },
    loadFailed: {
      tags: ['error'],
      on: {
        'settings.retry': { target: 'loading', actions: 'clearError' },
        'settings.cancel': { target: 'left', actions: 'goToDocuments' },
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'locale.changed': { target: '.idle', actions: ['setLocale', 'clearError'] },
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
