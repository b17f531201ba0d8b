// A notice left for the list by another screen (the download route: "only signed documents can be
// downloaded"; the invite route: why the invitation opened nothing). Shown once above the list until
// dismissed or replaced.
import { useSyncExternalStore } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Dismiss20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import type { MessageId } from '../../i18n/messages';
import { dismissNotice, onNotice, readNotice } from '../../services/notices';

const NOTICE_TEXTS: Record<string, MessageId> = {
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

export function ListNotice() {
  const styles = useStyles();
  const intl = useIntl();
  const code = useSyncExternalStore(onNotice, readNotice, () => null);
  if (code === null) return null;
  const id = NOTICE_TEXTS[code];
  if (!id) return null;
  return (
    <div className={styles.notice} role="status">
      <Text className={styles.text}>{intl.formatMessage({ id })}</Text>
      <Button
        appearance="transparent"
        icon={<Dismiss20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.notice.dismiss' })}
        onClick={dismissNotice}
      />
    </div>
  );
}
