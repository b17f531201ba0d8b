// /app/connections/groups: the user's sign groups (name and members), creating, editing and deleting
// them through the signGroupEdit and signGroupDelete modals, all rendered from the sign-groups machine.
import {
  Button,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  mergeClasses,
} from '@fluentui/react-components';
import { Add20Regular, PeopleTeam24Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { SignGroup } from '../../../machines/sign-groups.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { EmptyState } from '../empty-state';
import { CONNECTION_ROW_DELAY_MS, rowEntranceDelay, useRowEntranceStyles } from '../row-entrance';
import { MOBILE_QUERY, useMediaQuery } from '../use-media-query';
import { useConnectionsStyles } from './connections-styles';
import { ListLoadFailed, ListLoading } from './list-states';
import { ConnectionsTabs } from './connections-tabs';
import { SignGroupDialogs, type SignGroupsActor, type SignGroupsLogic } from './sign-group-dialogs';

export type { SignGroupsLogic };

const rowDelay = (index: number) => rowEntranceDelay(index, CONNECTION_ROW_DELAY_MS);

const memberNames = (group: SignGroup) =>
  group.members.map((member) => member.fullName || member.emailAddress).join(', ');

function GroupActions({ groups, group }: { groups: SignGroupsActor; group: SignGroup }) {
  const intl = useIntl();
  const styles = useConnectionsStyles();
  return (
    <div className={styles.cardActions}>
      <Button
        className={styles.button}
        aria-label={intl.formatMessage({ id: 'connections.groups.edit.label' }, { name: group.name })}
        onClick={() => groups.send({ type: 'group.edit', groupId: group.id })}
      >
        {intl.formatMessage({ id: 'connections.groups.edit' })}
      </Button>
      <Button
        className={styles.button}
        aria-label={intl.formatMessage({ id: 'connections.groups.delete.label' }, { name: group.name })}
        onClick={() => groups.send({ type: 'group.delete', groupId: group.id })}
      >
        {intl.formatMessage({ id: 'connections.groups.delete' })}
      </Button>
    </div>
  );
}

function GroupList({ groups, label }: { groups: SignGroupsActor; label: string }) {
  const styles = useConnectionsStyles();
  const entrance = useRowEntranceStyles();
  const intl = useIntl();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const rows = useSelector(groups, (snapshot) => snapshot.context.groups);
  const count = (group: SignGroup) =>
    intl.formatMessage({ id: 'connections.groups.members' }, { count: group.members.length });

  if (isMobile) {
    return (
      <ul className={styles.cards} aria-label={label}>
        {rows.map((group, index) => (
          <li key={group.id} className={mergeClasses(styles.card, entrance.enter)} style={rowDelay(index)}>
            <div className={styles.cardText}>
              <Text weight="semibold">{group.name}</Text>
              <Text size={200} className={styles.muted}>
                {count(group)}: {memberNames(group)}
              </Text>
            </div>
            <GroupActions groups={groups} group={group} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <Table className={styles.table} aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHeaderCell>{intl.formatMessage({ id: 'connections.groups.column.name' })}</TableHeaderCell>
          <TableHeaderCell>{intl.formatMessage({ id: 'connections.groups.column.members' })}</TableHeaderCell>
          <TableHeaderCell style={{ width: 220 }}>
            {intl.formatMessage({ id: 'connections.users.column.actions' })}
          </TableHeaderCell>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((group, index) => (
          <TableRow key={group.id} className={entrance.enter} style={rowDelay(index)}>
            <TableCell className={styles.wrap}>{group.name}</TableCell>
            <TableCell className={styles.wrap}>
              {count(group)}
              <Text size={200} className={styles.muted} block>
                {memberNames(group)}
              </Text>
            </TableCell>
            <TableCell className={styles.actionsCell}>
              <GroupActions groups={groups} group={group} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function GroupsBody({
  groups,
  label,
  onCreate,
}: {
  groups: SignGroupsActor;
  label: string;
  onCreate: () => void;
}) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const isFailed = useSelector(groups, (snapshot) => snapshot.matches({ list: 'failed' }));
  const isFirstLoad = useSelector(
    groups,
    (snapshot) => snapshot.matches({ list: 'loading' }) && snapshot.context.groups.length === 0,
  );
  const isEmpty = useSelector(groups, (snapshot) => snapshot.context.groups.length === 0);

  if (isFirstLoad) return <ListLoading label="connections.groups.loading" />;
  if (isFailed) {
    return (
      <ListLoadFailed
        message="connections.groups.error"
        onRetry={() => groups.send({ type: 'groups.reload' })}
      />
    );
  }
  if (isEmpty) {
    return (
      <EmptyState
        icon={<PeopleTeam24Regular />}
        title={intl.formatMessage({ id: 'connections.groups.empty' })}
        description={intl.formatMessage({ id: 'connections.groups.empty.hint' })}
        action={
          // Not a second primary button: the toolbar's "Create a group" is the page's.
          <Button className={styles.button} icon={<Add20Regular />} onClick={onCreate}>
            {intl.formatMessage({ id: 'connections.groups.empty.create' })}
          </Button>
        }
      />
    );
  }
  return <GroupList groups={groups} label={label} />;
}

export function SignGroupsPage({ logic }: { logic: SignGroupsLogic }) {
  const styles = useConnectionsStyles();
  const intl = useIntl();
  const groups = useActorRef(logic, actorOptions({}));
  const title = intl.formatMessage({ id: 'connections.groups.title' });
  usePageTitle(intl.formatMessage({ id: 'connections.pageTitle' }));
  const create = () => groups.send({ type: 'group.create' });

  return (
    <section className={styles.page} aria-labelledby="connections-heading">
      <ConnectionsTabs selected="groups" />
      <div className={styles.toolbar}>
        <Button appearance="primary" className={styles.button} icon={<Add20Regular />} onClick={create}>
          {intl.formatMessage({ id: 'connections.groups.create' })}
        </Button>
      </div>
      <GroupsBody groups={groups} label={title} onCreate={create} />
      <SignGroupDialogs groups={groups} />
    </section>
  );
}
