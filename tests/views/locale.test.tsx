// Start-up language (spec 001 §1) with a mobile wrapper's ?forceLocale= (spec 000 §1), read once before
// the first render, and what the app's language actor does with this device's storage and the page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { LanguageInput } from '../../machines/language.machine';
import { languageLogic } from '../../src/app/compose-preferences';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import { forgetLocaleForProfile, readStartLocale } from '../../src/i18n/locale';

function openAt(url: string, browserLanguages: string[] = ['en-US']) {
  window.history.replaceState(null, '', url);
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(browserLanguages);
}

beforeEach(() => {
  window.localStorage.clear();
  window.sessionStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('forceLocale at start-up', () => {
  it('starts with a valid forced locale, stores it and removes it from the address bar', () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/login?forceLocale=fr&returnUrl=%2Fapp%2Fdocuments#top');

    expect(readStartLocale()).toEqual({ locale: 'fr', source: 'chosen', pendingForProfile: 'fr' });
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/app/login?returnUrl=%2Fapp%2Fdocuments#top',
    );
    expect(window.sessionStorage.getItem('paraph.forcedLocale')).toBe('fr');
  });

  it('keeps it for the profile across the sign-in pages, until the profile was given it', () => {
    openAt('/app/login?forceLocale=fr');
    readStartLocale();
    // A reload (the parameter is gone) shows the stored choice and still owes it to the profile.
    expect(readStartLocale()).toEqual({ locale: 'fr', source: 'chosen', pendingForProfile: 'fr' });
    forgetLocaleForProfile();
    expect(readStartLocale()).toEqual({ locale: 'fr', source: 'chosen', pendingForProfile: null });
  });

  it('maps a region tag as the browser language is mapped', () => {
    openAt('/app/documents?forceLocale=EN-gb', ['fr-FR']);
    expect(readStartLocale().locale).toBe('en');
    expect(window.localStorage.getItem('locale')).toBe('en');
    expect(window.location.search).toBe('');
  });

  it('starts in English for an unknown forced locale, which nothing replaces, and stores nothing', () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/documents?forceLocale=de', ['fr-FR']);
    expect(readStartLocale()).toEqual({ locale: 'en', source: 'forced-unknown', pendingForProfile: null });
    expect(window.localStorage.getItem('locale')).toBe('es');
    expect(window.location.search).toBe('?forceLocale=de');
  });

  it('treats an empty forceLocale as unknown', () => {
    openAt('/app/documents?forceLocale=', ['es-ES']);
    expect(readStartLocale()).toEqual({ locale: 'en', source: 'forced-unknown', pendingForProfile: null });
    expect(window.localStorage.getItem('locale')).toBeNull();
  });
});

describe('stored locale', () => {
  it("starts in English for an unknown stored value, without rewriting it or taking the profile's", () => {
    window.localStorage.setItem('locale', 'de');
    // A browser language we translate: the fallback is still English, as the "Bad input" says.
    openAt('/app/documents', ['es-ES']);
    expect(readStartLocale()).toEqual({ locale: 'en', source: 'forced-unknown', pendingForProfile: null });
    expect(window.localStorage.getItem('locale')).toBe('de');
  });

  it('treats an empty stored value as no choice: the browser language applies', () => {
    window.localStorage.setItem('locale', '');
    openAt('/app/documents', ['fr-FR']);
    expect(readStartLocale()).toEqual({ locale: 'fr', source: 'browser', pendingForProfile: null });
  });

  it('keeps a valid stored choice as a choice made on this device', () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/documents', ['fr-FR']);
    expect(readStartLocale()).toEqual({ locale: 'es', source: 'chosen', pendingForProfile: null });
  });
});

describe("the app's language actor on this device", () => {
  const START: LanguageInput = { locale: 'en', messages: en, source: 'browser', pendingForProfile: null };

  it('marks the page with the start language, then with each language it shows, and stores it', async () => {
    document.documentElement.lang = 'xx';
    const actor = createActor(languageLogic, { input: START }).start();
    expect(document.documentElement.lang).toBe('en');

    actor.send({ type: 'language.show', locale: 'es' });
    const shown = await waitFor(actor, (snapshot) => snapshot.context.locale === 'es');
    expect(shown.context.messages).toEqual(es);
    expect(shown.context.source).toBe('chosen');
    expect(document.documentElement.lang).toBe('es');
    expect(window.localStorage.getItem('locale')).toBe('es');
    actor.stop();
  });

  it('forgets a forced locale in session storage once the profile has it', () => {
    openAt('/app/login?forceLocale=fr');
    const start = readStartLocale();
    const actor = createActor(languageLogic, { input: { ...start, messages: en } }).start();
    actor.send({ type: 'language.align', profileLocale: 'fr' });
    expect(window.sessionStorage.getItem('paraph.forcedLocale')).toBeNull();
    actor.stop();
  });
});

describe('profile saves', () => {
  it('send settings.locale and settings.welcome_screen_watched to PATCH /profiles/update_settings', async () => {
    vi.resetModules();
    const { api } = await import('../../src/api/client');
    const patch = vi
      .spyOn(api, 'PATCH')
      .mockImplementation(async () => ({ data: undefined, response: new Response(null, { status: 204 }) }));
    const { saveLocale, saveWelcomeScreenWatched } = await import('../../src/services/locale-sync');
    const { createActor, toPromise } = await import('xstate');
    await toPromise(createActor(saveLocale, { input: { locale: 'es' } }).start());
    await toPromise(createActor(saveWelcomeScreenWatched).start());
    expect(
      (patch.mock.calls as unknown as [string, { body: unknown }][]).map(([path, init]) => [path, init.body]),
    ).toEqual([
      ['/profiles/update_settings', { settings: { locale: 'es' } }],
      ['/profiles/update_settings', { settings: { welcome_screen_watched: true } }],
    ]);
  });
});
