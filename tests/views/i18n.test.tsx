import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import en from '../../src/i18n/en.json';
import es from '../../src/i18n/es.json';
import fr from '../../src/i18n/fr.json';

const CATALOGS: Record<string, Record<string, string>> = { en, es, fr };

function argumentsOf(elements: MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    found.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, found);
    }
  }
  return found;
}

describe('translation catalogs', () => {
  it.each(['es', 'fr'])('%s has exactly the keys of en', (locale) => {
    expect(Object.keys(CATALOGS[locale] ?? {}).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(['en', 'es', 'fr'])('every %s message parses and is not empty', (locale) => {
    for (const [key, message] of Object.entries(CATALOGS[locale] ?? {})) {
      expect(message.trim(), key).not.toBe('');
      expect(() => parse(message), key).not.toThrow();
    }
  });

  it.each(['es', 'fr'])('%s messages take the same arguments as en', (locale) => {
    const catalog = CATALOGS[locale] ?? {};
    for (const [key, message] of Object.entries(en)) {
      const translated = catalog[key] ?? '';
      expect([...argumentsOf(parse(translated))].sort(), key).toEqual(
        [...argumentsOf(parse(message))].sort(),
      );
    }
  });

  it.each(['es', 'fr'])('%s is translated, not a copy of en', (locale) => {
    const catalog = CATALOGS[locale] ?? {};
    const copied = Object.entries(en).filter(
      ([key, message]) => catalog[key] === message && /[a-z]{4,}/i.test(message),
    );
    // Product and language names, and a few cognates ("Documents", "Pages"), are the same in every
    // language; a catalog that is mostly English was not translated.
    expect(copied.length / Object.keys(en).length).toBeLessThan(0.1);
  });

  it('writes French with one apostrophe, the typographic one', () => {
    const straight = Object.entries(fr).filter(([, message]) => message.includes("'"));
    expect(straight.map(([key]) => key)).toEqual([]);
  });
});
