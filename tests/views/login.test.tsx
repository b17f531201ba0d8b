import { IdPrefixProvider } from '@fluentui/react-components';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BaseProviders } from '../../src/app/providers';
import type { Locale } from '../../src/i18n/locale';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import fr from '../../src/i18n/fr.json';
import { DEFAULT_PRODUCTS_URL, PRODUCTS_URL_META_NAME } from '../../src/services/products';
import { LoginPage } from '../../src/views/login/login-page';
import { renderView } from './render';

const CATALOGS = { en, es, fr };
let renders = 0;

function renderLoginIn(locale: Locale, reason: string) {
  const location = memoryLocation({ path: `/login/${reason}` });
  renders += 1;
  const prefix = `login-${renders}-`;
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <BaseProviders locale={locale} messages={CATALOGS[locale]}>
        <Router hook={location.hook}>{children}</Router>
      </BaseProviders>
    </IdPrefixProvider>
  );
  render(<LoginPage reason={reason} />, { wrapper: Wrapper });
}

/** The tag server/pages/spa.ts writes into the page from PARAPH_PRODUCTS_URL. */
function setProductsMeta(content: string): void {
  const meta = document.createElement('meta');
  meta.name = PRODUCTS_URL_META_NAME;
  meta.content = content;
  document.head.append(meta);
}

afterEach(() => {
  document.head.querySelectorAll(`meta[name="${PRODUCTS_URL_META_NAME}"]`).forEach((meta) => meta.remove());
});

describe('login page', () => {
  it('explains a timeout and links to the server sign-in with the return URL', () => {
    renderView(<LoginPage reason="timeout" />, {
      path: '/login/timeout',
      search: 'returnUrl=%2Fapp%2Fdocument%2Fd1',
    });

    expect(screen.getByRole('heading', { level: 1, name: 'Digital document signing' })).toBeVisible();
    expect(screen.getByText('Your session has expired')).toBeVisible();
    const signIn = screen.getByRole('link', { name: 'Sign in' });
    const href = signIn.getAttribute('href') ?? '';
    expect(href.startsWith('/sign_in?return_to=')).toBe(true);
    const returnTo = new URLSearchParams(href.split('?')[1]).get('return_to');
    expect(returnTo).toBe('/app/auth?returnUrl=%2Fapp%2Fdocument%2Fd1');
  });

  it('lists the three features and shows no notice without a reason', () => {
    renderView(<LoginPage />, { path: '/login' });

    for (const feature of ['No paper', 'Secure', 'Easy']) {
      expect(screen.getByRole('heading', { name: feature })).toBeVisible();
    }
    expect(screen.queryByText('Your session has expired')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Language' })).toBeEnabled();
  });
});

describe('the no-product notice (spec 001 §2)', () => {
  it.each([
    ['en', 'You need an account', 'see our products'],
    ['es', 'Necesita una cuenta', 'consulte nuestros productos'],
    ['fr', 'Un compte est nécessaire', 'découvrez nos produits'],
  ] as const)('links to the products page in %s', (locale, title, linkName) => {
    renderLoginIn(locale, 'no-product');
    const notice = screen.getByText(title).parentElement;
    if (!notice) throw new Error('no notice');
    const link = within(notice).getByRole('link', { name: linkName });
    expect(link.getAttribute('href')).toBe(DEFAULT_PRODUCTS_URL);
    // The tag became an element: no markup is left in the text.
    expect(notice.textContent).not.toMatch(/<\/?link>/);
  });

  it("links to the address the server configured, read from the app's page", () => {
    setProductsMeta('https://shop.example.com/plans?from=paraph&lang=en');
    renderLoginIn('en', 'no-product');
    expect(screen.getByRole('link', { name: 'see our products' }).getAttribute('href')).toBe(
      'https://shop.example.com/plans?from=paraph&lang=en',
    );
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', '/relative/products', 'not a url'])(
    'keeps the default when the page names %s',
    (content) => {
      setProductsMeta(content);
      renderLoginIn('en', 'no-product');
      expect(screen.getByRole('link', { name: 'see our products' }).getAttribute('href')).toBe(
        DEFAULT_PRODUCTS_URL,
      );
    },
  );
});
