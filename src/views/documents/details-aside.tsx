// The list's side panel slot (768 px and up). With nothing selected it shows the hint itself; the panel
// and its machine load once a document is selected, which keeps them off the list's first paint.
import { makeStyles, tokens } from '@fluentui/react-components';
import { Text } from '../text';
import { useIntl } from 'react-intl';
import { loader, preloadedLazy } from '../preloaded-lazy';

// The hint stays until the panel's code is here, and the panel shows as soon as it is: React's reveal
// delay (preloaded-lazy.tsx) would keep the hint 300 ms after a person's first selection.
const DetailsPanel = preloadedLazy(
  loader(() => Promise.all([import('./details-panel'), import('../../app/compose-details')])),
  ([panel, compose]) =>
    function LoadedDetailsPanel({ selectedIds }: { selectedIds: string[] }) {
      return <panel.DetailsPanel logic={compose.documentDetailsLogic} selectedIds={selectedIds} />;
    },
  <Hint />,
);

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
  return <DetailsPanel selectedIds={selectedIds} />;
}
