// Navigation effects the machines ask for. Paths are absolute (/app/...) because these run outside
// the router's base; wouter's location hook follows history changes made here.
import { navigate } from 'wouter/use-browser-location';
import { safeReturnUrl } from '../../machines/return-url';
import { removeToken } from './token';

export const APP_BASE = '/app';
export const DOCUMENTS_PATH = `${APP_BASE}/documents`;

export { safeReturnUrl };

/** The server's sign-in page, which comes back to /app/auth carrying where the user was going. */
export function signInHref(returnUrl: string | null | undefined): string {
  const auth = returnUrl
    ? `${APP_BASE}/auth?returnUrl=${encodeURIComponent(safeReturnUrl(returnUrl))}`
    : `${APP_BASE}/auth`;
  return `/sign_in?return_to=${encodeURIComponent(auth)}`;
}

export function currentAppUrl(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export function redirectToLogin(returnUrl: string | null | undefined): void {
  const target = safeReturnUrl(returnUrl);
  navigate(`${APP_BASE}/login?returnUrl=${encodeURIComponent(target)}`, { replace: true });
}

export function goToReturnUrl(url: string | null | undefined): void {
  navigate(safeReturnUrl(url), { replace: true });
}

// The page the session ended on comes back after signing in again (a form keeps its draft meanwhile).
export function goToLoginTimeout(): void {
  const returnUrl = safeReturnUrl(currentAppUrl());
  navigate(`${APP_BASE}/login/timeout?returnUrl=${encodeURIComponent(returnUrl)}`, { replace: true });
}

export function goToLoginError(): void {
  navigate(`${APP_BASE}/login/error`, { replace: true });
}

export function goToDocuments(): void {
  navigate(DOCUMENTS_PATH, { replace: true });
}

/** Logging out is a full navigation: the server revokes the token and clears its cookie. */
export function goToLogOut(): void {
  removeToken();
  window.location.assign(`/api/log_out?return_to=${encodeURIComponent(`${APP_BASE}/login`)}`);
}

export function showDocumentInList(documentId: string): void {
  navigate(`${DOCUMENTS_PATH}?selected=${encodeURIComponent(documentId)}`);
}

export function scrollToTop(): void {
  const main = document.getElementById('main');
  if (main && typeof main.scrollTo === 'function') main.scrollTo({ top: 0 });
  if (typeof window.scrollTo === 'function') window.scrollTo({ top: 0 });
}
