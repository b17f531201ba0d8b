import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { languageMachine, type LanguageLocale } from '../../machines/language.machine';
import { controlledPromise, flush } from './support';

function start() {
  const save = controlledPromise<void, { locale: LanguageLocale }>();
  const applyLocale = vi.fn();
  const refreshProfile = vi.fn();
  const actor = createActor(
    languageMachine.provide({
      actors: { saveLocale: save.logic },
      actions: { applyLocale: (_, params) => applyLocale(params.locale), refreshProfile },
    }),
  ).start();
  return { actor, save, applyLocale, refreshProfile };
}

describe('language machine', () => {
  it('applies a choice before saving it, then refreshes the profile', async () => {
    const { actor, save, applyLocale, refreshProfile } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    expect(applyLocale).toHaveBeenCalledWith('fr');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(save.last().input).toEqual({ locale: 'fr' });
    save.last().result.resolve();
    await flush();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(refreshProfile).toHaveBeenCalledTimes(1);
  });

  it('only saves a forced locale, which is already applied', () => {
    const { actor, save, applyLocale } = start();
    actor.send({ type: 'language.save', locale: 'es' });
    expect(applyLocale).not.toHaveBeenCalled();
    expect(save.last().input).toEqual({ locale: 'es' });
  });

  it('keeps a failure as a code until the next choice, which saves the newest language', async () => {
    const { actor, save } = start();
    actor.send({ type: 'language.choose', locale: 'fr' });
    save.last().result.reject({ code: 'internal_error', status: 500 });
    await flush();
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().context.errorCode).toBe('internal_error');
    actor.send({ type: 'language.choose', locale: 'es' });
    expect(actor.getSnapshot().hasTag('error')).toBe(false);
    actor.send({ type: 'language.choose', locale: 'en' });
    expect(save.calls.map((call) => call.input.locale)).toEqual(['fr', 'es', 'en']);
  });
});
