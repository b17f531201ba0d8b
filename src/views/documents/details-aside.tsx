// The list's side panel slot (768 px and up). With nothing selected it shows the hint itself; the panel
// and its machine load once a document is selected, which keeps them off the list's first paint.
import { lazy, Suspense } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import { useIntl } from 'react-intl';

const DetailsPanel = lazy(async () => {
  const [panel, compose] = await Promise.all([
    import('./details-panel'),
    import('../../app/compose-details'),
  ]);
  return {
    default: ({ selectedIds }: { selectedIds: string[] }) => (
      <panel.DetailsPanel logic={compose.documentDetailsLogic} selectedIds={selectedIds} />
    ),
  };
});

// The same frame as the panel's list variant (details-panel.tsx): 360 px, 280 px on tablets.
const useStyles = makeStyles({
  aside: {
    boxSizing: 'border-box',
    width: '360px',
    flex: '0 0 360px',
    padding: tokens.spacingHorizontalL,
    borderLeft: `1px solid ${tokens.colorNeutralStroke2}`,
    overflowWrap: 'anywhere',
    '@media (min-width: 768px) and (max-width: 959px)': { width: '280px', flexBasis: '280px' },
  },
  hint: { color: tokens.colorNeutralForeground3 },
});

function Hint() {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <aside className={styles.aside} aria-label={intl.formatMessage({ id: 'documents.details.label' })}>
      <Text className={styles.hint}>{intl.formatMessage({ id: 'documents.details.none' })}</Text>
    </aside>
  );
}

export function DetailsAside({ selectedIds }: { selectedIds: string[] }) {
  if (selectedIds.length === 0) return <Hint />;
  return (
    <Suspense fallback={<Hint />}>
      <DetailsPanel selectedIds={selectedIds} />
    </Suspense>
  );
}
