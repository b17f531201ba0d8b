// The language chooser of the login page, the sidebar and settings: en, es and fr, each named in its own
// language (the catalogs keep those names the same everywhere), with `lang` on each option for screen
// readers. On the login page a choice is shown and kept in local storage (language.show: nobody is
// signed in, so nothing is saved to a profile); the sidebar passes its own onChange, which also saves it
// to the profile. Both show the language on screen, which the shell's language actor owns; settings shows
// its form's choice (`value`), which applies only when the form is saved.
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useOptionalShell } from '../app/shell-context';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../i18n/locale';
import type { MessageId } from '../i18n/messages';
import { FieldFrame } from './field-frame';
import { NativeSelect } from './native-select';

const LANGUAGE_NAMES: Record<Locale, MessageId> = {
  en: 'common.language.en',
  es: 'common.language.es',
  fr: 'common.language.fr',
};

/** The shell's language actor; none in a bare view of a test, which then offers no language change. */
function useLanguageActor() {
  return useSelector(useOptionalShell() ?? undefined, (snapshot) => snapshot?.children.language);
}

/**
 * The language on screen, as the shell's language actor shows it. In a bare view (no shell) the
 * IntlProvider's language is the one on screen.
 */
export function useShownLocale(): Locale {
  const intl = useIntl();
  const shown = useSelector(useLanguageActor(), (snapshot) => snapshot?.context.locale);
  return shown ?? (isLocale(intl.locale) ? intl.locale : DEFAULT_LOCALE);
}

export type LanguageSelectProps = {
  onChange?: (locale: Locale) => void;
  /** The language shown as chosen; the language on screen by default. */
  value?: Locale;
  /** Shown under the select. */
  hint?: string;
  /** Shown under the select (a failed save to the profile). */
  message?: string | null;
  className?: string;
  /** The field's label; "Language" by default. */
  label?: string;
  disabled?: boolean;
};

export function LanguageSelect({
  onChange,
  value,
  hint,
  message = null,
  className,
  label,
  disabled = false,
}: LanguageSelectProps) {
  const intl = useIntl();
  const onScreen = useShownLocale();
  const language = useLanguageActor();
  return (
    <FieldFrame
      label={label ?? intl.formatMessage({ id: 'common.language' })}
      warning={message}
      {...(hint ? { hint } : {})}
      {...(className ? { className } : {})}
    >
      {(control) => (
        <NativeSelect
          {...control}
          value={value ?? onScreen}
          disabled={disabled}
          onChange={(chosen) => {
            if (!isLocale(chosen)) return;
            if (onChange) onChange(chosen);
            else language?.send({ type: 'language.show', locale: chosen });
          }}
        >
          {LOCALES.map((option) => (
            <option key={option} value={option} lang={option}>
              {intl.formatMessage({ id: LANGUAGE_NAMES[option] })}
            </option>
          ))}
        </NativeSelect>
      )}
    </FieldFrame>
  );
}
