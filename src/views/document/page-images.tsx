// Phones and touch screens get the server-rendered page images, one at a time with a pager
// (spec 000 §2 "Document viewer"). Which page is shown is view state; it does nothing else.
import { useState } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronLeft20Regular, ChevronRight20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';

const useStyles = makeStyles({
  viewer: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
    width: '100%',
  },
  image: { display: 'block', width: '100%', maxWidth: '900px', height: 'auto', boxShadow: tokens.shadow4 },
  pager: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  button: { minWidth: '40px', minHeight: '40px' },
});

export function PageImages({ urls, name }: { urls: string[]; name: string }) {
  const styles = useStyles();
  const intl = useIntl();
  const [index, setIndex] = useState(0);
  const page = Math.min(index, urls.length - 1);
  const url = urls[page];
  if (url === undefined) return null;
  return (
    <div className={styles.viewer}>
      <img
        className={styles.image}
        src={url}
        alt={intl.formatMessage({ id: 'document.viewer.pageImage' }, { page: page + 1, name })}
      />
      {urls.length > 1 && (
        <div className={styles.pager}>
          <Button
            className={styles.button}
            icon={<ChevronLeft20Regular />}
            aria-label={intl.formatMessage({ id: 'document.viewer.prev' })}
            disabledFocusable={page === 0}
            onClick={() => setIndex(page - 1)}
          />
          <Text aria-live="polite">
            {intl.formatMessage({ id: 'document.viewer.page' }, { page: page + 1, total: urls.length })}
          </Text>
          <Button
            className={styles.button}
            icon={<ChevronRight20Regular />}
            aria-label={intl.formatMessage({ id: 'document.viewer.next' })}
            disabledFocusable={page === urls.length - 1}
            onClick={() => setIndex(page + 1)}
          />
        </div>
      )}
    </div>
  );
}
