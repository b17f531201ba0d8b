// The sidebar's language selector (spec 000 §2 "Shell"): the choice applies at once and is kept in local
// storage, then saved to the profile; if that save fails the language still holds on this device, and a
// note under the selector says it was not saved (until the next choice).
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useShellChild } from '../../app/shell-context';
import { LanguageSelect } from '../language-select';

export function SidebarLanguage() {
  const intl = useIntl();
  const language = useShellChild('language');
  const hasFailed = useSelector(language, (snapshot) => snapshot.hasTag('error'));
  return (
    <LanguageSelect
      onChange={(locale) => language.send({ type: 'language.choose', locale })}
      message={hasFailed ? intl.formatMessage({ id: 'shell.language.error' }) : null}
    />
  );
}
