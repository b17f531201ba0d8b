// The bar above the table when several rows are selected (spec 000 §5): archive and delete only when
// every selected document allows them, download when at least one is signed.
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { bulkActionsOf } from '../../../machines/document-actions-rules';
import { useOptionalShell } from '../../app/shell-context';
import type { DocumentListActor } from './list-actor';
import { ACTION_LABELS, requestAction } from './row-actions';

const useStyles = makeStyles({
  bar: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, padding: 0 },
  button: { minHeight: '40px' },
});

export function BulkActions({ list }: { list: DocumentListActor }) {
  const styles = useStyles();
  const intl = useIntl();
  // Outside the shell (a bare list in a test) nothing can run an action: none is offered.
  const shell = useOptionalShell();
  const documents = useSelector(list, (snapshot) => snapshot.context.documents);
  const selectedIds = useSelector(list, (snapshot) => snapshot.context.selectedIds);
  if (!shell || selectedIds.length < 2) return null;
  const selected = documents.filter((document) => selectedIds.includes(document.id));
  const actions = bulkActionsOf(selected);
  if (actions.length === 0) return null;
  return (
    <div
      role="toolbar"
      className={styles.bar}
      aria-label={intl.formatMessage({ id: 'documents.bulk.label' })}
    >
      {actions.map((action) => (
        <Button key={action} className={styles.button} onClick={() => requestAction(shell, action, selected)}>
          {intl.formatMessage({ id: ACTION_LABELS[action] })}
        </Button>
      ))}
    </div>
  );
}
