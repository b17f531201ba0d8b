// The sign form's locate-me button (spec 001 §7): the browser's position, then a reverse-geocoding service
// whose answer's address.city (else town, village, municipality) fills the location field. Inside a mobile
// app's web view the app is asked instead (a `set-location` message) and answers with the place name
// (docs/decisions.md "The sign screen"). Failures reject with a code the form shows as
// documents.sign.location.error-fetching; nothing is logged but the code.
import { fromPromise } from 'xstate';
import { hasMobileWrapper, postToMobileWrapper } from './mobile-wrapper';
import { pageSetting } from './page-settings';

/** Nominatim's reverse geocoding; `{lat}` and `{lon}` are replaced by the position. */
export const DEFAULT_GEOCODER_URL =
  'https://nominatim.openstreetmap.org/reverse?format=json&lat={lat}&lon={lon}';
/** A page (or the server that serves it) may name another service: `<meta name="paraph:geocoder-url">`. */
export const GEOCODER_META_NAME = 'paraph:geocoder-url';
/** How long the mobile app has to answer a `set-location` message. */
export const WRAPPER_ANSWER_TIMEOUT_MS = 30_000;
const POSITION_TIMEOUT_MS = 15_000;

export class LocationError extends Error {
  readonly code: string;

  constructor(code: 'location_denied' | 'location_unavailable' | 'geocoder_failed') {
    super(`Location lookup failed: ${code}`);
    this.name = 'LocationError';
    this.code = code;
  }
}

/** The reverse-geocoding URL: the page's meta tag, then VITE_GEOCODER_URL at build time, then Nominatim. */
export function geocoderUrlTemplate(): string {
  const meta = pageSetting(GEOCODER_META_NAME);
  const built: unknown = import.meta.env.VITE_GEOCODER_URL;
  if (meta) return meta;
  return typeof built === 'string' && built !== '' ? built : DEFAULT_GEOCODER_URL;
}

export function geocoderUrl(template: string, latitude: number, longitude: number): string {
  return template
    .replace('{lat}', encodeURIComponent(latitude.toFixed(6)))
    .replace('{lon}', encodeURIComponent(longitude.toFixed(6)));
}

/** The place name of a Nominatim-style answer, or null. */
export function placeNameOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('address' in body)) return null;
  const { address } = body as { address: unknown };
  if (typeof address !== 'object' || address === null) return null;
  const fields = address as Record<string, unknown>;
  for (const key of ['city', 'town', 'village', 'municipality']) {
    const value = fields[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

/** `{ type: 'location', location }`, sent as an object or as its JSON text. */
export function wrapperLocationOf(data: unknown): string | null {
  let message = data;
  if (typeof data === 'string') {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, location } = message as { type?: unknown; location?: unknown };
  return type === 'location' && typeof location === 'string' && location.trim() !== ''
    ? location.trim()
    : null;
}

function askWrapper(signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const finish = () => {
      window.removeEventListener('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      window.clearTimeout(timer);
    };
    const onMessage = (event: MessageEvent) => {
      // The app injects its answer into the page itself; other frames' messages are not answers.
      if (event.origin !== '' && event.origin !== window.location.origin) return;
      const location = wrapperLocationOf(event.data);
      if (location === null) return;
      finish();
      resolve(location);
    };
    const onAbort = () => {
      finish();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    const timer = window.setTimeout(() => {
      finish();
      reject(new LocationError('location_unavailable'));
    }, WRAPPER_ANSWER_TIMEOUT_MS);
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort, { once: true });
    if (!postToMobileWrapper({ type: 'set-location' })) {
      finish();
      reject(new LocationError('location_unavailable'));
    }
  });
}

function currentPosition(): Promise<GeolocationPosition> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new LocationError('location_unavailable'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      resolve,
      (error) =>
        reject(
          new LocationError(
            error.code === error.PERMISSION_DENIED ? 'location_denied' : 'location_unavailable',
          ),
        ),
      { timeout: POSITION_TIMEOUT_MS, maximumAge: 600_000 },
    );
  });
}

export const locateMe = fromPromise<string>(async ({ signal }) => {
  if (hasMobileWrapper()) return askWrapper(signal);
  const { coords } = await currentPosition();
  let response: Response;
  try {
    response = await fetch(geocoderUrl(geocoderUrlTemplate(), coords.latitude, coords.longitude), {
      credentials: 'omit',
      headers: { Accept: 'application/json' },
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new LocationError('geocoder_failed');
  }
  if (!response.ok) throw new LocationError('geocoder_failed');
  const name = placeNameOf(await response.json().catch(() => null));
  if (name === null) throw new LocationError('location_unavailable');
  return name;
});

/** Spec 001 §8: a failed lookup is also reported; only its code, never the position. */
export function reportLocationFailure(code: string): void {
  console.warn(`Location lookup failed: ${code}`);
}
