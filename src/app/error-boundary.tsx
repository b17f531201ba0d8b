// Catches a render crash so one broken screen does not blank the app. The full error screen with
// "send report" is a later issue; this one offers a reload.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Text, Title3 } from '@fluentui/react-components';
import { FormattedMessage } from 'react-intl';

type Props = { children: ReactNode; resetKey?: string };
type State = { hasError: boolean; resetKey: string | undefined };

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { hasError: true };
  }

  // Moving to another route gives that route a fresh chance to render.
  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { hasError: false, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Render failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return (
      <div
        role="alert"
        style={{ padding: 24, display: 'flex', flexDirection: 'column', gap: 12, alignItems: 'flex-start' }}
      >
        <Title3 as="h1">
          <FormattedMessage id="app.errorBoundary.title" />
        </Title3>
        <Text>
          <FormattedMessage id="app.errorBoundary.message" />
        </Text>
        <Button style={{ minHeight: 40 }} onClick={() => window.location.reload()}>
          <FormattedMessage id="app.errorBoundary.reload" />
        </Button>
      </div>
    );
  }
}
