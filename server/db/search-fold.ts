// What "the same letters" means to the document search: case and accents do not count ("resume" finds
// "Résumé", "ÉTÉ" finds "été"), whether the name was written precomposed or decomposed (macOS file names).
// The fold is the same steps on both databases, so a search behaves the same on both: SQLite calls this
// function (registered on the connection), PostgreSQL runs `paraph_fold` (migration 0014), built from the
// same pieces below.
//
// 1. Decompose (Unicode NFD), so an accented letter becomes its letter and its accents.
// 2. Drop the combining diacritical marks (the blocks below), whatever letter they sat on.
// 3. Lower case.
// 4. Letters with a stroke, which have no decomposition and which people type without it: ø, ł, đ, ħ,
//    ŧ and the dotless ı become o, l, d, h, t, i; and the final sigma ς is σ (JavaScript's lower case
//    writes ς at the end of a word, PostgreSQL's never).
//
// The text stays decomposed: both sides of a comparison are folded, so they agree. Letters that would
// become two (ß, æ, œ) stay as they are. On a PostgreSQL database whose locale is "C", lower() only knows
// A-Z: capitals without an accent in other alphabets (Greek, Cyrillic) then keep their case there.

// The combining diacritical mark blocks (U+0300-036F and its extended, supplement, for-symbols and
// half-mark blocks); written as a regular expression both JavaScript and PostgreSQL read alike.
const MARK_RANGES = [
  ['0300', '036f'],
  ['1ab0', '1aff'],
  ['1dc0', '1dff'],
  ['20d0', '20ff'],
  ['fe20', 'fe2f'],
] as const;

const STROKED_FROM = 'øØłŁđĐħĦıŧŦς';
const STROKED_TO = 'oollddhhittσ';

const MARKS = new RegExp(`[${MARK_RANGES.map(([from, to]) => `\\u${from}-\\u${to}`).join('')}]`, 'g');
const STROKED = new Map([...STROKED_FROM].map((char, index) => [char, STROKED_TO[index] ?? char]));
const STROKED_PATTERN = new RegExp(`[${STROKED_FROM}]`, 'g');

/** Lower case and without diacritics, as above. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(STROKED_PATTERN, (char) => STROKED.get(char) ?? char);
}

/** The same steps as one PostgreSQL expression over `value`. */
export function foldExpressionSql(value: string): string {
  const marks = MARK_RANGES.map(([from, to]) => `\\u${from}-\\u${to}`).join('');
  return `translate(lower(regexp_replace(normalize(${value}, NFD), '[${marks}]', '', 'g')), '${STROKED_FROM}', '${STROKED_TO}')`;
}
