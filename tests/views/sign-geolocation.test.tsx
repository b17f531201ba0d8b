import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_GEOCODER_URL,
  GEOCODER_META_NAME,
  geocoderUrl,
  geocoderUrlTemplate,
  placeNameOf,
  wrapperLocationOf,
} from '../../src/services/geolocation';
import { postToMobileWrapper } from '../../src/services/mobile-wrapper';

type WrapperWindow = Window & { ReactNativeWebView?: { postMessage(message: string): void } };

afterEach(() => {
  document.head.querySelector(`meta[name="${GEOCODER_META_NAME}"]`)?.remove();
  delete (window as WrapperWindow).ReactNativeWebView;
});

describe('locate me', () => {
  it('reads the city, else the town or the village, of a reverse-geocoding answer', () => {
    expect(placeNameOf({ address: { city: 'Lyon', town: 'x' } })).toBe('Lyon');
    expect(placeNameOf({ address: { town: ' Arles ' } })).toBe('Arles');
    expect(placeNameOf({ address: { village: 'Èze' } })).toBe('Èze');
    expect(placeNameOf({ address: { country: 'France' } })).toBeNull();
    expect(placeNameOf(null)).toBeNull();
  });

  it('asks Nominatim by default, or the service the page names', () => {
    expect(geocoderUrlTemplate()).toBe(DEFAULT_GEOCODER_URL);
    const meta = document.createElement('meta');
    meta.name = GEOCODER_META_NAME;
    meta.content = 'http://127.0.0.1:9999/reverse?lat={lat}&lon={lon}';
    document.head.append(meta);
    expect(geocoderUrl(geocoderUrlTemplate(), 45.75, 4.85)).toBe(
      'http://127.0.0.1:9999/reverse?lat=45.750000&lon=4.850000',
    );
  });

  it('asks a mobile app’s web view with a set-location message', () => {
    expect(postToMobileWrapper({ type: 'set-location' })).toBe(false);
    const postMessage = vi.fn();
    (window as WrapperWindow).ReactNativeWebView = { postMessage };
    expect(postToMobileWrapper({ type: 'set-location' })).toBe(true);
    expect(postMessage).toHaveBeenCalledWith('{"type":"set-location"}');
  });

  it('takes the app’s answer as an object or as JSON text, and nothing else', () => {
    expect(wrapperLocationOf({ type: 'location', location: 'Bilbao' })).toBe('Bilbao');
    expect(wrapperLocationOf('{"type":"location","location":"Bilbao"}')).toBe('Bilbao');
    expect(wrapperLocationOf({ type: 'token', location: 'Bilbao' })).toBeNull();
    expect(wrapperLocationOf('not json')).toBeNull();
    expect(wrapperLocationOf({ type: 'location', location: '  ' })).toBeNull();
  });
});
