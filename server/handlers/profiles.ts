import type { FastifyReply } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import type { AppDeps, AuthUser, Handlers, OperationRequest } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { countDocuments, likePattern } from '../documents/list-query.ts';
import { currentUser } from '../auth/current-user.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { countIncomingRequests } from './connection-requests.ts';
import { consumeUserRateLimit, sendTooManyRequests, type UserRateLimit } from './connections.ts';

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
  const [pendingSignFlows, incomingConnectionRequests] = await Promise.all([
    countDocuments(deps, viewer, 'to_do'),
    countIncomingRequests(deps, viewer),
  ]);
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
      incomingConnectionRequests,
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

async function getProfile(req: OperationRequest<'getProfile'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  return { data: await serializeProfile(deps, await loadUser(deps, viewer.id), viewer) };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, 'invalid_request', `Invalid body: ${field} ${message}.`, {
    field,
    validations: { [field]: [message] },
  });
}

async function updateProfileSettings(req: OperationRequest<'updateProfileSettings'>) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  // The contract has validated the shape already; these checks restate the rules the database relies on.
  const settings = req.body.settings;
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

// Anti-enumeration (docs/decisions.md, "Connections and sign groups"): a stranger is found only by their
// whole e-mail address, connections also by a fragment of their name or address; at most 5 results, and
// 30 searches a minute per user, counted in the database.
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_RESULTS = 5;
export const SEARCH_LIMIT: UserRateLimit = { action: 'profile_search', max: 30, windowMs: 60 * 1000 };

async function searchProfiles(req: OperationRequest<'searchProfiles'>, reply: FastifyReply) {
  const viewer = currentUser(req);
  const deps = req.server.deps;
  const query = req.query.query.trim();
  if (query.length < SEARCH_MIN_LENGTH) {
    throw new ApiError(422, 'query_too_short', `The search needs at least ${SEARCH_MIN_LENGTH} characters.`, {
      field: 'query',
      validations: { query: [`must have at least ${SEARCH_MIN_LENGTH} characters`] },
    });
  }
  const verdict = await consumeUserRateLimit(deps, viewer.id, SEARCH_LIMIT);
  if (verdict.limited) return sendTooManyRequests(reply, verdict.retryAfterSeconds);

  const lowered = query.toLowerCase();
  const pattern = likePattern(query);
  const rows = await deps.db
    .selectFrom('users')
    .select(['id', 'full_name', 'initials', 'email'])
    .select((eb) =>
      eb
        .case()
        .when(sql<SqlBool>`lower(email) = ${lowered}`)
        .then(0)
        .else(1)
        .end()
        .as('rank'),
    )
    .where('id', '!=', viewer.id)
    .where((eb) =>
      eb.or([
        sql<SqlBool>`lower(email) = ${lowered}`,
        eb.and([
          eb.or([
            sql<SqlBool>`lower(full_name) like ${pattern} escape '\\'`,
            sql<SqlBool>`lower(email) like ${pattern} escape '\\'`,
          ]),
          eb.or([
            eb(
              'id',
              'in',
              eb.selectFrom('connections').select('user_b_id').where('user_a_id', '=', viewer.id),
            ),
            eb(
              'id',
              'in',
              eb.selectFrom('connections').select('user_a_id').where('user_b_id', '=', viewer.id),
            ),
          ]),
        ]),
      ]),
    )
    .orderBy('rank')
    .orderBy('full_name')
    .orderBy('email')
    .limit(SEARCH_MAX_RESULTS)
    .execute();
  return {
    data: rows.map((row) => ({
      id: row.id,
      type: 'profiles' as const,
      attributes: { fullName: row.full_name, initials: row.initials, emailAddress: row.email },
    })),
  };
}

export const profileHandlers: Handlers = { getProfile, updateProfileSettings, searchProfiles };
