// en.json is the reference catalog: its keys type every message id in the app. Catalogs are loaded on
// demand, so only the language in use is downloaded.
import type { Locale } from './locale';

type EnglishCatalog = typeof import('./en.json');
export type MessageId = Exclude<keyof EnglishCatalog, 'default'>;
export type Catalog = Record<MessageId, string>;

export async function loadCatalog(locale: Locale): Promise<Catalog> {
  switch (locale) {
    case 'es':
      return (await import('./es.json')).default;
    case 'fr':
      return (await import('./fr.json')).default;
    default:
      return (await import('./en.json')).default;
  }
}

declare global {
  // react-intl reads message ids from this global declaration; merging needs `interface` here.
  // eslint-disable-next-line @typescript-eslint/no-namespace -- react-intl's typing hook is this global namespace
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
  }
}
