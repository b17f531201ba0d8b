import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  languageMachine,
  type LanguageCatalog,
  type LanguageInput,
  type LanguageLocale,
} from '../../machines/language.machine';
import { controlledPromise, flush } from './support';

const EN: LanguageCatalog = { 'common.language': 'Language' };
const ES: LanguageCatalog = { 'common.language': 'Idioma' };
const FR: LanguageCatalog = { 'common.language': 'Langue' };

/** English from the browser's languages unless a test says otherwise. */
function start(input: Partial<LanguageInput> = {}) {
  const load = controlledPromise<LanguageCatalog, { locale: LanguageLocale }>();
  const save = controlledPromise<void, { locale: LanguageLocale }>();
  const calls = {
    markDocumentLanguage: vi.fn(),
    storeLocale: vi.fn(),
    forgetPendingForProfile: vi.fn(),
    refreshProfile: vi.fn(),
  };
  const actor = createActor(
    languageMachine.provide({
      actors: { loadCatalog: load.logic, saveLocale: save.logic },
      actions: {
        markDocumentLanguage: (_, params) => calls.markDocumentLanguage(params.locale),
        storeLocale: (_, params) => calls.storeLocale(params.locale),
        forgetPendingForProfile: calls.forgetPendingForProfile,
        refreshProfile: calls.refreshProfile,
      },
    }),
    {
      input: { locale: 'en', messages: EN, source: 'browser', pendingForProfile: null, ...input },
    },
  ).start();
  const shown = () => {
    const { locale, messages, source } = actor.getSnapshot().context;
    return { locale, messages, source };
  };
  return { actor, load, save, calls, shown };
}

describe('language machine: the language on screen', () => {
  it('starts with the language and catalog it is given, and marks the page with it', () => {
    const { calls, shown } = start({ locale: 'es', messages: ES, source: 'chosen' });
    expect(shown()).toEqual({ locale: 'es', messages: ES, source: 'chosen' });
    expect(calls.markDocumentLanguage).toHaveBeenCalledWith('es');
  });

  it('a choice loads its catalog, then shows it and keeps it on this device, then saves it', async () => {
    const { actor, load, save, calls, shown } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    expect(load.last().input).toEqual({ locale: 'fr' });
    // Until its catalog is there, the screen keeps its language and nothing is stored or saved.
    expect(shown().locale).toBe('en');
    expect(calls.storeLocale).not.toHaveBeenCalled();
    expect(save.calls).toHaveLength(0);

    load.last().result.resolve(FR);
    await flush();
    expect(shown()).toEqual({ locale: 'fr', messages: FR, source: 'chosen' });
    expect(calls.markDocumentLanguage).toHaveBeenLastCalledWith('fr');
    expect(calls.storeLocale).toHaveBeenCalledWith('fr');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(save.last().input).toEqual({ locale: 'fr' });

    save.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls.refreshProfile).toHaveBeenCalledTimes(1);
  });

  it('marks the page only with a language whose catalog is there, however it is asked for', async () => {
    const { actor, load, calls } = start();
    expect(calls.markDocumentLanguage.mock.calls).toEqual([['en']]);
    actor.send({ type: 'language.choose', locale: 'fr' });
    actor.send({ type: 'language.show', locale: 'es' });
    actor.send({ type: 'language.choose', locale: 'fr' });
    expect(calls.markDocumentLanguage.mock.calls).toEqual([['en']]);
    // Each newer request started its own load: the last one is shown.
    expect(load.calls.map((call) => call.input.locale)).toEqual(['fr', 'es', 'fr']);
    expect(load.calls.slice(0, 2).map((call) => call.signal.aborted)).toEqual([true, true]);
    load.last().result.resolve(FR);
    await flush();
    expect(calls.markDocumentLanguage.mock.calls).toEqual([['en'], ['fr']]);
  });

  it('shows a language without saving it (signed out, or already saved by settings)', async () => {
    const { actor, load, save, calls, shown } = start();
    actor.send({ type: 'language.show', locale: 'es' });
    load.last().result.resolve(ES);
    await flush();
    expect(shown()).toEqual({ locale: 'es', messages: ES, source: 'chosen' });
    expect(calls.storeLocale).toHaveBeenCalledWith('es');
    expect(actor.getSnapshot().value).toBe('idle');
    expect(save.calls).toHaveLength(0);
  });

  it('keeps the language on screen when a catalog cannot load, and stores and saves nothing', async () => {
    const { actor, load, save, calls, shown } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    load.last().result.reject(new Error('offline'));
    await flush();
    expect(shown()).toEqual({ locale: 'en', messages: EN, source: 'browser' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls.storeLocale).not.toHaveBeenCalled();
    expect(save.calls).toHaveLength(0);
  });

  it('a newer choice wins over one whose catalog is still loading', async () => {
    const { actor, load, save, shown } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    actor.send({ type: 'language.choose', locale: 'es' });
    load.calls[0]?.result.resolve(FR);
    load.calls[1]?.result.resolve(ES);
    await flush();
    expect(shown().locale).toBe('es');
    expect(save.calls.map((call) => call.input.locale)).toEqual(['es']);
  });

  it('keeps a failed save as a code until the next choice, which saves the newest language', async () => {
    const { actor, load, save, shown } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    load.last().result.resolve(FR);
    await flush();
    save.last().result.reject({ code: 'internal_error', status: 500 });
    await flush();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');
    // The language stays on this device.
    expect(shown().locale).toBe('fr');

    actor.send({ type: 'language.choose', locale: 'es' });
    expect(actor.getSnapshot().hasTag('error')).toBe(false);
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    load.last().result.resolve(ES);
    await flush();
    expect(save.calls.map((call) => call.input.locale)).toEqual(['fr', 'es']);
  });
});

describe('language machine: lining up with the first profile', () => {
  it("shows the profile's language when only the browser's languages chose, and keeps it", async () => {
    const { actor, load, save, calls, shown } = start({ source: 'browser' });
    actor.send({ type: 'language.align', profileLocale: 'fr' });
    expect(load.last().input).toEqual({ locale: 'fr' });
    load.last().result.resolve(FR);
    await flush();
    expect(shown()).toEqual({ locale: 'fr', messages: FR, source: 'chosen' });
    expect(calls.storeLocale).toHaveBeenCalledWith('fr');
    // The profile already has it.
    expect(save.calls).toHaveLength(0);
  });

  it.each([
    ['a language chosen on this device', { locale: 'es', messages: ES, source: 'chosen' }],
    ['an unknown forced or stored locale', { locale: 'en', messages: EN, source: 'forced-unknown' }],
  ] as const)("does not replace %s with the profile's", (_name, input) => {
    const { actor, load, save, calls, shown } = start(input);
    actor.send({ type: 'language.align', profileLocale: 'fr' });
    expect(load.calls).toHaveLength(0);
    expect(save.calls).toHaveLength(0);
    expect(calls.storeLocale).not.toHaveBeenCalled();
    expect(shown()).toEqual(input);
  });

  it("leaves the browser's language for a profile locale it does not translate or already shows", () => {
    for (const profileLocale of ['de', 'en']) {
      const { actor, load } = start({ source: 'browser' });
      actor.send({ type: 'language.align', profileLocale });
      expect(load.calls, profileLocale).toHaveLength(0);
      expect(actor.getSnapshot().value).toBe('idle');
    }
  });

  it('gives a forced locale the profile lacks to it once, and then forgets it', async () => {
    const { actor, save, calls } = start({
      locale: 'fr',
      messages: FR,
      source: 'chosen',
      pendingForProfile: 'fr',
    });
    actor.send({ type: 'language.align', profileLocale: 'en' });
    expect(save.last().input).toEqual({ locale: 'fr' });
    expect(calls.forgetPendingForProfile).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.pendingForProfile).toBeNull();
    save.last().result.resolve();
    await flush();
    expect(calls.refreshProfile).toHaveBeenCalledTimes(1);

    actor.send({ type: 'language.align', profileLocale: 'en' });
    expect(save.calls).toHaveLength(1);
  });

  it('sends nothing when the profile already has the forced locale, and forgets it', () => {
    const { actor, save, calls } = start({
      locale: 'fr',
      messages: FR,
      source: 'chosen',
      pendingForProfile: 'fr',
    });
    actor.send({ type: 'language.align', profileLocale: 'fr' });
    expect(save.calls).toHaveLength(0);
    expect(calls.forgetPendingForProfile).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.pendingForProfile).toBeNull();
  });
});
