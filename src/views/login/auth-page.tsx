// /app/auth: the server's sign-in page comes back here; the session trades the cookie for a token
// and then navigates to the return URL (or to the login page when that fails).
import { useEffect } from 'react';
import { Spinner } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { useSearch } from 'wouter';
import { usePageTitle } from '../../app/page-title';
import { SessionContext } from '../../app/session';

export function AuthPage() {
  const intl = useIntl();
  const session = SessionContext.useActorRef();
  const returnUrl = new URLSearchParams(useSearch()).get('returnUrl');
  usePageTitle(intl.formatMessage({ id: 'auth.pageTitle' }));

  useEffect(() => {
    session.send({ type: 'auth.exchange', ...(returnUrl ? { returnUrl } : {}) });
  }, [session, returnUrl]);

  return (
    <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spinner label={intl.formatMessage({ id: 'auth.signingIn' })} />
    </main>
  );
}
