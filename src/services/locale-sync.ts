// The profile's side of the language and of the welcome screen: PATCH /profiles/update_settings with
// settings.locale or settings.welcome_screen_watched, and the rule that decides, once the signed-in
// profile is known, whether the profile's language is shown or given this device's forced one
// (docs/decisions.md "Language, welcome and mobile wrappers ([6/6])").
import { fromPromise } from 'xstate';
import type { LanguageLocale } from '../../machines/language.machine';
import { api, unwrap } from '../api/client';
import {
  followsProfileLocale,
  getLocaleState,
  isLocale,
  takeLocaleForProfile,
  type Locale,
} from '../i18n/locale';

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

export type ProfileLocaleDecision =
  { kind: 'none' } | { kind: 'show'; locale: Locale } | { kind: 'save'; locale: Locale };

/**
 * Once per page, when the first profile arrives: a forced locale the profile lacks is saved to it;
 * otherwise, if nobody chose a language on this device, the profile's is shown (and kept locally).
 * A language chosen on this device (local storage, spec 001 §1's first source) wins and is not pushed.
 */
export function decideProfileLocale(
  profileLocale: string,
  pendingForced: Locale | null,
  followsProfile: boolean,
  shownLocale: Locale,
): ProfileLocaleDecision {
  if (pendingForced !== null) {
    return pendingForced === profileLocale ? { kind: 'none' } : { kind: 'save', locale: pendingForced };
  }
  if (followsProfile && isLocale(profileLocale) && profileLocale !== shownLocale) {
    return { kind: 'show', locale: profileLocale };
  }
  return { kind: 'none' };
}

/** The language machine's decideLocale: what this page does with the first profile's language. */
export const decideLocaleForProfile = fromPromise<ProfileLocaleDecision, { profileLocale: string }>(
  async ({ input }) =>
    decideProfileLocale(
      input.profileLocale,
      takeLocaleForProfile(),
      followsProfileLocale(),
      getLocaleState().locale,
    ),
);
