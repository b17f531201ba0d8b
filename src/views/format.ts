import type { IntlShape } from 'react-intl';

export const NAME_DISPLAY_LIMIT = 100;

/** Cuts a long file name at 100 characters with an ellipsis (spec 000 §2); the full name goes in a title. */
export function truncateName(name: string, limit = NAME_DISPLAY_LIMIT): string {
  const characters = Array.from(name);
  return characters.length > limit ? `${characters.slice(0, limit).join('')}…` : name;
}

/**
 * Dates as spec 000 §9 writes them: en 'MMM d yyyy, HH:mm', fr and es 'd MMM yyyy, HH:mm'. Intl has no
 * pattern API, so the parts come from react-intl in the user's locale and are put in the spec's order.
 */
export function formatDateTime(intl: IntlShape, value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  const parts = intl.formatDateToParts(date, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const time = `${part('hour')}:${part('minute')}`;
  const day = part('day');
  const month = part('month');
  const year = part('year');
  return intl.locale.startsWith('en')
    ? `${month} ${day} ${year}, ${time}`
    : `${day} ${month} ${year}, ${time}`;
}

/**
 * A release date (ISO yyyy-mm-dd) as the release notes write it, MMM d yyyy (spec 001 §2), with the month
 * abbreviated in the user's language. The date is a calendar day, not an instant: it is read and formatted
 * in UTC so that no time zone moves it to the day before.
 */
export function formatReleaseDate(intl: IntlShape, isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate) || Number.isNaN(date.getTime())) return '';
  const parts = intl.formatDateToParts(date, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')} ${part('day')} ${part('year')}`;
}

const SIZE_UNITS = ['kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * A file size in the user's language ("2 kB", "2 ko", "1,2 Mo"), with the server's steps (1024, one
 * decimal under 10): the API's `humanFilesize` is English only. Without the byte count (an older server)
 * its text is shown as it is.
 */
export function formatFileSize(intl: IntlShape, bytes: number | undefined, fallback: string): string {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return fallback;
  // Under 1 KB too in kilobytes ("0.5 kB"): Intl's short byte unit reads "512 byte" in English.
  let value = Math.max(bytes / 1024, 0.1);
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return intl.formatNumber(value, {
    style: 'unit',
    unit: SIZE_UNITS[unit] ?? 'gigabyte',
    maximumFractionDigits: value >= 10 ? 0 : 1,
  });
}
