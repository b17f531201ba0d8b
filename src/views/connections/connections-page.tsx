// /app/connections/users: each connection's name, e-mail and when it was last seen, rendered from the
// connections machine (a data error offers a retry). [3/6] adds requests and their actions to the same
// machine and page.
import {
  Button,
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
  Title2,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import type { connectionsMachine } from '../../../machines/connections.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { formatDateTime } from '../format';
import { CONNECTION_ROW_DELAY_MS, rowEntranceDelay, useRowEntranceStyles } from '../row-entrance';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';

export type ConnectionsLogic = typeof connectionsMachine;
type ConnectionsActor = ActorRefFrom<ConnectionsLogic>;

const rowDelay = (index: number) => rowEntranceDelay(index, CONNECTION_ROW_DELAY_MS);

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  table: { width: '100%', tableLayout: 'fixed' },
  wrap: { overflowWrap: 'anywhere' },
  cards: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalM,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflowWrap: 'anywhere',
  },
  muted: { color: tokens.colorNeutralForeground3 },
  centered: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalXXL },
});

function useLastSeen() {
  const intl = useIntl();
  return (value: string | null) =>
    value ? formatDateTime(intl, value) : intl.formatMessage({ id: 'connections.users.lastSeen.never' });
}

function ConnectionList({ connections, label }: { connections: ConnectionsActor; label: string }) {
  const styles = useStyles();
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
            <Text weight="semibold">{profile.fullName}</Text>
            <Text>{profile.emailAddress}</Text>
            <Text size={200} className={styles.muted}>
              {intl.formatMessage({ id: 'connections.users.column.lastSeen' })}:{' '}
              {lastSeen(profile.lastSeenAt)}
            </Text>
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
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(({ id, profile }, index) => (
          <TableRow key={id} className={entrance.enter} style={rowDelay(index)}>
            <TableCell className={styles.wrap}>{profile.fullName}</TableCell>
            <TableCell className={styles.wrap}>{profile.emailAddress}</TableCell>
            <TableCell>{lastSeen(profile.lastSeenAt)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ConnectionsBody({ connections, label }: { connections: ConnectionsActor; label: string }) {
  const styles = useStyles();
  const intl = useIntl();
  const isLoading = useSelector(connections, (snapshot) => snapshot.matches({ list: 'loading' }));
  const isFailed = useSelector(connections, (snapshot) => snapshot.matches({ list: 'failed' }));
  const isEmpty = useSelector(connections, (snapshot) => snapshot.matches({ list: 'empty' }));

  if (isLoading) {
    return (
      <div className={styles.centered}>
        <Spinner label={intl.formatMessage({ id: 'connections.users.loading' })} />
      </div>
    );
  }
  if (isFailed) {
    return (
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>{intl.formatMessage({ id: 'connections.users.error' })}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => connections.send({ type: 'connections.reload' })}>
            {intl.formatMessage({ id: 'common.retry' })}
          </Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  if (isEmpty) {
    return <Text as="p">{intl.formatMessage({ id: 'connections.users.empty' })}</Text>;
  }
  return <ConnectionList connections={connections} label={label} />;
}

export function ConnectionsPage({ logic }: { logic: ConnectionsLogic }) {
  const styles = useStyles();
  const intl = useIntl();
  const connections = useActorRef(logic, actorOptions({}));
  const title = intl.formatMessage({ id: 'connections.users.title' });
  usePageTitle(intl.formatMessage({ id: 'connections.pageTitle' }));

  return (
    <section className={styles.page} aria-labelledby="connections-heading">
      <Title2 as="h1" id="connections-heading">
        {title}
      </Title2>
      <ConnectionsBody connections={connections} label={title} />
    </section>
  );
}
