// Rendered once by the shell: opens the welcome screen on first use (the welcome machine decides, from
// the session's profile and whether another modal is open) and tells it when the modal has closed, by
// whatever way. Once per page it also lines the language up with the profile's
// (src/services/locale-sync.ts decideProfileLocale). Draws nothing.
import { useEffect, useMemo, useRef } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { composeLanguage, composeWelcome } from '../../app/compose-preferences';
import { actorOptions } from '../../app/inspect';
import { useModalActor } from '../../app/modal-context';
import { SessionContext } from '../../app/session';
import { followsProfileLocale, getLocaleState, setLocale, takeLocaleForProfile } from '../../i18n/locale';
import { decideProfileLocale } from '../../services/locale-sync';

export function ShellPreferences() {
  const modal = useModalActor();
  const session = SessionContext.useActorRef();
  const welcomeLogic = useMemo(() => composeWelcome(modal, session), [modal, session]);
  const languageLogic = useMemo(() => composeLanguage(session), [session]);
  const welcome = useActorRef(welcomeLogic, actorOptions({}));
  const language = useActorRef(languageLogic, actorOptions({}));
  const welcomeScreenWatched = SessionContext.useSelector(
    (snapshot) => snapshot.context.profile?.welcomeScreenWatched ?? null,
  );
  const profileLocale = SessionContext.useSelector((snapshot) => snapshot.context.profile?.locale ?? null);
  const openModal = useSelector(modal, (snapshot) =>
    snapshot.matches('closed') ? null : snapshot.context.name,
  );
  const isShowing = useSelector(welcome, (snapshot) => snapshot.matches('showing'));

  useEffect(() => {
    if (welcomeScreenWatched === null) return;
    welcome.send({ type: 'welcome.check', welcomeScreenWatched, isModalOpen: openModal !== null });
  }, [welcome, welcomeScreenWatched, openModal]);

  useEffect(() => {
    if (isShowing && openModal !== 'welcome') welcome.send({ type: 'welcome.closed' });
  }, [welcome, isShowing, openModal]);

  // Once per page, with the first profile; a ref, since it is a fact about this page, not behaviour.
  const hasAlignedLocale = useRef(false);
  useEffect(() => {
    if (profileLocale === null || hasAlignedLocale.current) return;
    hasAlignedLocale.current = true;
    const decision = decideProfileLocale(
      profileLocale,
      takeLocaleForProfile(),
      followsProfileLocale(),
      getLocaleState().locale,
    );
    if (decision.kind === 'save') language.send({ type: 'language.save', locale: decision.locale });
    if (decision.kind === 'show') void setLocale(decision.locale);
  }, [language, profileLocale]);

  return null;
}
