// Reading the server's ICU message catalogs (mail, stamp) in the tests that compare their languages.
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The names a message's placeholders use, from its parsed ICU form; with `withKind`, each with its kind
 * (a date, a select, plain text), so that `{signedAt, date}` and `{signedAt}` differ.
 */
export function placeholders(message: string, { withKind = false }: { withKind?: boolean } = {}): string[] {
  const names = new Set<string>();
  type Elements = ReturnType<IntlMessageFormat['getAst']>;
  const walk = (elements: Elements): void => {
    for (const element of elements) {
      if ('value' in element && typeof element.value === 'string' && element.type !== 0)
        names.add(withKind ? `${element.value}:${element.type}` : element.value);
      if ('options' in element) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst());
  return [...names].sort();
}
