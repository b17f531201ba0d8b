// The build's catalogs in two parts (src/i18n/messages.ts): the app starts with the first, and code loaded
// on demand runs only once the rest is in that very catalog object, even code asked for before the start
// catalog was; a second part that fails to arrive fails the load, and the next load asks again. A
// language chosen later comes whole.
import { afterEach, describe, expect, it, vi } from 'vitest';

const PARTS = '/tests/fixtures/catalog-parts';

function nameParts(rests: string) {
  for (const tag of document.head.querySelectorAll('meta')) tag.remove();
  for (const [name, content] of [
    ['paraph-catalogs', `en=${PARTS}/en-first.ts`],
    ['paraph-catalog-rests', rests],
  ]) {
    const tag = document.createElement('meta');
    tag.setAttribute('name', name ?? '');
    tag.setAttribute('content', content ?? '');
    document.head.append(tag);
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
  for (const tag of document.head.querySelectorAll('meta')) tag.remove();
});

describe('the catalog in two parts (a build)', () => {
  it('starts with the first part and completes it in place before code loaded on demand runs', async () => {
    vi.stubEnv('PROD', true);
    nameParts(`en=${PARTS}/en-rest.ts`);
    const { loadStartCatalog, withMessages } = await import('../../src/i18n/messages');
    const catalog = await loadStartCatalog('en');
    expect(catalog).toEqual({ 'app.name': 'Paraph', 'app.loading': 'Loading…' });

    const screen = { name: 'a screen' };
    await expect(withMessages(Promise.resolve(screen))).resolves.toBe(screen);
    expect(catalog).toEqual({
      'app.name': 'Paraph',
      'app.loading': 'Loading…',
      'documents.sign.title': 'Sign the document',
    });
  });

  it('holds code asked for before the start catalog (the start-up preload of a screen) until both parts are in', async () => {
    vi.stubEnv('PROD', true);
    nameParts(`en=${PARTS}/en-rest.ts`);
    const { loadStartCatalog, withMessages } = await import('../../src/i18n/messages');
    const screen = withMessages(Promise.resolve('the document screen'));
    const catalog = await loadStartCatalog('en');
    await expect(screen).resolves.toBe('the document screen');
    expect(catalog).toHaveProperty(['documents.sign.title'], 'Sign the document');
  });

  it('fails a load whose second part cannot come, and asks again with the next one', async () => {
    vi.stubEnv('PROD', true);
    nameParts('');
    const { loadStartCatalog, withMessages } = await import('../../src/i18n/messages');
    const catalog = await loadStartCatalog('en');
    await expect(withMessages(Promise.resolve('code'))).rejects.toThrow(
      'The page names no rest part of the en catalog',
    );
    expect(Object.keys(catalog)).toEqual(['app.name', 'app.loading']);

    nameParts(`en=${PARTS}/en-rest.ts`);
    await expect(withMessages(Promise.resolve('code'))).resolves.toBe('code');
    expect(catalog).toHaveProperty(['documents.sign.title'], 'Sign the document');
  });

  it('loads a language chosen later whole', async () => {
    vi.stubEnv('PROD', true);
    nameParts(`en=${PARTS}/en-rest.ts`);
    const { loadCatalog } = await import('../../src/i18n/messages');
    await expect(loadCatalog('en')).resolves.toEqual({
      'app.name': 'Paraph',
      'app.loading': 'Loading…',
      'documents.sign.title': 'Sign the document',
    });
  });
});
