// Start-up language (spec 001 §1) with a mobile wrapper's ?forceLocale= (spec 000 §1), and the rule
// that lines the language up with the signed-in profile. locale.ts keeps page state, so each test
// imports a fresh copy.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

async function freshLocale() {
  vi.resetModules();
  return import('../../src/i18n/locale');
}

function openAt(url: string, browserLanguages: string[] = ['en-US']) {
  window.history.replaceState(null, '', url);
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(browserLanguages);
}

beforeEach(() => {
  window.sessionStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

describe('forceLocale at start-up', () => {
  it('applies and stores a valid forced locale once, and removes it from the address bar', async () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/login?forceLocale=fr&returnUrl=%2Fapp%2Fdocuments#top');
    const locale = await freshLocale();
    await locale.initLocale();

    expect(locale.getLocaleState().locale).toBe('fr');
    expect(document.documentElement.lang).toBe('fr');
    expect(window.localStorage.getItem('locale')).toBe('fr');
    expect(window.location.pathname + window.location.search + window.location.hash).toBe(
      '/app/login?returnUrl=%2Fapp%2Fdocuments#top',
    );
    // The profile is given it once, even after the sign-in pages (session storage).
    expect(window.sessionStorage.getItem('paraph.forcedLocale')).toBe('fr');
    expect(locale.takeLocaleForProfile()).toBe('fr');
    expect(locale.takeLocaleForProfile()).toBeNull();
    expect(locale.followsProfileLocale()).toBe(false);

    // A reload (the parameter is gone) neither applies nor saves it again.
    const reloaded = await freshLocale();
    await reloaded.initLocale();
    expect(reloaded.getLocaleState().locale).toBe('fr');
    expect(reloaded.takeLocaleForProfile()).toBeNull();
  });

  it('maps a region tag as the browser language is mapped', async () => {
    openAt('/app/documents?forceLocale=EN-gb', ['fr-FR']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('en');
    expect(window.localStorage.getItem('locale')).toBe('en');
    expect(window.location.search).toBe('');
  });

  it('shows English for an unknown forced locale and saves nothing', async () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/documents?forceLocale=de', ['fr-FR']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('en');
    expect(window.localStorage.getItem('locale')).toBe('es');
    expect(locale.takeLocaleForProfile()).toBeNull();
    // Not replaced by the profile's either: English for this page.
    expect(locale.followsProfileLocale()).toBe(false);
  });

  it('treats an empty forceLocale as unknown', async () => {
    openAt('/app/documents?forceLocale=', ['es-ES']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('en');
    expect(window.localStorage.getItem('locale')).toBeNull();
  });
});

describe('stored locale', () => {
  it('shows English for an unknown stored value, without rewriting it or taking the profile\'s', async () => {
    window.localStorage.setItem('locale', 'de');
    // A browser language we translate: the fallback is still English, as the "Bad input" says.
    openAt('/app/documents', ['es-ES']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('en');
    expect(window.localStorage.getItem('locale')).toBe('de');
    expect(locale.takeLocaleForProfile()).toBeNull();
    expect(locale.followsProfileLocale()).toBe(false);
  });

  it('treats an empty stored value as no choice: the browser language applies', async () => {
    window.localStorage.setItem('locale', '');
    openAt('/app/documents', ['fr-FR']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('fr');
    expect(locale.followsProfileLocale()).toBe(true);
  });

  it('keeps a valid stored choice as a choice made on this device', async () => {
    window.localStorage.setItem('locale', 'es');
    openAt('/app/documents', ['fr-FR']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.getLocaleState().locale).toBe('es');
    expect(locale.followsProfileLocale()).toBe(false);
  });

  it('counts a choice made in the page as a choice', async () => {
    openAt('/app/documents', ['fr-FR']);
    const locale = await freshLocale();
    await locale.initLocale();
    expect(locale.followsProfileLocale()).toBe(true);
    await locale.setLocale('es');
    expect(locale.followsProfileLocale()).toBe(false);
    expect(window.localStorage.getItem('locale')).toBe('es');
  });
});

describe('decideProfileLocale', () => {
  it('saves a pending forced locale the profile lacks, and nothing when it has it', async () => {
    const { decideProfileLocale } = await import('../../src/services/locale-sync');
    expect(decideProfileLocale('en', 'fr', false, 'fr')).toEqual({ kind: 'save', locale: 'fr' });
    expect(decideProfileLocale('fr', 'fr', false, 'fr')).toEqual({ kind: 'none' });
  });

  it("shows the profile's locale only when nobody chose one on this device", async () => {
    const { decideProfileLocale } = await import('../../src/services/locale-sync');
    expect(decideProfileLocale('es', null, true, 'en')).toEqual({ kind: 'show', locale: 'es' });
    expect(decideProfileLocale('es', null, false, 'fr')).toEqual({ kind: 'none' });
    expect(decideProfileLocale('es', null, true, 'es')).toEqual({ kind: 'none' });
    expect(decideProfileLocale('de', null, true, 'en')).toEqual({ kind: 'none' });
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
