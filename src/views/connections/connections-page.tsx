// /app/connections/users, read-only for [1/6]: each connection's name, e-mail and when it was last
// seen. [3/6] adds requests, groups and the connections machine that replaces this promise actor.
import {
  MessageBar,
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
  tokens,
} from '@fluentui/react-components';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import type { fetchConnections } from '../../services/connections';
import { formatDateTime } from '../format';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';

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

export function ConnectionsPage({ logic }: { logic: typeof fetchConnections }) {
  const styles = useStyles();
  const intl = useIntl();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const connections = useActorRef(logic, actorOptions({}));
  const status = useSelector(connections, (snapshot) => snapshot.status);
  const rows = useSelector(connections, (snapshot) => snapshot.output ?? []);
  const title = intl.formatMessage({ id: 'connections.users.title' });
  usePageTitle(intl.formatMessage({ id: 'connections.pageTitle' }));

  const lastSeen = (value: string | null) =>
    value ? formatDateTime(intl, value) : intl.formatMessage({ id: 'connections.users.lastSeen.never' });

  let body;
  if (status === 'active') {
    body = (
      <div className={styles.centered}>
        <Spinner label={intl.formatMessage({ id: 'connections.users.loading' })} />
      </div>
    );
  } else if (status === 'error') {
    body = (
      <MessageBar intent="error" role="alert">
        <MessageBarBody>{intl.formatMessage({ id: 'connections.users.error' })}</MessageBarBody>
      </MessageBar>
    );
  } else if (rows.length === 0) {
    body = <Text as="p">{intl.formatMessage({ id: 'connections.users.empty' })}</Text>;
  } else if (isMobile) {
    body = (
      <ul className={styles.cards} aria-label={title}>
        {rows.map((row) => (
          <li key={row.id} className={styles.card}>
            <Text weight="semibold">{row.fullName}</Text>
            <Text>{row.emailAddress}</Text>
            <Text size={200} className={styles.muted}>
              {intl.formatMessage({ id: 'connections.users.column.lastSeen' })}: {lastSeen(row.lastSeenAt)}
            </Text>
          </li>
        ))}
      </ul>
    );
  } else {
    body = (
      <Table className={styles.table} aria-label={title}>
        <TableHeader>
          <TableRow>
            <TableHeaderCell>{intl.formatMessage({ id: 'connections.users.column.name' })}</TableHeaderCell>
            <TableHeaderCell>{intl.formatMessage({ id: 'connections.users.column.email' })}</TableHeaderCell>
            <TableHeaderCell>
              {intl.formatMessage({ id: 'connections.users.column.lastSeen' })}
            </TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell className={styles.wrap}>{row.fullName}</TableCell>
              <TableCell className={styles.wrap}>{row.emailAddress}</TableCell>
              <TableCell>{lastSeen(row.lastSeenAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  }

  return (
    <section className={styles.page} aria-labelledby="connections-heading">
      <Title2 as="h1" id="connections-heading">
        {title}
      </Title2>
      {body}
    </section>
  );
}
