// The stamp's words in the signer's language (their profile's locale: en, es, fr), from ./catalogs as ICU
// messages like the e-mails' (server/mail/catalogs). Dates are written out with the month's name, which
// no reader mistakes for another day, in UTC as the signature's own time is.
import { IntlMessageFormat } from 'intl-messageformat';
import en from './catalogs/en.json' with { type: 'json' };
import es from './catalogs/es.json' with { type: 'json' };
import fr from './catalogs/fr.json' with { type: 'json' };
import type { SmartCardType } from './smart-card-type.ts';

export const STAMP_LOCALES = ['en', 'es', 'fr'] as const;
export type StampLocale = (typeof STAMP_LOCALES)[number];
export type StampCatalogId = keyof typeof en;

export const STAMP_CATALOGS: Record<StampLocale, Record<StampCatalogId, string>> = { en, es, fr };

/** A profile's locale as the stamp's language: its language part if Paraph has it, else English. */
export function toStampLocale(value: string | null | undefined): StampLocale {
  const language = value?.trim().toLowerCase().split(/[-_]/)[0];
  return (STAMP_LOCALES as readonly string[]).includes(language ?? '') ? (language as StampLocale) : 'en';
}

const FORMATS = {
  date: { stamp: { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' } },
  time: {
    stamp: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC' },
  },
} as const;

// Parsing a message and resolving its locale takes a few milliseconds: each is done once.
const formatters = new Map<string, IntlMessageFormat>();
function formatterOf(locale: StampLocale, id: StampCatalogId): IntlMessageFormat {
  const key = `${locale}:${id}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    formatter = new IntlMessageFormat(STAMP_CATALOGS[locale][id], locale, FORMATS);
    formatters.set(key, formatter);
  }
  return formatter;
}

export type StampTexts = {
  date: string;
  /** The labelled fields: the user's words go in whole, never read as a message. */
  location: (location: string) => string;
  reason: (reason: string) => string;
  level: string;
  pageTitle: string;
  pageNote: string;
};

export function stampTexts(locale: StampLocale, signedAt: Date, smartCardType: SmartCardType): StampTexts {
  const format = (id: StampCatalogId, values: Record<string, string | Date> = {}): string => {
    const formatted = formatterOf(locale, id).format(values);
    return Array.isArray(formatted) ? formatted.join('') : String(formatted);
  };
  const level = /^(personal|business)_level(\d)$/.exec(smartCardType);
  return {
    date: format('date', { signedAt }),
    location: (location) => format('location', { location }),
    reason: (reason) => format('reason', { reason }),
    level: format('level', { kind: level?.[1] ?? 'default', number: level?.[2] ?? '' }),
    pageTitle: format('page.title'),
    pageNote: format('page.note'),
  };
}
