// What a person sees, as assertions that can fail. A getBy* query already throws when nothing matches,
// so `expect(getBy…).toBeTruthy()` asserts nothing; and getByText finds text that is hidden (display:
// none, a collapsed section, a screen-reader-only span) as readily as text on screen. jest-dom is not a
// dependency: these two matchers, named as its own, cover what the view tests need.
import { expect } from 'vitest';

/**
 * Text kept for assistive technology only (src/views/visually-hidden.ts): in the page, out of sight. jsdom
 * drops its `clip: rect(0 0 0 0)`, so it is known by the rest: absolute, 1 px square, overflow hidden.
 */
function screenReaderOnly(style: CSSStyleDeclaration): boolean {
  return (
    style.position === 'absolute' &&
    style.width === '1px' &&
    style.height === '1px' &&
    style.overflow === 'hidden'
  );
}

function describeElement(element: Element): string {
  const id = element.id ? `#${element.id}` : '';
  const className = element.getAttribute('class')?.split(/\s+/)[0];
  return `<${element.tagName.toLowerCase()}${id}${className ? `.${className}` : ''}>`;
}

/** Why a sighted person does not see `element`, or null when nothing hides it. */
function hiddenBy(element: Element): string | null {
  if (!element.isConnected) return 'it is not in the document';
  const own = window.getComputedStyle(element);
  if (own.visibility === 'hidden' || own.visibility === 'collapse') {
    return `visibility: ${own.visibility} on ${describeElement(element)}`;
  }
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    if (node.hasAttribute('hidden')) return `the hidden attribute of ${describeElement(node)}`;
    const style = window.getComputedStyle(node);
    if (style.display === 'none') return `display: none on ${describeElement(node)}`;
    if (style.opacity === '0') return `opacity: 0 on ${describeElement(node)}`;
    if (node !== element && (style.visibility === 'hidden' || style.visibility === 'collapse')) {
      return `visibility: ${style.visibility} on ${describeElement(node)}`;
    }
    if (screenReaderOnly(style)) return `the screen-reader-only style of ${describeElement(node)}`;
    const parent = node.parentElement;
    if (parent instanceof HTMLDetailsElement && !parent.open && node.tagName !== 'SUMMARY') {
      return `the closed ${describeElement(parent)}`;
    }
  }
  return null;
}

/** Whether a control refuses to act: `disabled`, or Fluent's disabledFocusable (aria-disabled). */
function disabledBy(element: Element): string | null {
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    if (
      node.hasAttribute('disabled') &&
      node.matches('button, input, select, textarea, fieldset, optgroup, option')
    ) {
      return `the disabled attribute of ${describeElement(node)}`;
    }
    if (node === element && node.getAttribute('aria-disabled') === 'true') {
      return `aria-disabled="true" on ${describeElement(node)}`;
    }
  }
  return null;
}

function asElement(received: unknown, matcher: string): Element {
  if (!(received instanceof Element))
    throw new TypeError(`${matcher} expects an element, got ${String(received)}`);
  return received;
}

expect.extend({
  toBeVisible(received: unknown) {
    const element = asElement(received, 'toBeVisible');
    const reason = hiddenBy(element);
    return {
      pass: reason === null,
      message: () =>
        reason === null
          ? `expected ${describeElement(element)} not to be visible, but nothing hides it`
          : `expected ${describeElement(element)} "${element.textContent ?? ''}" to be visible, but ${reason} hides it`,
    };
  },
  toBeEnabled(received: unknown) {
    const element = asElement(received, 'toBeEnabled');
    const reason = disabledBy(element);
    return {
      pass: reason === null,
      message: () =>
        reason === null
          ? `expected ${describeElement(element)} to be disabled, but it is enabled`
          : `expected ${describeElement(element)} "${element.textContent ?? ''}" to be enabled, but ${reason} disables it`,
    };
  },
});

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /** In the document and seen: no hidden attribute, display: none, visibility, zero opacity or sr-only clip. */
    toBeVisible(): T;
    /** Accepts presses: neither `disabled` (itself or a disabled fieldset) nor aria-disabled="true". */
    toBeEnabled(): T;
  }
}
