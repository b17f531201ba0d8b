// Renders a view the way the app does (theme, English catalog, a router) without the session.
import type { ReactElement, ReactNode } from 'react';
import { IdPrefixProvider } from '@fluentui/react-components';
import { act, isInaccessible, render, screen, waitFor, type RenderResult } from '@testing-library/react';
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

/** A dialog's title as its aria-labelledby names it: there even while the dialog is hidden. */
function titleOf(dialog: HTMLElement): string | null {
  const title = document.getElementById(dialog.getAttribute('aria-labelledby') ?? '');
  return title?.textContent ?? dialog.getAttribute('aria-label');
}

/**
 * The open dialog (the one titled `title`, if given), once Fluent's focus manager (tabster) has made it
 * the active modal, so that its fields and buttons can be found by role and stay so until it closes.
 * Query a dialog's content only through this.
 *
 * Tabster registers a dialog's modal a moment after the dialog mounts, and 250 ms after a change it
 * hides (aria-hidden) every modal that is not the active one and everything outside the active one. A
 * modal becomes the active one when focus lands in it. In jsdom on a busy machine Fluent can focus the
 * dialog before tabster has registered it; tabster then never makes it active, and its next update
 * hides the dialog: `findByRole('dialog')` may have seen it a moment before, and a `getByRole` inside
 * it then fails. A browser does not lag so (the Chromium journeys check the same dialogs by role). A
 * focus event in the dialog (the focused element again, or the surface) gives tabster the one it missed.
 *
 * The dialog counts as open once it is readable with focus inside while the page outside it is hidden:
 * only an update made with this dialog active leaves that, and no later one undoes it while focus stays
 * inside. Checking only that the dialog is readable passes in the 250 ms before such an update too.
 * (Every dialog of the app is modal: a non-modal one leaves the page readable and would never count.)
 */
export async function findOpenDialog(title?: string): Promise<HTMLElement> {
  return waitFor(() => {
    // Found by title, not by accessible name: a dialog that is aria-hidden for the moment has none.
    const dialogs = screen
      .queryAllByRole('dialog', { hidden: true })
      .filter((candidate) => title === undefined || titleOf(candidate) === title);
    if (dialogs.length !== 1) {
      throw new Error(
        `expected one open dialog${title === undefined ? '' : ` titled "${title}"`}, found ${dialogs.length}`,
      );
    }
    const dialog = dialogs[0] as HTMLElement;
    const focused = document.activeElement;
    const pageHidden = Array.from(document.body.children).some(
      (child) =>
        !child.contains(dialog) &&
        !child.hasAttribute('data-tabster-dummy') &&
        child.getAttribute('aria-hidden') === 'true',
    );
    if (!(focused instanceof HTMLElement) || !dialog.contains(focused)) {
      // The surface itself (tabindex -1), as Fluent does when nothing in it can take focus yet: a field
      // or a button focused here instead would change what Enter or typing then does.
      act(() => dialog.focus());
    } else if (isInaccessible(dialog)) {
      act(() => {
        focused.blur();
        focused.focus();
      });
    }
    expect(dialog.contains(document.activeElement)).toBe(true);
    // The dialog and every element around it: the portal too can be hidden.
    expect(isInaccessible(dialog)).toBe(false);
    expect(pageHidden).toBe(true);
    return dialog;
  });
}

/**
 * Once every dialog is gone, closing animation included, and Fluent's focus manager has given the page
 * back: it takes aria-hidden off the rest of the page up to 250 ms after the last dialog closed, and until
 * then nothing there can be found by role. `queryByRole('dialog')` is no test of a closed dialog: it also
 * finds nothing while the dialog is open but hidden.
 */
export async function waitForDialogsClosed(): Promise<void> {
  await waitFor(() => {
    expect(screen.queryAllByRole('dialog', { hidden: true })).toEqual([]);
    const hidden = Array.from(document.body.children).filter(
      (child) => child.getAttribute('aria-hidden') === 'true' && !child.hasAttribute('data-tabster-dummy'),
    );
    expect(hidden).toEqual([]);
  });
}

/**
 * Whether a control refuses to act. Buttons use Fluent's disabledFocusable (aria-disabled, still focusable):
 * a focused button that turned `disabled` would drop focus to <body>, where Esc no longer reaches a dialog.
 */
export function isDisabled(element: Element): boolean {
  return element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true';
}
