import type { FastifyRequest } from 'fastify';
import type { AppDeps, AuthUser, Handlers } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { countDocuments } from '../documents/list-query.ts';
import { currentUser } from '../auth/current-user.ts';
import { ApiError, notFound } from '../http/errors.ts';

export const LOCALES = ['en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
const LOCATION_MAX = 128;

export type ProfileResource = {
  id: string;
  type: 'profiles';
  attributes: {
    fullName: string;
    initials: string;
    emailAddress: string;
    locale: Locale;
    countryCode: string;
    location: string;
    incomingConnectionRequests: number;
    pendingSignFlows: number;
    welcomeScreenWatched: boolean;
  };
};

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export async function serializeProfile(
  deps: AppDeps,
  user: UserRow,
  viewer: AuthUser,
): Promise<ProfileResource> {
  const pendingSignFlows = await countDocuments(deps, viewer, 'to_do');
  return {
    id: user.id,
    type: 'profiles',
    attributes: {
      fullName: user.full_name,
      initials: user.initials,
      emailAddress: user.email,
      locale: isLocale(user.locale) ? user.locale : 'en',
      countryCode: user.country_code,
      location: user.location,
      // Connection requests arrive with issue [3/6]; until then nobody can have one.
      incomingConnectionRequests: 0,
      pendingSignFlows,
      welcomeScreenWatched: user.welcome_screen_watched === 1,
    },
  };
}

async function loadUser(deps: AppDeps, id: string): Promise<UserRow> {
  const user = await deps.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  // The token was valid a moment ago; a user deleted in between is treated as gone.
  if (user === undefined) throw notFound('Profile not found.');
  return user;
}

async function getProfile(req: FastifyRequest) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  return { data: await serializeProfile(deps, await loadUser(deps, viewer.id), viewer) };
}

type SettingsBody = { settings?: Record<string, unknown> };

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, 'invalid_request', `Invalid body: ${field} ${message}.`, {
    field,
    validations: { [field]: [message] },
  });
}

async function updateProfileSettings(req: FastifyRequest) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  // The contract has validated the shape already; these checks restate the rules the database relies on.
  const settings = (req.body as SettingsBody | undefined)?.settings ?? {};
  const changes: { welcome_screen_watched?: 0 | 1; locale?: Locale; location?: string } = {};
  if ('welcome_screen_watched' in settings) {
    if (typeof settings.welcome_screen_watched !== 'boolean')
      throw invalid('settings.welcome_screen_watched', 'must be a boolean');
    changes.welcome_screen_watched = settings.welcome_screen_watched ? 1 : 0;
  }
  if ('locale' in settings) {
    if (!isLocale(settings.locale)) throw invalid('settings.locale', 'must be one of en, es, fr');
    changes.locale = settings.locale;
  }
  if ('location' in settings) {
    if (typeof settings.location !== 'string') throw invalid('settings.location', 'must be a string');
    const location = settings.location.trim();
    if (location.length > LOCATION_MAX)
      throw invalid('settings.location', `must be at most ${LOCATION_MAX} characters`);
    changes.location = location;
  }
  if (Object.keys(changes).length > 0) {
    await deps.db.updateTable('users').set(changes).where('id', '=', viewer.id).execute();
  }
  return { data: await serializeProfile(deps, await loadUser(deps, viewer.id), viewer) };
}

export const profileHandlers: Handlers = { getProfile, updateProfileSettings };
