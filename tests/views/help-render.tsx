// Renders the help views as the shell does: a session whose profile has a given country, the catalog of
// a given language, a router at a path, and optionally the server's support meta tags in the page.
import type { ReactElement, ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { SAMPLE_PROFILE } from '../samples';
import { BaseProviders } from '../../src/app/providers';
import { SessionContext } from '../../src/app/session';
import type { Locale } from '../../src/i18n/locale';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import fr from '../../src/i18n/fr.json';
import { createTestShell, ShellHarness } from './shell-harness';

const CATALOGS = { en, es, fr };
let renders = 0;

export const UK_ADDRESS = 'help-desk-uk@example.co.uk';
export const NL_ADDRESS = 'helpdesk@example.nl';

/** The two tags server/pages/spa.ts writes into the page; removed again by removeSupportMeta. */
export function addSupportMeta(uk = UK_ADDRESS, nl = NL_ADDRESS): void {
  for (const [name, content] of [
    ['paraph:support-email-uk', uk],
    ['paraph:support-email-nl', nl],
  ] as const) {
    const meta = document.createElement('meta');
    meta.name = name;
    meta.content = content;
    document.head.append(meta);
  }
}

export function removeSupportMeta(): void {
  document.head.querySelectorAll('meta[name^="paraph:support-email"]').forEach((meta) => meta.remove());
}

// Lets a test wait until the profile is in the session, so an address seen afterwards is the one chosen
// for the profile's country and not the one shown before it loaded.
function ProfileLoaded() {
  const loaded = SessionContext.useSelector((snapshot) => snapshot.context.profile !== null);
  return loaded ? <span hidden data-profile-loaded="" /> : null;
}

export async function waitForProfile(): Promise<void> {
  await waitFor(() => expect(document.querySelector('[data-profile-loaded]')).not.toBeNull());
}

export function renderHelp(
  ui: ReactElement,
  {
    locale = 'en',
    countryCode = 'nl',
    path = '/documents',
  }: { locale?: Locale; countryCode?: string; path?: string } = {},
): { location: ReturnType<typeof memoryLocation> } {
  const location = memoryLocation({ path, record: true });
  // The shell asks for the session before any protected screen renders; the profile then loads.
  const shell = createTestShell({ profile: { ...SAMPLE_PROFILE, countryCode }, requireSession: true });
  renders += 1;
  const prefix = `help-${renders}-`;
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <BaseProviders locale={locale} messages={CATALOGS[locale]}>
        <ShellHarness shell={shell}>
          <ProfileLoaded />
          <Router hook={location.hook}>{children}</Router>
        </ShellHarness>
      </BaseProviders>
    </IdPrefixProvider>
  );
  render(ui, { wrapper: Wrapper });
  return { location };
}
