import { useDeferredValue } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import {
  ChevronDoubleLeft20Regular,
  ChevronDoubleRight20Regular,
  ChevronLeft20Regular,
  ChevronRight20Regular,
} from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { DocumentListActor } from './list-actor';

const useStyles = makeStyles({
  pager: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  button: { minHeight: '40px', minWidth: '40px' },
  text: { minWidth: '110px', textAlign: 'center' },
});

/** First / previous / next / last and 'Page X of Y'; the machine says which moves are possible. */
export function Pager({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  const meta = useSelector(list, (snapshot) => snapshot.context.meta);
  // Deferred as the list's body is (document-list.tsx), so the pager comes with the rows, not before.
  const hasRows = useDeferredValue(useSelector(list, (snapshot) => snapshot.context.documents.length > 0));
  const canFirst = useSelector(list, (snapshot) => snapshot.can({ type: 'page.first' }));
  const canPrev = useSelector(list, (snapshot) => snapshot.can({ type: 'page.prev' }));
  const canNext = useSelector(list, (snapshot) => snapshot.can({ type: 'page.next' }));
  const canLast = useSelector(list, (snapshot) => snapshot.can({ type: 'page.last' }));
  if (!meta || !hasRows) return null;

  return (
    <nav className={styles.pager} aria-label={intl.formatMessage({ id: 'documents.pager.label' })}>
      <Button
        className={styles.button}
        appearance="subtle"
        icon={<ChevronDoubleLeft20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.pager.first' })}
        disabledFocusable={!canFirst}
        onClick={() => list.send({ type: 'page.first' })}
      />
      <Button
        className={styles.button}
        appearance="subtle"
        icon={<ChevronLeft20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.pager.prev' })}
        disabledFocusable={!canPrev}
        onClick={() => list.send({ type: 'page.prev' })}
      />
      <Text className={styles.text} aria-live="polite">
        {intl.formatMessage(
          { id: 'documents.pager.page' },
          { page: meta.currentPage, total: meta.totalPages },
        )}
      </Text>
      <Button
        className={styles.button}
        appearance="subtle"
        icon={<ChevronRight20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.pager.next' })}
        disabledFocusable={!canNext}
        onClick={() => list.send({ type: 'page.next' })}
      />
      <Button
        className={styles.button}
        appearance="subtle"
        icon={<ChevronDoubleRight20Regular />}
        aria-label={intl.formatMessage({ id: 'documents.pager.last' })}
        disabledFocusable={!canLast}
        onClick={() => list.send({ type: 'page.last' })}
      />
    </nav>
  );
}
