// The profile's side of the language and of the welcome screen: PATCH /profiles/update_settings with
// settings.locale or settings.welcome_screen_watched. When the profile's language is shown, or given this
// device's forced one, is the language actor's rule (machines/language.machine.ts, docs/decisions.md
// "Language, welcome and mobile wrappers").
import { fromPromise } from 'xstate';
import type { LanguageLocale } from '../../machines/language.machine';
import { api, unwrap } from '../api/client';

export const saveLocale = fromPromise<void, { locale: LanguageLocale }>(async ({ input, signal }) => {
  await unwrap(
    api.PATCH('/profiles/update_settings', { body: { settings: { locale: input.locale } }, signal }),
  );
});

export const saveWelcomeScreenWatched = fromPromise<void>(async ({ signal }) => {
  await unwrap(
    api.PATCH('/profiles/update_settings', { body: { settings: { welcome_screen_watched: true } }, signal }),
  );
});
