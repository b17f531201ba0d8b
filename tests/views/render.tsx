// Renders a view the way the app does (theme, English catalog, a router) without the session.
import type { ReactElement, ReactNode } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { BaseProviders } from '../../src/app/providers';
import en from '../../src/i18n/en.json';

export function renderView(
  ui: ReactElement,
  { path = '/documents', search = '' }: { path?: string; search?: string } = {},
): RenderResult {
  const location = memoryLocation({ path, searchPath: search });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <BaseProviders locale="en" messages={en}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        {children}
      </Router>
    </BaseProviders>
  );
  return render(ui, { wrapper: Wrapper });
}
