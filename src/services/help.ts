// The sidebar's help: where the quick-guide PDFs live and which support address a profile writes to.
// The addresses are run-time settings of the server (PARAPH_SUPPORT_EMAIL_UK / _NL), written into the
// app's page as meta tags (server/pages/spa.ts), so one build serves any setup; a page without them
// (the Vite dev server) uses the same defaults as the server.
import type { Locale } from '../i18n/locale';
import { pageSetting } from './page-settings';

export const SUPPORT_EMAIL_UK_META_NAME = 'paraph:support-email-uk';
export const SUPPORT_EMAIL_NL_META_NAME = 'paraph:support-email-nl';
export const DEFAULT_SUPPORT_EMAIL_UK = 'support-uk@paraph.test';
export const DEFAULT_SUPPORT_EMAIL_NL = 'support@paraph.test';

// Letters, digits and . _ + - before the @, then dot-separated labels: nothing that could add a
// subject or a second recipient to a mailto: link. The server checks its settings with the same pattern.
const EMAIL_ADDRESS = /^[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export function isSupportEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value);
}

/**
 * Spec 000 §1: country uk gets the UK address, every other country the NL one. The profile's code is
 * compared without case, and GB (the ISO 3166 code of the United Kingdom) counts as uk.
 */
export function isUkCountry(countryCode: string | null | undefined): boolean {
  const code = countryCode?.trim().toLowerCase();
  return code === 'uk' || code === 'gb';
}

function metaContent(name: string): string | null {
  return pageSetting(name, isSupportEmailAddress);
}

export function supportEmailAddress(countryCode: string | null | undefined): string {
  return isUkCountry(countryCode)
    ? (metaContent(SUPPORT_EMAIL_UK_META_NAME) ?? DEFAULT_SUPPORT_EMAIL_UK)
    : (metaContent(SUPPORT_EMAIL_NL_META_NAME) ?? DEFAULT_SUPPORT_EMAIL_NL);
}

/** The guide's file under the app's base: fixed names (no content hash), since the name is the link. */
export function quickGuideFileName(locale: Locale): string {
  return `help/quick-guide-${locale}.pdf`;
}

export function quickGuideUrl(locale: Locale): string {
  return `${import.meta.env.BASE_URL}${quickGuideFileName(locale)}`;
}
