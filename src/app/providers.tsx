import type { ReactNode } from 'react';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { IntlProvider } from 'react-intl';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locale';
import type { Catalog } from '../i18n/messages';
import { useLocaleState } from '../i18n/use-locale';

/** Theme and language, shared by the app and the view tests. */
export function BaseProviders({
  locale,
  messages,
  children,
}: {
  locale: Locale;
  messages: Catalog;
  children: ReactNode;
}) {
  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messages}>
      <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
        {children}
      </FluentProvider>
    </IntlProvider>
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const { locale, messages } = useLocaleState();
  // main.tsx loads the catalog before the first render; this only guards the type.
  if (!messages) return null;
  return (
    <BaseProviders locale={locale} messages={messages}>
      {children}
    </BaseProviders>
  );
}
