// A protected screen asks the session for a profile when it mounts (which redirects to the login page
// when there is no token) and renders only once the profile is loaded (spec 000 §4 "Profile").
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { currentAppUrl } from '../services/navigation';
import { Busy } from '../views/busy';
import { SessionContext } from './session';

export function Protected({ children }: { children: ReactNode }) {
  const intl = useIntl();
  const session = SessionContext.useActorRef();
  // The shell and the screen mount in the background once the profile is in: an actor's change renders
  // at once and whole, so without it their first render is one long task that blocks the page.
  const hasProfile = useDeferredValue(
    SessionContext.useSelector(
      (snapshot) => snapshot.hasTag('authenticated') && snapshot.context.profile !== null,
    ),
  );

  useEffect(() => {
    session.send({ type: 'session.require', returnUrl: currentAppUrl() });
  }, [session]);

  if (!hasProfile) {
    return <Busy fullPage label={intl.formatMessage({ id: 'app.loading' })} />;
  }
  return <>{children}</>;
}
