import { Field, Select } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { isLocale, LOCALES, setLocale } from '../i18n/locale';
import { useLocaleState } from '../i18n/use-locale';
import type { MessageId } from '../i18n/messages';

const LANGUAGE_NAMES: Record<(typeof LOCALES)[number], MessageId> = {
  en: 'common.language.en',
  es: 'common.language.es',
  fr: 'common.language.fr',
};

export function LanguageSelect() {
  const intl = useIntl();
  const { locale } = useLocaleState();
  return (
    <Field label={intl.formatMessage({ id: 'common.language' })}>
      <Select
        value={locale}
        onChange={(_event, data) => {
          if (isLocale(data.value)) void setLocale(data.value);
        }}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {intl.formatMessage({ id: LANGUAGE_NAMES[option] })}
          </option>
        ))}
      </Select>
    </Field>
  );
}
