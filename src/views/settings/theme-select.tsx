// The appearance switch on the settings screen. Unlike the language and the location it is not part of
// the profile (the contract has no field for it): a choice applies at once and stays on this device, so
// it needs neither Save nor the settings actor (docs/decisions.md "Dark mode").
import { useSyncExternalStore } from 'react';
import { Field, Radio, RadioGroup } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/messages';
import {
  getThemePreference,
  isThemePreference,
  setThemePreference,
  subscribeTheme,
  THEME_PREFERENCES,
  type ThemePreference,
} from '../../app/theme';

const THEME_NAMES: Record<ThemePreference, MessageId> = {
  system: 'settings.theme.system',
  light: 'settings.theme.light',
  dark: 'settings.theme.dark',
};

export function ThemeSelect() {
  const intl = useIntl();
  const preference = useSyncExternalStore(subscribeTheme, getThemePreference, () => 'system' as const);
  return (
    <Field
      label={intl.formatMessage({ id: 'settings.theme.label' })}
      hint={intl.formatMessage({ id: 'settings.theme.hint' })}
    >
      <RadioGroup
        layout="horizontal"
        value={preference}
        onChange={(_event, data) => {
          if (isThemePreference(data.value)) setThemePreference(data.value);
        }}
      >
        {THEME_PREFERENCES.map((option) => (
          <Radio key={option} value={option} label={intl.formatMessage({ id: THEME_NAMES[option] })} />
        ))}
      </RadioGroup>
    </Field>
  );
}
