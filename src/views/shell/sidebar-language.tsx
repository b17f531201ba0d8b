// The sidebar's language selector (spec 000 §2 "Shell"): the choice applies at once and is kept in local
// storage, then saved to the profile; if that save fails the language still holds on this device, and a
// note under the selector says it was not saved (until the next choice).
import { useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { composeLanguage } from '../../app/compose-preferences';
import { actorOptions } from '../../app/inspect';
import { SessionContext } from '../../app/session';
import { LanguageSelect } from '../language-select';

export function SidebarLanguage() {
  const intl = useIntl();
  const session = SessionContext.useActorRef();
  const logic = useMemo(() => composeLanguage(session), [session]);
  const language = useActorRef(logic, actorOptions({}));
  const hasFailed = useSelector(language, (snapshot) => snapshot.hasTag('error'));
  return (
    <LanguageSelect
      onChange={(locale) => language.send({ type: 'language.choose', locale })}
      message={hasFailed ? intl.formatMessage({ id: 'shell.language.error' }) : null}
    />
  );
}
