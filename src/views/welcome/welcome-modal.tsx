// The welcome screen (spec 000 §1, modal name `welcome`): three cards (documents, signing flows,
// answers) and an offer to upload. Stays mounted like every modal and follows the modal machine; the
// welcome machine (src/views/shell/shell-preferences.tsx) saves that it was watched once it closes.
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowUpload20Regular,
  DocumentMultiple24Regular,
  PeopleTeam24Regular,
  Signature24Regular,
} from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { useModalActor } from '../../app/modal-context';
import type { MessageId } from '../../i18n/messages';

const CARDS: readonly {
  key: string;
  icon: typeof DocumentMultiple24Regular;
  title: MessageId;
  text: MessageId;
}[] = [
  {
    key: 'documents',
    icon: DocumentMultiple24Regular,
    title: 'welcome.documents.title',
    text: 'welcome.documents.text',
  },
  {
    key: 'signFlows',
    icon: PeopleTeam24Regular,
    title: 'welcome.signFlows.title',
    text: 'welcome.signFlows.text',
  },
  { key: 'answers', icon: Signature24Regular, title: 'welcome.answers.title', text: 'welcome.answers.text' },
];

const useStyles = makeStyles({
  surface: { width: '720px', maxWidth: 'calc(100vw - 32px)' },
  cards: {
    listStyle: 'none',
    margin: `${tokens.spacingVerticalM} 0 0`,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  icon: { color: tokens.colorBrandForeground1 },
  button: { minHeight: '40px' },
});

export function WelcomeModal() {
  const styles = useStyles();
  const intl = useIntl();
  const modal = useModalActor();
  const isOpen = useSelector(
    modal,
    (snapshot) => snapshot.matches('open') && snapshot.context.name === 'welcome',
  );
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) modal.send({ type: data.type === 'escapeKeyDown' ? 'key.escape' : 'modal.close' });
      }}
    >
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{intl.formatMessage({ id: 'welcome.title' })}</DialogTitle>
          <DialogContent>
            <Text>{intl.formatMessage({ id: 'welcome.intro' })}</Text>
            <ul className={styles.cards}>
              {CARDS.map(({ key, icon: Icon, title, text }) => (
                <li key={key} className={styles.card}>
                  <Icon aria-hidden className={styles.icon} />
                  <Text as="h3" weight="semibold" size={400}>
                    {intl.formatMessage({ id: title })}
                  </Text>
                  <Text>{intl.formatMessage({ id: text })}</Text>
                </li>
              ))}
            </ul>
          </DialogContent>
          <DialogActions>
            <Button className={styles.button} onClick={() => modal.send({ type: 'modal.close' })}>
              {intl.formatMessage({ id: 'welcome.close' })}
            </Button>
            <Button
              appearance="primary"
              className={styles.button}
              icon={<ArrowUpload20Regular />}
              onClick={() => modal.send({ type: 'modal.open', name: 'documentUpload' })}
            >
              {intl.formatMessage({ id: 'welcome.upload' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
