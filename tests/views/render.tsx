// Renders a view the way the app does (theme, English catalog, a router) without the session.
import type { ReactElement, ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { act, render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { expect } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BaseProviders } from '../../src/app/providers';
import en from '../../src/i18n/en.json';

// React's ids restart with every root, but Fluent's focus manager (tabster) lives on the window for the
// whole file: a dialog in one test could take the id of a dialog from an earlier one still registered
// there, and be hidden (aria-hidden) as if another modal were on top. Each render gets its own prefix.
let renders = 0;
let latest: ReturnType<typeof memoryLocation> | null = null;

/** Where the latest rendered view's router is now: its path and query, as the address bar would say. */
export function currentHref(): string {
  return latest?.history?.at(-1) ?? '';
}

/** Goes somewhere else in the latest rendered view's router, as a link or the app's navigation would. */
export function navigateTo(href: string): void {
  const location = latest;
  if (location === null) throw new Error('nothing is rendered');
  act(() => location.navigate(href));
}

export function renderView(
  ui: ReactElement,
  { path = '/documents', search = '' }: { path?: string; search?: string } = {},
): RenderResult {
  const location = memoryLocation({ path, searchPath: search, record: true });
  latest = location;
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
 * The open dialog, once Fluent's focus manager (tabster) has made it the active modal: focus is inside
 * and the dialog is not aria-hidden. In jsdom on a busy machine the manager can handle the opening
 * click's focus after the dialog's own, and then hides the dialog as if focus had left it; a browser
 * does not (the Chromium journeys check the same dialogs by role). Focusing the dialog's first field
 * again, as Fluent does on opening, gives the manager the event it missed.
 */
export async function findOpenDialog(name?: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', { hidden: true, ...(name === undefined ? {} : { name }) });
  await waitFor(() => {
    if (dialog.getAttribute('aria-hidden') === 'true' || !dialog.contains(document.activeElement)) {
      const first = dialog.querySelector<HTMLElement>(
        'input, textarea, select, button, [tabindex="0"]:not([data-tabster-dummy])',
      );
      act(() => first?.focus());
    }
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(dialog.getAttribute('aria-hidden')).toBeNull();
  });
  return dialog;
}

/**
 * Whether a control refuses to act. Buttons use Fluent's disabledFocusable (aria-disabled, still focusable):
 * a focused button that turned `disabled` would drop focus to <body>, where Esc no longer reaches a dialog.
 */
export function isDisabled(element: Element): boolean {
  return element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true';
}
