// Where the login's no-product notice sends someone who has no account on Paraph yet (spec 001 §2). The
// address is a run-time setting of the server (PARAPH_PRODUCTS_URL), written into the app's page as a
// meta tag (server/pages/spa.ts) like the support addresses, so one build serves any setup; a page without
// it (the Vite dev server) uses the server's default.
import { pageSetting } from './page-settings';
export const PRODUCTS_URL_META_NAME = 'paraph:products-url';
export const DEFAULT_PRODUCTS_URL = 'https://paraph.test/products';

/** Only an absolute http(s) address may become the link: javascript: or data: would run in the page. */
export function isProductsUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function productsUrl(): string {
  return pageSetting(PRODUCTS_URL_META_NAME, isProductsUrl) ?? DEFAULT_PRODUCTS_URL;
}
