// A notice left for the list by another screen (the download route: "only signed documents can be
// downloaded"; the invite route: why the invitation opened nothing), kept by the shell. Shown above the
// list until dismissed or replaced; a reload forgets it, as a toast would.
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import { Dismiss20Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { NoticeCode } from '../../../machines/shell.machine';
import { useOptionalShell, type ShellActorRef } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';

const NOTICE_TEXTS: Record<NoticeCode, MessageId> = {
  download_unavailable: 'documents.notice.download_unavailable',
  invite_not_found: 'documents.notice.invite_not_found',
  invite_failed: 'documents.notice.invite_failed',
  invite_no_document: 'documents.notice.invite_no_document',
};

const useStyles = makeStyles({
  notice: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorPaletteYellowBackground1,
    border: `1px solid ${tokens.colorPaletteYellowBorder1}`,
  },
  text: { flex: '1 1 auto' },
});

/** The shell's notice, if any: outside the shell (a bare list in a test) there is none. */
export function ListNotice() {
  const shell = useOptionalShell();
  return shell ? <ShellNotice shell={shell} /> : null;
}

function ShellNotice({ shell }: { shell: ShellActorRef }) {
  const styles = useStyles();
  const intl = useIntl();
  const code = useSelector(shell, (snapshot) => snapshot.context.notice);
  if (code === null) return null;
  const id = NOTICE_TEXTS[code];
  return (
    <div className={styles.notice} role="status">
      <Text className={styles.text}>{intl.formatMessage({ id })}</Text>
      <Button
        appearance="transparent"
        icon={<Dismiss20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.notice.dismiss' })}
        onClick={() => shell.send({ type: 'notice.dismiss' })}
      />
    </div>
  );
}
