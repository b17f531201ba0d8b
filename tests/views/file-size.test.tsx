// The size the details panel and the sign screen show, in the interface's language (the API's
// humanFilesize is English only).
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../src/views/format';

const intlOf = (locale: string) => createIntl({ locale });
// Intl separates the number and the unit with a no-break space.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatFileSize', () => {
  it('follows the server steps (1024, one decimal under 10) in each language', () => {
    const cases: [number, string, string, string][] = [
      [2 * 1024, '2 kB', '2 ko', '2 kB'],
      [Math.round(1.24 * 1024 * 1024), '1.2 MB', '1,2 Mo', '1,2 MB'],
      [48 * 1024 + 300, '48 kB', '48 ko', '48 kB'],
      [3 * 1024 ** 3, '3 GB', '3 Go', '3 GB'],
      [300, '0.3 kB', '0,3 ko', '0,3 kB'],
    ];
    for (const [bytes, en, fr, es] of cases) {
      expect(plain(formatFileSize(intlOf('en'), bytes, 'x')), `${bytes} en`).toBe(en);
      expect(plain(formatFileSize(intlOf('fr'), bytes, 'x')), `${bytes} fr`).toBe(fr);
      expect(plain(formatFileSize(intlOf('es'), bytes, 'x')), `${bytes} es`).toBe(es);
    }
  });

  it("shows the server's text when the byte count is missing or unusable", () => {
    expect(formatFileSize(intlOf('fr'), undefined, '12 KB')).toBe('12 KB');
    expect(formatFileSize(intlOf('fr'), Number.NaN, '12 KB')).toBe('12 KB');
    expect(formatFileSize(intlOf('fr'), -1, '12 KB')).toBe('12 KB');
  });
});
