// Every route of src/app/routes.tsx gives the tab a title ending with " · Paraph" (spec 000 §1). The real
// route table renders, with the real shell and screens; only the edges are stubbed: the session has a
// profile at once, and every API call stays unanswered, so each screen stays on its first state, where it
// has already set its title.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { api } from '../../src/api/client';
import { BaseProviders } from '../../src/app/providers';
import { AppRoutes } from '../../src/app/routes';
import type { Locale } from '../../src/i18n/locale';
import type { Catalog } from '../../src/i18n/messages';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import fr from '../../src/i18n/fr.json';
import { createTestShell, ShellHarness } from './shell-harness';

// The real client (services still add their middleware), but no call is ever answered: for the whole file,
// since a screen's actor may still call while its view unmounts.
beforeAll(() => {
  const unanswered = () => new Promise<never>(() => {});
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    vi.spyOn(api, method).mockImplementation(unanswered);
  }
});
afterAll(() => {
  vi.restoreAllMocks();
});

const CATALOGS: Record<Locale, Catalog> = { en, es, fr };

// A prefix per render keeps Fluent's ids apart, as tests/views/render.tsx explains.
let renders = 0;

function renderRoute(path: string, locale: Locale = 'en') {
  const location = memoryLocation({ path });
  renders += 1;
  const prefix = `title-${renders}-`;
  // The real shell; its session reads the sample profile at once, the token exchange never answers.
  const shell = createTestShell({ storedToken: 'stored-token' });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <ShellHarness shell={shell}>
        <BaseProviders locale={locale} messages={CATALOGS[locale]}>
          <Router hook={location.hook}>{children}</Router>
        </BaseProviders>
      </ShellHarness>
    </IdPrefixProvider>
  );
  render(<AppRoutes />, { wrapper: Wrapper });
}

/** Each path the app answers, and the title its screen gives the tab. Redirects show their target's. */
const ROUTES: [path: string, title: string][] = [
  ['/login', 'Sign in · Paraph'],
  ['/login/timeout', 'Sign in · Paraph'],
  ['/auth', 'Signing in · Paraph'],
  ['/verify', 'Verify a signed PDF · Paraph'],
  ['/documents', 'All documents · Paraph'],
  ['/documents/to-do', 'To do · Paraph'],
  ['/documents/in-progress', 'In progress · Paraph'],
  ['/documents/done', 'Done · Paraph'],
  ['/documents/failed', 'Failed · Paraph'],
  ['/documents/uploaded', 'Uploaded · Paraph'],
  ['/archive', 'Archive · Paraph'],
  ['/document/details/d1', 'Document · Paraph'],
  ['/document/view/d1', 'Document · Paraph'],
  ['/document/d1', 'Document · Paraph'],
  ['/download/d1', 'Download · Paraph'],
  ['/signflow/new/d1', 'Start a sign flow · Paraph'],
  ['/signflow/edit/d1/signatures', 'Edit the sign flow · Paraph'],
  ['/sign/d1', 'Sign the document · Paraph'],
  ['/sign/d1/signature-preview', 'Sign the document · Paraph'],
  ['/invites/i1', 'Invitation · Paraph'],
  ['/signflowmember/invite/i1', 'Invitation · Paraph'],
  ['/releases', 'Release notes · Paraph'],
  ['/settings', 'Settings · Paraph'],
  ['/faq', 'Frequently asked questions · Paraph'],
  ['/connections', 'Connections · Paraph'],
  ['/connections/users', 'Connections · Paraph'],
  ['/connections/groups', 'Connections · Paraph'],
  ['/no-such-page', 'All documents · Paraph'],
];

/** wouter's pattern syntax, as routes.tsx uses it: `:name` is one segment, `/:name?` an optional one. */
function matches(pattern: string, path: string): boolean {
  const source = pattern
    .split(/(\/:\w+\?|:\w+)/)
    .map((piece) =>
      piece.startsWith('/:')
        ? '(?:/[^/]+)?'
        : piece.startsWith(':')
          ? '[^/]+'
          : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`).test(path);
}

describe('page titles', () => {
  beforeEach(() => {
    document.title = '';
  });

  it('has a row for every route of the route table', () => {
    const source = readFileSync(join(process.cwd(), 'src/app/routes.tsx'), 'utf8');
    const patterns = [...source.matchAll(/<Route path="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(patterns.length).toBeGreaterThan(15);
    const missing = patterns.filter((pattern) => !ROUTES.some(([path]) => matches(pattern, path)));
    expect(missing).toEqual([]);
    // The route without a path (anything else) is the last row.
    expect(source).toMatch(/<Route>\s*<Redirect to="\/documents"/);
  });

  it.each(ROUTES)('%s is titled "%s"', async (path, title) => {
    renderRoute(path);
    await waitFor(() => expect(document.title).toBe(title), { timeout: 20_000 });
  });

  it.each([
    ['es', 'Notas de la versión · Paraph'],
    ['fr', 'Notes de version · Paraph'],
  ] as const)('titles follow the interface language (%s)', async (locale, title) => {
    renderRoute('/releases', locale);
    await waitFor(() => expect(document.title).toBe(title), { timeout: 20_000 });
  });
});
