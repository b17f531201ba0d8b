// The addConnection modal (spec 000 §2, §5): a search box whose query the connections machine searches
// after a second without typing; the first person not already connected or asked is offered, and an
// address nobody uses yet can be invited. The connections machine's `add` region says whether it is open,
// and every way of closing it (Cancel, Esc, a request sent) goes through that machine.
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { isInvitable, isSearchable } from '../../../machines/connections.machine';
import { useConnectionsStyles, type ConnectionsActor } from './connections-styles';

const useStyles = makeStyles({
  result: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minHeight: '40px' },
});

function SearchOutcome({ connections }: { connections: ConnectionsActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const shared = useConnectionsStyles();
  const query = useSelector(connections, (snapshot) => snapshot.context.query);
  const result = useSelector(connections, (snapshot) => snapshot.context.result);
  const isWaiting = useSelector(
    connections,
    (snapshot) =>
      snapshot.matches({ add: { open: { form: 'debouncing' } } }) ||
      snapshot.matches({ add: { open: { form: 'searching' } } }),
  );
  const isNotFound = useSelector(connections, (snapshot) =>
    snapshot.matches({ add: { open: { form: 'notFound' } } }),
  );
  const isSearchFailed = useSelector(connections, (snapshot) =>
    snapshot.matches({ add: { open: { form: 'searchFailed' } } }),
  );
  const isSendFailed = useSelector(connections, (snapshot) =>
    snapshot.matches({ add: { open: { form: 'sendFailed' } } }),
  );
  const canInvite = useSelector(
    connections,
    (snapshot) => snapshot.context.result === null && isInvitable(snapshot.context.query, snapshot.context),
  );

  return (
    <>
      {isWaiting && (
        <div className={styles.status}>
          <Spinner size="tiny" label={intl.formatMessage({ id: 'connections.user.add.searching' })} />
        </div>
      )}
      {result && (
        <div className={styles.result} data-testid="connection-search-result">
          <Text weight="semibold">{result.fullName}</Text>
          <Text>{result.emailAddress}</Text>
        </div>
      )}
      {(isNotFound || (isSendFailed && !result)) && (
        <Text as="p" className={shared.wrap}>
          {canInvite
            ? intl.formatMessage({ id: 'connections.user.add.invite' }, { email: query.trim() })
            : intl.formatMessage({ id: 'connections.user.add.notFound' })}
        </Text>
      )}
      {isSearchFailed && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{intl.formatMessage({ id: 'connections.user.add.searchError' })}</MessageBarBody>
        </MessageBar>
      )}
      {isSendFailed && (
        <MessageBar intent="error" role="alert">
          <MessageBarBody>{intl.formatMessage({ id: 'connections.user.add.error' })}</MessageBarBody>
        </MessageBar>
      )}
    </>
  );
}

function AddConnectionBody({ connections }: { connections: ConnectionsActor }) {
  const intl = useIntl();
  const shared = useConnectionsStyles();
  const query = useSelector(connections, (snapshot) => snapshot.context.query);
  const hasResult = useSelector(connections, (snapshot) => snapshot.context.result !== null);
  const canSubmit = useSelector(connections, (snapshot) => snapshot.can({ type: 'add.submit' }));
  const isSending = useSelector(connections, (snapshot) => snapshot.matches({ add: { open: 'sending' } }));
  const isTooShort = query.trim().length > 0 && !isSearchable(query);
  const submit = () => {
    if (canSubmit) connections.send({ type: 'add.submit' });
  };

  return (
    <DialogBody>
      <DialogTitle>{intl.formatMessage({ id: 'connections.user.add.title' })}</DialogTitle>
      <DialogContent className={shared.content}>
        <Field
          label={intl.formatMessage({ id: 'connections.user.add.label' })}
          hint={isTooShort ? intl.formatMessage({ id: 'connections.user.add.hint' }) : undefined}
        >
          <Input
            type="search"
            value={query}
            autoComplete="off"
            disabled={isSending}
            onChange={(_event, data) => connections.send({ type: 'add.queryChanged', query: data.value })}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              event.preventDefault();
              submit();
            }}
          />
        </Field>
        <SearchOutcome connections={connections} />
      </DialogContent>
      <DialogActions>
        <Button
          appearance="primary"
          className={shared.button}
          disabledFocusable={!canSubmit}
          aria-busy={isSending}
          icon={
            isSending ? (
              <Spinner size="tiny" aria-label={intl.formatMessage({ id: 'connections.users.working' })} />
            ) : undefined
          }
          onClick={submit}
        >
          {intl.formatMessage({
            id: hasResult || !canSubmit ? 'connections.user.add.submit' : 'connections.user.add.inviteSubmit',
          })}
        </Button>
        <Button className={shared.button} onClick={() => connections.send({ type: 'add.close' })}>
          {intl.formatMessage({ id: 'common.cancel' })}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}

export function AddConnectionDialog({ connections }: { connections: ConnectionsActor }) {
  const shared = useConnectionsStyles();
  const isOpen = useSelector(connections, (snapshot) => snapshot.matches({ add: 'open' }));
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) connections.send({ type: 'add.close' });
      }}
    >
      <DialogSurface className={shared.surface}>
        {isOpen && <AddConnectionBody connections={connections} />}
      </DialogSurface>
    </Dialog>
  );
}
