// The first-load spinner and the load error with its retry, shared by the connections and sign groups
// tabs so that both say it the same way.
import { Button, MessageBar, MessageBarActions, MessageBarBody, Spinner } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/messages';
import { useConnectionsStyles } from './connections-styles';

export function ListLoading({ label }: { label: MessageId }) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  return (
    <div className={styles.centered}>
      <Spinner label={intl.formatMessage({ id: label })} />
    </div>
  );
}

export function ListLoadFailed({ message, onRetry }: { message: MessageId; onRetry: () => void }) {
  const intl = useIntl();
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>{intl.formatMessage({ id: message })}</MessageBarBody>
      <MessageBarActions>
        <Button onClick={onRetry}>{intl.formatMessage({ id: 'common.retry' })}</Button>
      </MessageBarActions>
    </MessageBar>
  );
}
