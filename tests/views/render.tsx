// Renders a view the way the app does (theme, English catalog, a router) without the session.
import type { ReactElement, ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { expect } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BaseProviders } from '../../src/app/providers';
import en from '../../src/i18n/en.json';

// React's ids restart with every root, but Fluent's focus manager (tabster) lives on the window for the
// whole file: a dialog in one test could take the id of a dialog from an earlier one still registered
// there, and be hidden (aria-hidden) as if another modal were on top. Each render gets its own prefix.
let renders = 0;

export function renderView(
  ui: ReactElement,
  { path = '/documents', search = '' }: { path?: string; search?: string } = {},
): RenderResult {
  const location = memoryLocation({ path, searchPath: search });
  renders += 1;
  const prefix = `render-${renders}-`;
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <IdPrefixProvider value={prefix}>
      <BaseProviders locale="en" messages={en}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          {children}
        </Router>
      </BaseProviders>
    </IdPrefixProvider>
  );
  return render(ui, { wrapper: Wrapper });
}

/**
 * The open dialog, once Fluent's focus manager has made it the active modal. Until focus is inside, the
 * manager may still mark the dialog aria-hidden for a moment (it updates on timers), and queries
 * within it would find nothing on a busy machine.
 */
export async function findOpenDialog(name?: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', name === undefined ? {} : { name });
  await waitFor(() => {
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.getAttribute('aria-hidden')).toBeNull();
  });
  return dialog;
}
