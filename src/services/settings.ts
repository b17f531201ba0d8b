// The settings machine's real actors: the stored settings come from the profile, and a save answers the
// updated profile (PATCH /profiles/update_settings answers `{ data: profile }`, docs/api.md).
import { fromPromise } from 'xstate';
import type { Settings } from '../../machines/settings.machine';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';

type ProfileResource = components['schemas']['Profile'];

function settingsOf(profile: ProfileResource): Settings {
  return { locale: profile.attributes.locale, location: profile.attributes.location };
}

export async function readSettings(signal?: AbortSignal): Promise<Settings> {
  const { data } = await unwrap(api.GET('/profiles', signal ? { signal } : {}));
  return settingsOf(data);
}

export const saveSettings = fromPromise<Settings, Settings>(async ({ input, signal }) => {
  const { data } = await unwrap(
    api.PATCH('/profiles/update_settings', {
      body: { settings: { locale: input.locale, location: input.location } },
      signal,
    }),
  );
  return settingsOf(data);
});
