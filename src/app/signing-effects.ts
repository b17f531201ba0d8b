// A browser effect that follows the sign screen's actor, composed here so the screen's views import no
// service: a mobile wrapper is told the location of each sign request. Apart from the sign flow form's
// (screen-effects.ts), so the sign screen does not load that form's machine with it.
import { useEffect } from 'react';
import { watchSigningLocation } from '../services/mobile-wrapper';

export function useSigningLocationForWrapper(signing: Parameters<typeof watchSigningLocation>[0]): void {
  useEffect(() => watchSigningLocation(signing), [signing]);
}
