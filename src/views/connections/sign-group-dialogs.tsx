// The signGroupEdit and signGroupDelete modals (spec 000 §2, §5, §8), rendered from the sign-groups
// machine's `dialog` region, which alone says whether one is open; every way of closing them (Cancel, Esc,
// a save or delete that succeeded) goes through that machine. Every field keeps what was typed through a
// failed save.
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
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Dismiss16Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import {
  MEMBER_SEARCH_MIN_LENGTH,
  isNameValid,
  memberMatches,
  membersOf,
  type signGroupsMachine,
} from '../../../machines/sign-groups.machine';
import { useConnectionsStyles } from './connections-styles';

export type SignGroupsLogic = typeof signGroupsMachine;
export type SignGroupsActor = ActorRefFrom<SignGroupsLogic>;

/** Spec 000 §9: the member list is 140 px high and scrolls. */
export const MEMBER_LIST_HEIGHT = 140;

const useStyles = makeStyles({
  list: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  members: {
    height: `${MEMBER_LIST_HEIGHT}px`,
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalS,
    boxSizing: 'border-box',
  },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    minHeight: '40px',
    overflowWrap: 'anywhere',
  },
  itemText: { display: 'flex', flexDirection: 'column', flex: '1 1 auto', minWidth: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  blocked: { color: tokens.colorPaletteRedForeground1 },
  status: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minHeight: '40px' },
});

function MemberSearch({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const shared = useConnectionsStyles();
  const query = useSelector(groups, (snapshot) => snapshot.context.query);
  const matches = useSelector(groups, (snapshot) =>
    memberMatches(snapshot.context.connections, snapshot.context.query, snapshot.context.memberIds),
  );
  const isSaving = useSelector(groups, (snapshot) => snapshot.matches({ dialog: { editor: 'saving' } }));
  const isSearching = query.trim().length >= MEMBER_SEARCH_MIN_LENGTH;
  const resultsLabel = intl.formatMessage({ id: 'connections.group.edit.results' });
  return (
    <>
      <Field
        label={intl.formatMessage({ id: 'connections.group.edit.search' })}
        hint={intl.formatMessage({ id: 'connections.group.edit.search.hint' })}
      >
        <Input
          type="search"
          value={query}
          autoComplete="off"
          disabled={isSaving}
          onChange={(_event, data) => groups.send({ type: 'editor.queryChanged', query: data.value })}
        />
      </Field>
      {isSearching &&
        (matches.length === 0 ? (
          <Text as="p">{intl.formatMessage({ id: 'connections.group.edit.no-connection-found' })}</Text>
        ) : (
          <ul className={styles.list} aria-label={resultsLabel}>
            {matches.map((profile) => (
              <li key={profile.id} className={styles.item}>
                <span className={styles.itemText}>
                  <Text weight="semibold">{profile.fullName}</Text>
                  <Text size={200} className={styles.muted}>
                    {profile.emailAddress}
                  </Text>
                </span>
                <Button
                  className={shared.button}
                  disabledFocusable={isSaving}
                  aria-label={intl.formatMessage(
                    { id: 'connections.group.edit.addMember' },
                    { name: profile.fullName || profile.emailAddress },
                  )}
                  onClick={() => groups.send({ type: 'editor.memberAdded', profileId: profile.id })}
                >
                  {intl.formatMessage({ id: 'connections.user.add.submit' })}
                </Button>
              </li>
            ))}
          </ul>
        ))}
    </>
  );
}

function MemberList({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const members = useSelector(groups, (snapshot) => membersOf(snapshot.context));
  const blockedIds = useSelector(groups, (snapshot) => snapshot.context.blockedIds);
  const isSaving = useSelector(groups, (snapshot) => snapshot.matches({ dialog: { editor: 'saving' } }));
  const showValidation = useSelector(
    groups,
    (snapshot) => snapshot.context.isMembersTouched && snapshot.context.memberIds.length === 0,
  );
  const label = intl.formatMessage({ id: 'connections.group.edit.members' });
  return (
    <Field
      label={label}
      validationState={showValidation ? 'error' : 'none'}
      validationMessage={
        showValidation ? intl.formatMessage({ id: 'connections.group.edit.validation.members' }) : undefined
      }
    >
      <div className={styles.members} data-testid="sign-group-members">
        {members.length === 0 ? (
          <Text className={styles.muted}>
            {intl.formatMessage({ id: 'connections.group.edit.noMembers' })}
          </Text>
        ) : (
          <ul className={styles.list} aria-label={label}>
            {members.map((member) => {
              const name = member.fullName || member.emailAddress;
              return (
                <li key={member.id} className={styles.item}>
                  <span className={styles.itemText}>
                    <Text
                      weight="semibold"
                      className={blockedIds.includes(member.id) ? styles.blocked : undefined}
                    >
                      {name}
                    </Text>
                    <Text size={200} className={styles.muted}>
                      {member.emailAddress}
                    </Text>
                  </span>
                  <Button
                    appearance="subtle"
                    icon={<Dismiss16Regular />}
                    disabledFocusable={isSaving}
                    aria-label={intl.formatMessage({ id: 'connections.group.edit.removeMember' }, { name })}
                    onClick={() => groups.send({ type: 'editor.memberRemoved', profileId: member.id })}
                  />
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </Field>
  );
}

function SaveError({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const isFailed = useSelector(groups, (snapshot) =>
    snapshot.matches({ dialog: { editor: { form: 'saveFailed' } } }),
  );
  const blockedNames = useSelector(groups, (snapshot) =>
    membersOf(snapshot.context)
      .filter((member) => snapshot.context.blockedIds.includes(member.id))
      .map((member) => member.fullName || member.emailAddress)
      .join(', '),
  );
  if (!isFailed) return null;
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>
        {blockedNames
          ? intl.formatMessage({ id: 'connections.group.edit.error-not-connection' }, { names: blockedNames })
          : intl.formatMessage({ id: 'connections.group.edit.error-saving' })}
      </MessageBarBody>
    </MessageBar>
  );
}

function EditorForm({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const name = useSelector(groups, (snapshot) => snapshot.context.name);
  const isSaving = useSelector(groups, (snapshot) => snapshot.matches({ dialog: { editor: 'saving' } }));
  const showValidation = useSelector(
    groups,
    (snapshot) => snapshot.context.isNameTouched && !isNameValid(snapshot.context.name),
  );
  return (
    <>
      <Field
        label={intl.formatMessage({ id: 'connections.group.edit.name' })}
        required
        validationState={showValidation ? 'error' : 'none'}
        validationMessage={
          showValidation ? intl.formatMessage({ id: 'connections.group.edit.validation.name' }) : undefined
        }
      >
        <Input
          value={name}
          maxLength={255}
          disabled={isSaving}
          onChange={(_event, data) => groups.send({ type: 'editor.nameChanged', name: data.value })}
        />
      </Field>
      <MemberSearch groups={groups} />
      <MemberList groups={groups} />
      <SaveError groups={groups} />
    </>
  );
}

function EditorBody({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const shared = useConnectionsStyles();
  const isEdit = useSelector(groups, (snapshot) => snapshot.context.groupId !== null);
  const isLoading = useSelector(
    groups,
    (snapshot) =>
      snapshot.matches({ dialog: { editor: 'loadingGroup' } }) ||
      snapshot.matches({ dialog: { editor: 'populating' } }),
  );
  const isLoadFailed = useSelector(groups, (snapshot) =>
    snapshot.matches({ dialog: { editor: 'loadFailed' } }),
  );
  const isPopulationFailed = useSelector(groups, (snapshot) =>
    snapshot.matches({ dialog: { editor: 'populationFailed' } }),
  );
  const isSaving = useSelector(groups, (snapshot) => snapshot.matches({ dialog: { editor: 'saving' } }));
  const canSave = useSelector(groups, (snapshot) => snapshot.can({ type: 'editor.save' }));
  const hasForm = !isLoading && !isLoadFailed && !isPopulationFailed;

  return (
    <DialogBody>
      <DialogTitle>
        {intl.formatMessage({
          id: isEdit ? 'connections.group.edit.title.edit' : 'connections.group.edit.title.create',
        })}
      </DialogTitle>
      <DialogContent className={shared.content}>
        {isLoading && (
          <div className={styles.status}>
            <Spinner size="tiny" label={intl.formatMessage({ id: 'connections.group.edit.loading' })} />
          </div>
        )}
        {(isLoadFailed || isPopulationFailed) && (
          <MessageBar intent="error" layout="multiline" role="alert">
            <MessageBarBody>
              {intl.formatMessage({
                id: isLoadFailed
                  ? 'connections.group.edit.error-loading'
                  : 'connections.group.edit.error-population',
              })}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => groups.send({ type: 'editor.retry' })}>
                {intl.formatMessage({ id: 'common.retry' })}
              </Button>
            </MessageBarActions>
          </MessageBar>
        )}
        {hasForm && <EditorForm groups={groups} />}
      </DialogContent>
      <DialogActions>
        {hasForm && (
          <Button
            appearance="primary"
            className={shared.button}
            disabledFocusable={!canSave}
            aria-busy={isSaving}
            icon={
              isSaving ? (
                <Spinner size="tiny" aria-label={intl.formatMessage({ id: 'connections.users.working' })} />
              ) : undefined
            }
            onClick={() => groups.send({ type: 'editor.save' })}
          >
            {intl.formatMessage({
              id: isEdit ? 'connections.group.edit.save' : 'connections.group.edit.create',
            })}
          </Button>
        )}
        <Button className={shared.button} onClick={() => groups.send({ type: 'dialog.close' })}>
          {intl.formatMessage({ id: 'common.cancel' })}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}

function DeleteBody({ groups }: { groups: SignGroupsActor }) {
  const intl = useIntl();
  const shared = useConnectionsStyles();
  const name = useSelector(
    groups,
    (snapshot) => snapshot.context.groups.find((group) => group.id === snapshot.context.groupId)?.name ?? '',
  );
  const isDeleting = useSelector(groups, (snapshot) =>
    snapshot.matches({ dialog: { deletion: 'deleting' } }),
  );
  const isFailed = useSelector(groups, (snapshot) => snapshot.matches({ dialog: { deletion: 'failed' } }));
  return (
    <DialogBody>
      <DialogTitle>{intl.formatMessage({ id: 'connections.group.delete.title' })}</DialogTitle>
      <DialogContent className={shared.content}>
        <Text as="p" className={shared.wrap}>
          {intl.formatMessage({ id: 'connections.group.delete.text' }, { name })}
        </Text>
        {isFailed && (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{intl.formatMessage({ id: 'connections.group.delete.error' })}</MessageBarBody>
          </MessageBar>
        )}
      </DialogContent>
      <DialogActions>
        <Button
          appearance="primary"
          className={shared.button}
          disabledFocusable={isDeleting}
          // Destructive: red while it can be pressed, Fluent's disabled look while it runs.
          style={isDeleting ? undefined : { backgroundColor: tokens.colorPaletteRedBackground3 }}
          aria-busy={isDeleting}
          icon={
            isDeleting ? (
              <Spinner size="tiny" aria-label={intl.formatMessage({ id: 'connections.users.working' })} />
            ) : undefined
          }
          onClick={() => groups.send({ type: 'deletion.confirm' })}
        >
          {intl.formatMessage({ id: 'connections.group.delete.confirm' })}
        </Button>
        <Button className={shared.button} onClick={() => groups.send({ type: 'dialog.close' })}>
          {intl.formatMessage({ id: 'common.cancel' })}
        </Button>
      </DialogActions>
    </DialogBody>
  );
}

export function SignGroupDialogs({ groups }: { groups: SignGroupsActor }) {
  const shared = useConnectionsStyles();
  const showEditor = useSelector(groups, (snapshot) => snapshot.matches({ dialog: 'editor' }));
  const showDeletion = useSelector(groups, (snapshot) => snapshot.matches({ dialog: 'deletion' }));
  const onOpenChange = (_event: unknown, data: { open: boolean }) => {
    if (!data.open) groups.send({ type: 'dialog.close' });
  };
  return (
    <>
      <Dialog open={showEditor} onOpenChange={onOpenChange}>
        <DialogSurface className={shared.surface}>
          {showEditor && <EditorBody groups={groups} />}
        </DialogSurface>
      </Dialog>
      <Dialog open={showDeletion} onOpenChange={onOpenChange}>
        <DialogSurface className={shared.surface}>
          {showDeletion && <DeleteBody groups={groups} />}
        </DialogSurface>
      </Dialog>
    </>
  );
}
