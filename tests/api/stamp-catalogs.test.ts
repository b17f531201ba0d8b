// The stamp's texts (server/signing/catalogs): every language says the same things with the same values,
// French writes as French does, and a profile's locale picks the language.
import { describe, expect, it } from 'vitest';
import { STAMP_LOCALES, stampTexts, toStampLocale } from '../../server/signing/stamp-text.ts';
import en from '../../server/signing/catalogs/en.json' with { type: 'json' };
import es from '../../server/signing/catalogs/es.json' with { type: 'json' };
import fr from '../../server/signing/catalogs/fr.json' with { type: 'json' };
import { placeholders } from './catalog-support.ts';

// With their kind: `{signedAt, date}` in one language and `{signedAt}` in another would differ.
const placeholdersWithKind = (message: string): string[] => placeholders(message, { withKind: true });

describe('the stamp catalogs', () => {
  it('have the same messages with the same placeholders in every language', () => {
    const catalogs: Record<string, Record<string, string>> = { en, es, fr };
    expect(Object.keys(catalogs).sort()).toEqual([...STAMP_LOCALES].sort());
    for (const locale of STAMP_LOCALES) {
      expect(Object.keys(catalogs[locale] ?? {}).sort(), locale).toEqual(Object.keys(en).sort());
      for (const [id, text] of Object.entries(en)) {
        expect(placeholdersWithKind(catalogs[locale]?.[id] ?? ''), `${locale} ${id}`).toEqual(
          placeholdersWithKind(text),
        );
      }
    }
    // Each message names what the stamp passes: a date, a location, a reason, a level.
    expect(placeholdersWithKind(en.date)).toEqual(['signedAt:3', 'signedAt:4']);
    expect(placeholdersWithKind(en.level)).toEqual(['kind:5', 'number:1']);
  });

  it('French uses the curly apostrophe and a no-break space before its double punctuation', () => {
    for (const text of Object.values(fr)) {
      expect(text).not.toContain("'");
      // Not a plain space either: the colon would start a line of its own when the text wraps.
      expect(text).not.toMatch(/[^\u00a0\u202f][:?!;]/);
    }
  });

  it('are plain text: no message renders markup or a placeholder left unfilled', () => {
    for (const locale of STAMP_LOCALES) {
      for (const smartCardType of ['personal_level0', 'business_level4', 'default'] as const) {
        const texts = stampTexts(locale, new Date('2025-12-31T23:59:59Z'), smartCardType);
        const all = [
          texts.date,
          texts.location('{x} <b>'),
          texts.reason("It's {fine}"),
          texts.level,
          texts.pageTitle,
          texts.pageNote,
        ];
        for (const text of all) {
          expect(text, `${locale} ${smartCardType}`).not.toMatch(/undefined|\{(?!x\}|fine\})/);
        }
        // The user's words go in as they are, braces and apostrophes included.
        expect(texts.location('{x} <b>')).toContain('{x} <b>');
        expect(texts.reason("It's {fine}")).toContain("It's {fine}");
        expect(texts.date).toMatch(/2025.*23:59:59 UTC/);
      }
    }
  });
});

describe('the stamp language of a profile locale', () => {
  it.each([
    ['en', 'en'],
    ['es', 'es'],
    ['fr', 'fr'],
    ['fr-BE', 'fr'],
    ['ES_mx', 'es'],
    ['de', 'en'],
    ['', 'en'],
    [null, 'en'],
  ] as const)('%s → %s', (locale, expected) => {
    expect(toStampLocale(locale)).toBe(expected);
  });
});
