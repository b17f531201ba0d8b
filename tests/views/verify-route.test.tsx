// /app/verify through the real route table: a visitor without a session gets the page on its own (never
// sent to sign in), someone signed in gets it inside the app with the sidebar's link marked; the login
// page links to it. API calls stay unanswered: no screen here gets further than its first state.
import type { ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { api } from '../../src/api/client';
import { BaseProviders } from '../../src/app/providers';
import { AppRoutes } from '../../src/app/routes';
import en from '../../src/i18n/en.json';
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

let renders = 0;

function renderRoute(path: string, storedToken: string | null) {
  const location = memoryLocation({ path, record: true });
  renders += 1;
  const prefix = `verify-route-${renders}-`;
  const shell = createTestShell({ storedToken });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <ShellHarness shell={shell}>
        <BaseProviders locale="en" messages={en}>
          <Router hook={location.hook}>{children}</Router>
        </BaseProviders>
      </ShellHarness>
    </IdPrefixProvider>
  );
  render(<AppRoutes />, { wrapper: Wrapper });
  return { location, shell };
}

describe('the /verify route', () => {
  it('shows the page to a visitor who is not signed in, with the way to sign in, and keeps them there', async () => {
    const { location, shell } = renderRoute('/verify', null);
    await screen.findByRole('heading', { level: 1, name: 'Verify a signed PDF' });
    screen.getByLabelText('Choose a PDF');
    expect(screen.getByRole('link', { name: 'Sign in to Paraph' }).getAttribute('href')).toBe('/login');
    screen.getByRole('combobox', { name: 'Language' });
    // No sidebar and no session call: nothing of the signed-in app.
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(location.history).toEqual(['/verify']);
    expect(shell.getSnapshot().children.session?.getSnapshot().value).toBe('anonymous');
  });

  it('shows the page inside the app to someone signed in, its sidebar link marked as the current page', async () => {
    // A desktop wide enough for the sidebar to stay open (it collapses into a drawer under 1150 px).
    const width = window.innerWidth;
    window.innerWidth = 1280;
    onTestFinished(() => {
      window.innerWidth = width;
    });
    renderRoute('/verify', 'stored-token');
    await screen.findByRole('heading', { level: 1, name: 'Verify a signed PDF' });
    await waitFor(() => {
      const navigation = screen.getAllByRole('navigation', { name: 'Main' })[0];
      if (navigation === undefined) throw new Error('no main navigation');
      const link = within(navigation).getByRole('link', { name: 'Verify a signed PDF' });
      expect(link.getAttribute('aria-current')).toBe('page');
    });
    expect(screen.queryByRole('link', { name: 'Sign in to Paraph' })).toBeNull();
  });

  it('is linked from the login page', async () => {
    renderRoute('/login', null);
    const link = await screen.findByRole('link', { name: 'Received a signed PDF? Verify its signatures' });
    expect(link.getAttribute('href')).toBe('/verify');
  });
});
