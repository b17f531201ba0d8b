// The access token lives in local storage under `access_token` (spec 001 §1). Never logged.
import { ACCESS_TOKEN_KEY } from '../api/client';

export function storeToken(token: string): void {
  window.localStorage.setItem(ACCESS_TOKEN_KEY, token);
}

export function removeToken(): void {
  try {
    window.localStorage.removeItem(ACCESS_TOKEN_KEY);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
