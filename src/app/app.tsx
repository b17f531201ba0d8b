import { useEffect } from 'react';
import { Router } from 'wouter';
import { onUnauthorized } from '../api/client';
import { APP_BASE } from '../services/navigation';
import { sessionLogic } from './compose';
import { ErrorBoundary } from './error-boundary';
import { actorOptions } from './inspect';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { SessionContext } from './session';

/** A 401 on any API call (but the profile's) ends the session: the client reports, the session acts. */
function UnauthorizedBridge() {
  const session = SessionContext.useActorRef();
  useEffect(() => onUnauthorized(() => session.send({ type: 'session.unauthorized' })), [session]);
  return null;
}

export function App({ storedToken }: { storedToken: string | null }) {
  return (
    <SessionContext.Provider logic={sessionLogic} options={actorOptions({ input: { storedToken } })}>
      <AppProviders>
        <ErrorBoundary>
          <Router base={APP_BASE}>
            <UnauthorizedBridge />
            <AppRoutes />
          </Router>
        </ErrorBoundary>
      </AppProviders>
    </SessionContext.Provider>
  );
}
