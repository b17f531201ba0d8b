// Catches a render crash so one broken screen does not blank the app, and shows the error screen with the
// caught error, from which the person can send a report (POST /error_reports) or reload. The screen's code
// (Fluent's MessageBar and Spinner, the report's machine and call) loads only after a crash; if it cannot
// load either (the network that broke the screen may be gone), a plain message with a reload stands in.
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@fluentui/react-components';
import { Title3 } from '../views/text';
import { useIntl } from 'react-intl';
import type { CaughtError } from '../../machines/error-report.machine';
import type { ErrorReportLogic } from '../views/error/error-screen';
import { loader } from '../views/preloaded-lazy';

export const loadErrorScreen = loader(() =>
  Promise.all([import('../views/error/error-screen'), import('./compose-error-report')]),
);
export type ErrorScreenLoader = typeof loadErrorScreen;

/** What a render can throw (not always an Error) as the report's message and stack. */
export function caughtErrorOf(error: unknown): CaughtError {
  if (error instanceof Error) {
    return { message: error.message.trim() || error.name || 'Error', stack: error.stack ?? null };
  }
  return { message: String(error).trim() || 'Error', stack: null };
}

function PlainErrorScreen() {
  const intl = useIntl();
  return (
    <div role="alert" style={{ padding: '24px' }}>
      <Title3 as="h1">{intl.formatMessage({ id: 'app.errorBoundary.title' })}</Title3>
      <p>{intl.formatMessage({ id: 'app.errorBoundary.message' })}</p>
      <Button onClick={() => window.location.reload()}>
        {intl.formatMessage({ id: 'app.errorBoundary.reload' })}
      </Button>
    </div>
  );
}

type Loaded = Awaited<ReturnType<ErrorScreenLoader>>;

function LoadedErrorScreen({
  error,
  reportLogic,
  loadScreen,
}: {
  error: CaughtError;
  reportLogic?: ErrorReportLogic;
  loadScreen: ErrorScreenLoader;
}) {
  const [loaded, setLoaded] = useState<Loaded | 'failed' | null>(() => loadScreen.loaded() ?? null);
  useEffect(() => {
    if (loaded !== null) return undefined;
    let isMounted = true;
    loadScreen().then(
      (modules) => {
        if (isMounted) setLoaded(modules);
      },
      (loadError: unknown) => {
        console.error('The error screen could not be loaded', loadError);
        if (isMounted) setLoaded('failed');
      },
    );
    return () => {
      isMounted = false;
    };
  }, [loaded, loadScreen]);
  if (loaded === null) return null;
  if (loaded === 'failed') return <PlainErrorScreen />;
  const [{ ErrorScreen }, { errorReportLogic }] = loaded;
  return <ErrorScreen error={error} logic={reportLogic ?? errorReportLogic} />;
}

type Props = {
  children: ReactNode;
  resetKey?: string;
  reportLogic?: ErrorReportLogic;
  /** Where the error screen's code comes from: the app's own loader unless a test gives one. */
  loadScreen?: ErrorScreenLoader;
};
type State = { error: CaughtError | null; resetKey: string | undefined };

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: caughtErrorOf(error) };
  }

  // Moving to another route gives that route a fresh chance to render.
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <LoadedErrorScreen
        error={this.state.error}
        reportLogic={this.props.reportLogic}
        loadScreen={this.props.loadScreen ?? loadErrorScreen}
      />
    );
  }
}
