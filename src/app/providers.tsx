import { useLayoutEffect, useSyncExternalStore, type ReactNode } from 'react';
import { FluentProvider, makeStaticStyles } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { IntlProvider } from 'react-intl';
import { DEFAULT_LOCALE, type Locale } from '../i18n/locale';
import type { Catalog } from '../i18n/messages';
import { fluentTheme, getResolvedTheme, paintDocument, subscribeTheme } from '../services/theme';
import { useShellChild } from './shell-context';

// Fluent greys the label of an unchosen radio (colorNeutralForeground3), which reads as disabled: every
// choice of a radio group is as readable as the chosen one. More specific than Fluent's own rule.
const useRadioLabels = makeStaticStyles({
  '.fui-Radio .fui-Radio__input:enabled:not(:checked) ~ .fui-Radio__label': {
    color: 'var(--colorNeutralForeground1)',
  },
});

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
  useRadioLabels();
  const theme = useSyncExternalStore(subscribeTheme, getResolvedTheme, () => 'light' as const);
  useLayoutEffect(() => paintDocument(theme), [theme]);
  return (
    <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messages}>
      <FluentProvider theme={fluentTheme(theme)} style={{ minHeight: '100vh' }}>
        {children}
      </FluentProvider>
    </IntlProvider>
  );
}

/** The app's providers, in the language the shell's language actor shows (its catalog loaded with it). */
export function AppProviders({ children }: { children: ReactNode }) {
  const language = useShellChild('language');
  const locale = useSelector(language, (snapshot) => snapshot.context.locale);
  // The machine keeps catalogs as plain texts by id; each came from loadCatalog (main.tsx and
  // compose-preferences.ts), so it is a whole Catalog.
  const messages = useSelector(language, (snapshot) => snapshot.context.messages) as Catalog;
  return (
    <BaseProviders locale={locale} messages={messages}>
      {children}
    </BaseProviders>
  );
}
