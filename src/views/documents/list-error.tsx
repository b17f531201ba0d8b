// Why the list could not be shown, with a retry. Loaded only when a load fails, so the message bar's
// weight stays off the list's path.
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
} from '@fluentui/react-components';
import { useIntl } from 'react-intl';

const useStyles = makeStyles({ button: { minHeight: '40px' } });

export function ListError({ isSearch, onRetry }: { isSearch: boolean; onRetry: () => void }) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>
        <MessageBarTitle>
          {intl.formatMessage({
            id: isSearch ? 'documents.error.search.title' : 'documents.error.loading.title',
          })}
        </MessageBarTitle>
        {intl.formatMessage({
          id: isSearch ? 'documents.error.search.text' : 'documents.error.loading.text',
        })}
      </MessageBarBody>
      <MessageBarActions>
        <Button className={styles.button} onClick={onRetry}>
          {intl.formatMessage({ id: 'common.retry' })}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
