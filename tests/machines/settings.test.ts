import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import {
  isLocationTooLong,
  settingsMachine,
  settingsToSave,
  type Settings,
  type SettingsLocale,
} from '../../machines/settings.machine';
import { controlledPromise, flush } from './support';

/** The screen opens with `shownLocale` on screen (English unless a test says otherwise). */
function startSettings(shownLocale: SettingsLocale = 'en') {
  const loadSettings = controlledPromise<Settings>();
  const saveSettings = controlledPromise<Settings, Settings>();
  const applyLocale = vi.fn();
  const refreshProfile = vi.fn();
  const goToDocuments = vi.fn();
  const machine = settingsMachine.provide({
    actors: { loadSettings: loadSettings.logic, saveSettings: saveSettings.logic },
    actions: {
      applyLocale: (_, params) => applyLocale(params.locale),
      refreshProfile,
      goToDocuments,
    },
  });
  const actor = createActor(machine, { input: { shownLocale } }).start();
  return { actor, loadSettings, saveSettings, applyLocale, refreshProfile, goToDocuments };
}

async function loaded(
  settings: Settings = { locale: 'es', location: 'Leiden' },
  shownLocale: SettingsLocale = 'en',
) {
  const started = startSettings(shownLocale);
  started.loadSettings.last().result.resolve(settings);
  await flush();
  return started;
}

describe('settings', () => {
  it('is busy while the stored settings load, then shows the location and the language on screen', async () => {
    const { actor, loadSettings } = startSettings('es');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can({ type: 'settings.save' })).toBe(false);
    // The profile says French; this device shows Spanish, which is what the form starts from.
    loadSettings.last().result.resolve({ locale: 'fr', location: 'Lyon' });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'idle' })).toBe(true);
    expect(snapshot.context).toMatchObject({
      locale: 'es',
      shownLocale: 'es',
      location: 'Lyon',
      errorCode: null,
    });
  });

  it('a language chosen in the form applies only once it is saved', async () => {
    const { actor, saveSettings, applyLocale } = await loaded();
    actor.send({ type: 'locale.changed', locale: 'fr' });
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'fr', shownLocale: 'en' });
    expect(applyLocale).not.toHaveBeenCalled();
    actor.send({ type: 'settings.save' });
    expect(saveSettings.last().input).toEqual({ locale: 'fr', location: 'Leiden' });
    expect(applyLocale).not.toHaveBeenCalled();
    saveSettings.last().result.resolve({ locale: 'fr', location: 'Leiden' });
    await flush();
    expect(applyLocale).toHaveBeenCalledExactlyOnceWith('fr');
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'fr', shownLocale: 'fr' });
  });

  it('Cancel leaves the language as it was: a choice in the form is dropped, unsaved', async () => {
    const { actor, saveSettings, applyLocale, goToDocuments } = await loaded();
    actor.send({ type: 'locale.changed', locale: 'fr' });
    actor.send({ type: 'locale.changed', locale: 'es' });
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'es', shownLocale: 'en' });
    actor.send({ type: 'settings.cancel' });
    expect(goToDocuments).toHaveBeenCalledTimes(1);
    expect(applyLocale).not.toHaveBeenCalled();
    expect(saveSettings.calls).toHaveLength(0);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a failed save applies nothing and keeps the chosen language in the form', async () => {
    const { actor, saveSettings, applyLocale } = await loaded();
    actor.send({ type: 'locale.changed', locale: 'fr' });
    actor.send({ type: 'settings.save' });
    saveSettings.last().result.reject({ code: 'server', status: 500 });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'fr', shownLocale: 'en' });
    expect(applyLocale).not.toHaveBeenCalled();
  });

  it('follows a language chosen elsewhere (the sidebar) until one is chosen in the form', async () => {
    const { actor, loadSettings, saveSettings } = startSettings('en');
    // Also while the settings load.
    actor.send({ type: 'locale.shown', locale: 'es' });
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'es', shownLocale: 'es' });
    loadSettings.last().result.resolve({ locale: 'en', location: 'Leiden' });
    await flush();
    expect(actor.getSnapshot().context.locale).toBe('es');
    actor.send({ type: 'locale.shown', locale: 'fr' });
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'fr', shownLocale: 'fr' });

    // A choice made in the form is kept, whatever the screen shows meanwhile.
    actor.send({ type: 'locale.changed', locale: 'en' });
    actor.send({ type: 'locale.shown', locale: 'es' });
    expect(actor.getSnapshot().context).toMatchObject({ locale: 'en', shownLocale: 'es' });
    actor.send({ type: 'settings.save' });
    expect(saveSettings.last().input).toEqual({ locale: 'en', location: 'Leiden' });
  });

  it('the success message stays when the language on screen changes elsewhere', async () => {
    const { actor, saveSettings } = await loaded();
    actor.send({ type: 'settings.save' });
    saveSettings.last().result.resolve({ locale: 'en', location: 'Leiden' });
    await flush();
    actor.send({ type: 'locale.shown', locale: 'fr' });
    expect(actor.getSnapshot().matches({ editing: 'saved' })).toBe(true);
    expect(actor.getSnapshot().context.locale).toBe('fr');
  });

  it('a failed load can be retried', async () => {
    const { actor, loadSettings } = startSettings();
    loadSettings.last().result.reject({ code: 'network' });
    await flush();
    expect(actor.getSnapshot().matches('loadFailed')).toBe(true);
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    actor.send({ type: 'settings.retry' });
    expect(loadSettings.calls).toHaveLength(2);
    loadSettings.last().result.resolve({ locale: 'en', location: '' });
    await flush();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });

  it('saves the trimmed location, switches the language and refreshes the profile', async () => {
    const { actor, saveSettings, applyLocale, refreshProfile } = await loaded();
    actor.send({ type: 'locale.changed', locale: 'fr' });
    actor.send({ type: 'location.changed', location: '  Den Haag \t' });
    actor.send({ type: 'settings.save' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(saveSettings.last().input).toEqual({ locale: 'fr', location: 'Den Haag' });
    // Nothing changes under a running save.
    actor.send({ type: 'location.changed', location: 'Elsewhere' });
    expect(actor.getSnapshot().context.location).toBe('  Den Haag \t');
    expect(applyLocale).not.toHaveBeenCalled();

    saveSettings.last().result.resolve({ locale: 'fr', location: 'Den Haag' });
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'saved' })).toBe(true);
    expect(snapshot.context.location).toBe('Den Haag');
    expect(applyLocale).toHaveBeenCalledWith('fr');
    expect(refreshProfile).toHaveBeenCalledTimes(1);

    // Editing again clears the success message.
    actor.send({ type: 'location.changed', location: 'Delft' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
  });

  it('keeps what was typed when the save fails, and can save again', async () => {
    const { actor, saveSettings, applyLocale, refreshProfile } = await loaded();
    actor.send({ type: 'locale.changed', locale: 'en' });
    actor.send({ type: 'location.changed', location: 'Rotterdam ' });
    actor.send({ type: 'settings.save' });
    saveSettings.last().result.reject({ code: 'server', status: 500 });
    await flush();
    let snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'failed' })).toBe(true);
    expect(snapshot.hasTag('error')).toBe(true);
    expect(snapshot.context).toMatchObject({ locale: 'en', location: 'Rotterdam ', errorCode: 'server' });
    expect(applyLocale).not.toHaveBeenCalled();
    expect(refreshProfile).not.toHaveBeenCalled();

    actor.send({ type: 'settings.save' });
    expect(actor.getSnapshot().context.errorCode).toBeNull();
    expect(saveSettings.calls).toHaveLength(2);
    saveSettings.last().result.resolve({ locale: 'en', location: 'Rotterdam' });
    await flush();
    snapshot = actor.getSnapshot();
    expect(snapshot.matches({ editing: 'saved' })).toBe(true);
    expect(applyLocale).toHaveBeenCalledWith('en');
  });

  it('does not save a location longer than 128 characters once trimmed', async () => {
    const { actor, saveSettings } = await loaded();
    actor.send({ type: 'location.changed', location: 'x'.repeat(129) });
    expect(actor.getSnapshot().can({ type: 'settings.save' })).toBe(false);
    actor.send({ type: 'settings.save' });
    expect(saveSettings.calls).toHaveLength(0);
    actor.send({ type: 'location.changed', location: `  ${'x'.repeat(128)}  ` });
    expect(actor.getSnapshot().can({ type: 'settings.save' })).toBe(true);
  });

  it('cancel leaves for the documents from loading, a failed load and the form', async () => {
    const first = startSettings();
    first.actor.send({ type: 'settings.cancel' });
    expect(first.goToDocuments).toHaveBeenCalledTimes(1);
    expect(first.actor.getSnapshot().status).toBe('done');

    const second = await loaded();
    second.actor.send({ type: 'location.changed', location: 'Unsaved' });
    second.actor.send({ type: 'settings.cancel' });
    expect(second.goToDocuments).toHaveBeenCalledTimes(1);
    expect(second.saveSettings.calls).toHaveLength(0);
    expect(second.actor.getSnapshot().status).toBe('done');
  });

  it('rules: trimming and the length limit', () => {
    expect(settingsToSave({ locale: 'es', location: '  Sevilla  ' })).toEqual({
      locale: 'es',
      location: 'Sevilla',
    });
    expect(isLocationTooLong(' '.repeat(10) + 'a'.repeat(128))).toBe(false);
    expect(isLocationTooLong('a'.repeat(129))).toBe(true);
  });
});
