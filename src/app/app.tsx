import { useEffect } from 'react';
import { useActorRef } from '@xstate/react';
import { Router } from 'wouter';
import type { LanguageInput } from '../../machines/language.machine';
import { onUnauthorized } from '../api/client';
import { APP_BASE } from '../services/navigation';
import { shellLogic } from './compose';
import { ErrorBoundary } from './error-boundary';
import { actorOptions } from './inspect';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';
import { ShellContext } from './shell-context';

/** `language`: the language to start with and its catalog, read and loaded before the first render. */
export function App({ storedToken, language }: { storedToken: string | null; language: LanguageInput }) {
  const shell = useActorRef(shellLogic, actorOptions({ input: { storedToken, language } }));
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
