// /app/connections/users: the pending requests (accept / reject an inbound one, cancel an outbound one),
// each connection's name, e-mail and when it was last seen (remove after a destructive confirmation),
// and the "add a connection by e-mail" dialog, all rendered from the connections machine.
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title3,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { Mail20Regular, People20Regular, PersonAdd20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ConnectionRequestItem, RowAction } from '../../../machines/connections.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import type { MessageId } from '../../i18n/messages';
import { EmptyState } from '../empty-state';
import { formatDateTime } from '../format';
import { CONNECTION_ROW_DELAY_MS, rowEntranceDelay, useRowEntranceStyles } from '../row-entrance';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';
import { AddConnectionDialog } from './add-connection-dialog';
import { ConnectionsTabs } from './connections-tabs';
import { useConnectionsStyles, type ConnectionsActor, type ConnectionsLogic } from './connections-styles';
import { ListLoadFailed, ListLoading } from './list-states';

const rowDelay = (index: number) => rowEntranceDelay(index, CONNECTION_ROW_DELAY_MS);

const ACTION_ERRORS: Record<RowAction, MessageId> = {
  accept: 'connections.users.action.error.accept',
  refuse: 'connections.users.action.error.refuse',
  cancel: 'connections.users.action.error.cancel',
  remove: 'connections.users.action.error.remove',
};

function useLastSeen() {
  const intl = useIntl();
  return (value: string | null) =>
    value ? formatDateTime(intl, value) : intl.formatMessage({ id: 'connections.users.lastSeen.never' });
}

/** Whether a row's buttons must wait: one call at a time (a double click sends one request). */
function useRowBusy(connections: ConnectionsActor) {
  const isRunning = useSelector(connections, (snapshot) => snapshot.matches({ row: 'running' }));
  const actionId = useSelector(connections, (snapshot) => snapshot.context.actionId);
  return { isRunning, runningId: isRunning ? actionId : null };
}

function BusyIcon() {
  const intl = useIntl();
  return <Spinner size="tiny" aria-label={intl.formatMessage({ id: 'connections.users.working' })} />;
}

function personOf(request: ConnectionRequestItem): { name: string; email: string } {
  if (request.profile) return { name: request.profile.fullName, email: request.profile.emailAddress };
  const email = request.invitationEmailAddress ?? '';
  return { name: email, email };
}

function RequestActions({
  connections,
  request,
}: {
  connections: ConnectionsActor;
  request: ConnectionRequestItem;
}) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const { isRunning, runningId } = useRowBusy(connections);
  const action = useSelector(connections, (snapshot) => snapshot.context.action);
  const { name } = personOf(request);
  const isThisRow = runningId === request.id;
  if (request.direction === 'outbound') {
    return (
      <Button
        className={styles.button}
        disabledFocusable={isRunning}
        icon={isThisRow ? <BusyIcon /> : undefined}
        aria-label={intl.formatMessage({ id: 'connections.requests.cancel.label' }, { name })}
        onClick={() => connections.send({ type: 'request.cancel', requestId: request.id })}
      >
        {intl.formatMessage({ id: 'connections.requests.cancel' })}
      </Button>
    );
  }
  return (
    <>
      <Button
        appearance="primary"
        className={styles.button}
        disabledFocusable={isRunning}
        icon={isThisRow && action === 'accept' ? <BusyIcon /> : undefined}
        aria-label={intl.formatMessage({ id: 'connections.requests.accept.label' }, { name })}
        onClick={() => connections.send({ type: 'request.accept', requestId: request.id })}
      >
        {intl.formatMessage({ id: 'connections.requests.accept' })}
      </Button>
      <Button
        className={styles.button}
        disabledFocusable={isRunning}
        icon={isThisRow && action === 'refuse' ? <BusyIcon /> : undefined}
        aria-label={intl.formatMessage({ id: 'connections.requests.reject.label' }, { name })}
        onClick={() => connections.send({ type: 'request.refuse', requestId: request.id })}
      >
        {intl.formatMessage({ id: 'connections.requests.reject' })}
      </Button>
    </>
  );
}

function directionText(request: ConnectionRequestItem): MessageId {
  if (request.direction === 'inbound') return 'connections.requests.inbound';
  return request.profile ? 'connections.requests.outbound' : 'connections.requests.invitation';
}

function RequestList({ connections }: { connections: ConnectionsActor }) {
  const styles = useConnectionsStyles();
  const entrance = useRowEntranceStyles();
  const intl = useIntl();
  const requests = useSelector(connections, (snapshot) => snapshot.context.requests);
  const title = intl.formatMessage({ id: 'connections.requests.title' });
  const heading = (
    <Title3 as="h2" id="connection-requests-heading">
      {title}
    </Title3>
  );
  if (requests.length === 0) {
    return (
      <section className={styles.section} aria-labelledby="connection-requests-heading">
        {heading}
        <EmptyState
          isCompact
          icon={<Mail20Regular />}
          title={intl.formatMessage({ id: 'connections.requests.empty' })}
          description={intl.formatMessage({ id: 'connections.requests.empty.hint' })}
        />
      </section>
    );
  }
  return (
    <section className={styles.section} aria-labelledby="connection-requests-heading">
      {heading}
      <ul className={styles.cards} aria-label={title}>
        {requests.map((request, index) => {
          const { name, email } = personOf(request);
          return (
            <li
              key={request.id}
              className={mergeClasses(styles.card, entrance.enter)}
              style={rowDelay(index)}
              data-testid={`connection-request-${request.direction}`}
            >
              <div className={styles.cardText}>
                <Text weight="semibold">{name}</Text>
                {request.profile && <Text>{email}</Text>}
                <Text size={200} className={styles.muted}>
                  {intl.formatMessage({ id: directionText(request) })}
                </Text>
              </div>
              <div className={styles.cardActions}>
                <RequestActions connections={connections} request={request} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function RemoveButton({
  connections,
  id,
  name,
}: {
  connections: ConnectionsActor;
  id: string;
  name: string;
}) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const { isRunning, runningId } = useRowBusy(connections);
  return (
    <Button
      className={styles.button}
      disabledFocusable={isRunning}
      icon={runningId === id ? <BusyIcon /> : undefined}
      aria-label={intl.formatMessage({ id: 'connections.users.remove.label' }, { name })}
      onClick={() => connections.send({ type: 'connection.remove', connectionId: id })}
    >
      {intl.formatMessage({ id: 'connections.users.remove' })}
    </Button>
  );
}

function ConnectionList({ connections, label }: { connections: ConnectionsActor; label: string }) {
  const styles = useConnectionsStyles();
  const entrance = useRowEntranceStyles();
  const intl = useIntl();
  const lastSeen = useLastSeen();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const rows = useSelector(connections, (snapshot) => snapshot.context.connections);

  if (isMobile) {
    return (
      <ul className={styles.cards} aria-label={label}>
        {rows.map(({ id, profile }, index) => (
          <li key={id} className={mergeClasses(styles.card, entrance.enter)} style={rowDelay(index)}>
            <div className={styles.cardText}>
              <Text weight="semibold">{profile.fullName}</Text>
              <Text>{profile.emailAddress}</Text>
              <Text size={200} className={styles.muted}>
                {intl.formatMessage({ id: 'connections.users.column.lastSeen' })}:{' '}
                {lastSeen(profile.lastSeenAt)}
              </Text>
            </div>
            <RemoveButton connections={connections} id={id} name={profile.fullName} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <Table className={styles.table} aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{intl.formatMessage({ id: 'connections.users.column.name' })}</TableHeaderCell>
          <TableHeaderCell>{intl.formatMessage({ id: 'connections.users.column.email' })}</TableHeaderCell>
          <TableHeaderCell>{intl.formatMessage({ id: 'connections.users.column.lastSeen' })}</TableHeaderCell>
          <TableHeaderCell className={styles.actionsColumn}>
            {intl.formatMessage({ id: 'connections.users.column.actions' })}
          </TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(({ id, profile }, index) => (
          <TableRow key={id} className={entrance.enter} style={rowDelay(index)}>
            <TableCell className={styles.wrap}>{profile.fullName}</TableCell>
            <TableCell className={styles.wrap}>{profile.emailAddress}</TableCell>
            <TableCell>{lastSeen(profile.lastSeenAt)}</TableCell>
            <TableCell className={styles.actionsCell}>
              <RemoveButton connections={connections} id={id} name={profile.fullName} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ActionError({ connections }: { connections: ConnectionsActor }) {
  const intl = useIntl();
  const isFailed = useSelector(connections, (snapshot) => snapshot.matches({ row: 'failed' }));
  const action = useSelector(connections, (snapshot) => snapshot.context.action);
  if (!isFailed || !action) return null;
  return (
    <MessageBar intent="error" layout="multiline" role="alert" data-testid="connections-action-error">
      <MessageBarBody>{intl.formatMessage({ id: ACTION_ERRORS[action] })}</MessageBarBody>
      <MessageBarActions>
        <Button onClick={() => connections.send({ type: 'action.dismissError' })}>
          {intl.formatMessage({ id: 'common.close' })}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

function RemoveDialog({ connections }: { connections: ConnectionsActor }) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const isOpen = useSelector(connections, (snapshot) => snapshot.matches({ row: 'confirmingRemove' }));
  const name = useSelector(
    connections,
    (snapshot) =>
      snapshot.context.connections.find((connection) => connection.id === snapshot.context.actionId)?.profile
        .fullName ?? '',
  );
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) connections.send({ type: 'remove.dismiss' });
      }}
    >
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{intl.formatMessage({ id: 'connections.users.remove.title' })}</DialogTitle>
          <DialogContent>
            <Text as="p" className={styles.wrap}>
              {intl.formatMessage({ id: 'connections.users.remove.text' }, { name })}
            </Text>
          </DialogContent>
          <DialogActions>
            <Button
              appearance="primary"
              className={styles.button}
              // Destructive: the spec's red confirm, as the document dialogs do.
              style={{ backgroundColor: tokens.colorPaletteRedBackground3 }}
              onClick={() => connections.send({ type: 'remove.confirm' })}
            >
              {intl.formatMessage({ id: 'connections.users.remove' })}
            </Button>
            <Button className={styles.button} onClick={() => connections.send({ type: 'remove.dismiss' })}>
              {intl.formatMessage({ id: 'common.cancel' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function ConnectionsBody({
  connections,
  label,
  onAdd,
}: {
  connections: ConnectionsActor;
  label: string;
  onAdd: () => void;
}) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const isFailed = useSelector(connections, (snapshot) => snapshot.matches({ list: 'failed' }));
  // A reload after an action keeps the rows on screen; only the first load shows the spinner.
  const isFirstLoad = useSelector(
    connections,
    (snapshot) =>
      snapshot.matches({ list: 'loading' }) &&
      snapshot.context.connections.length === 0 &&
      snapshot.context.requests.length === 0,
  );
  const hasNoConnections = useSelector(connections, (snapshot) => snapshot.context.connections.length === 0);

  if (isFirstLoad) return <ListLoading label="connections.users.loading" />;
  if (isFailed) {
    return (
      <ListLoadFailed
        message="connections.users.error"
        onRetry={() => connections.send({ type: 'connections.reload' })}
      />
    );
  }
  return (
    <>
      <RequestList connections={connections} />
      {/* Without a heading of its own the list reads as more requests when some are shown above it. */}
      <Title3 as="h2">{intl.formatMessage({ id: 'connections.users.listTitle' })}</Title3>
      {hasNoConnections ? (
        <EmptyState
          icon={<People20Regular />}
          title={intl.formatMessage({ id: 'connections.users.empty' })}
          description={intl.formatMessage({ id: 'connections.users.empty.hint' })}
          action={
            // Not a second primary button: the toolbar's "Add a connection" is the page's.
            <Button className={styles.button} icon={<PersonAdd20Regular />} onClick={onAdd}>
              {intl.formatMessage({ id: 'connections.users.empty.add' })}
            </Button>
          }
        />
      ) : (
        <ConnectionList connections={connections} label={label} />
      )}
    </>
  );
}

export type { ConnectionsLogic };

export function ConnectionsPage({ logic }: { logic: ConnectionsLogic }) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const connections = useActorRef(logic, actorOptions({}));
  const title = intl.formatMessage({ id: 'connections.users.title' });
  usePageTitle(intl.formatMessage({ id: 'connections.pageTitle' }));
  const openAdd = () => connections.send({ type: 'add.open' });

  return (
    <section className={styles.page} aria-labelledby="connections-heading">
      <ConnectionsTabs selected="users" />
      <div className={styles.toolbar}>
        <Button
          appearance="primary"
          className={styles.button}
          icon={<PersonAdd20Regular />}
          onClick={openAdd}
        >
          {intl.formatMessage({ id: 'connections.users.add' })}
        </Button>
      </div>
      <ActionError connections={connections} />
      <ConnectionsBody connections={connections} label={title} onAdd={openAdd} />
      <RemoveDialog connections={connections} />
      <AddConnectionDialog connections={connections} />
    </section>
  );
}
