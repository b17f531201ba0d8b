import { useEffect } from 'react';
import { useActorRef } from '@xstate/react';
import { Router } from 'wouter';
import { onUnauthorized } from '../api/client';
import { APP_BASE } from '../services/navigation';
import { shellLogic } from './compose';
import { ErrorBoundary } from './error-boundary';
import { actorOptions } from './inspect';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { ShellContext } from './shell-context';

export function App({ storedToken }: { storedToken: string | null }) {
  const shell = useActorRef(shellLogic, actorOptions({ input: { storedToken } }));
  // A 401 on any API call (but the profile's) ends the session: the client reports, the session acts.
  useEffect(
    () => onUnauthorized(() => shell.getSnapshot().children.session?.send({ type: 'session.unauthorized' })),
    [shell],
  );
  return (
    <ShellContext.Provider value={shell}>
      <AppProviders>
        <ErrorBoundary>
          <Router base={APP_BASE}>
            <AppRoutes />
          </Router>
        </ErrorBoundary>
      </AppProviders>
    </ShellContext.Provider>
  );
}
