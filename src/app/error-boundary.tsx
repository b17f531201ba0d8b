// Catches a render crash so one broken screen does not blank the app, and shows the error screen with the
// caught error, from which the person can send a report (POST /error_reports) or reload.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { errorReportMachine, type CaughtError } from '../../machines/error-report.machine';
import { caughtErrorOf, sendErrorReport } from '../services/error-reports';
import { ErrorScreen, type ErrorReportLogic } from '../views/error/error-screen';

export const errorReportLogic: ErrorReportLogic = errorReportMachine.provide({ actors: { sendErrorReport } });

type Props = { children: ReactNode; resetKey?: string; reportLogic?: ErrorReportLogic };
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
    return <ErrorScreen error={this.state.error} logic={this.props.reportLogic ?? errorReportLogic} />;
  }
}
