// jsdom lacks a few browser APIs Fluent UI and the views use. The stand-ins below behave like a
// 1024 px wide desktop screen with a mouse, which is what most view tests describe.
import { cleanup, configure } from '@testing-library/react';
import { forceCleanup, getTabster } from 'tabster';
import { afterEach } from 'vitest';
import './matchers';
import { stopTestShells } from './shell-harness';

// The default 1 s for findBy* and waitFor is too short when CI shares the machine with other work:
// Fluent's first dialog in a test file has taken over 5 s there. A passing wait returns as soon as it
// passes, so only failures get slower.
configure({ asyncUtilTimeout: 10_000 });

// No view test reaches the network: a request fails at once, as offline. The API client resolves its URLs
// against the page (jsdom's localhost), so Node's fetch would send them. A file that answers requests
// stubs fetch for itself (vi.stubGlobal, undone in its afterAll); each file starts from this one.
globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));

afterEach(() => {
  cleanup();
  stopTestShells();
  // Fluent's focus manager lives on the window for the whole file and keeps the modal (dialog) that
  // was active when the test's DOM was removed; the next test's dialog then stays aria-hidden behind it.
  // Its documented reset for "the application DOM is gone" clears that.
  const tabster = getTabster(window);
  if (tabster) forceCleanup(tabster);
  window.localStorage.clear();
});

function evaluateMediaQuery(query: string): boolean {
  const width = window.innerWidth;
  return query.split(/\s+and\s+/).every((part) => {
    const min = /min-width:\s*(\d+)px/.exec(part);
    if (min?.[1]) return width >= Number(min[1]);
    const max = /max-width:\s*(\d+)px/.exec(part);
    if (max?.[1]) return width <= Number(max[1]);
    if (/pointer:\s*coarse/.test(part)) return false;
    if (/prefers-reduced-motion:\s*reduce/.test(part)) return true;
    return false;
  });
}

if (!window.matchMedia) {
  window.matchMedia = (query: string): MediaQueryList => ({
    matches: evaluateMediaQuery(query),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  });
}

class InertObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
  takeRecords(): [] {
    return [];
  }
}

if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { value: InertObserver, writable: true });
}
if (!('IntersectionObserver' in window)) {
  Object.defineProperty(window, 'IntersectionObserver', { value: InertObserver, writable: true });
}
if (!Element.prototype.scrollTo) {
  Element.prototype.scrollTo = () => {};
}
