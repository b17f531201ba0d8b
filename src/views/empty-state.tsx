// What a list shows when it has nothing to show: an icon, what would be here, and the next useful step, so
// an empty screen is never a dead end. Callers pass icons the app already loads (a list's sidebar entry's),
// drawn larger here, so an empty state adds no icon bytes to the first load.
import type { ReactElement, ReactNode } from 'react';
import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    textAlign: 'center',
  },
  compact: {
    flexDirection: 'row',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: 0,
    textAlign: 'start',
  },
  icon: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    width: '56px',
    height: '56px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorBrandForeground2,
    '& svg': { width: '28px', height: '28px' },
  },
  compactIcon: {
    width: '36px',
    height: '36px',
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground3,
    '& svg': { width: '20px', height: '20px' },
  },
  text: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  // Plain paragraphs: Fluent's Text aligns to the start, and these follow the state's alignment.
  title: {
    margin: 0,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase400,
    lineHeight: tokens.lineHeightBase400,
    fontWeight: tokens.fontWeightSemibold,
    overflowWrap: 'anywhere',
  },
  compactTitle: { fontSize: tokens.fontSizeBase300, lineHeight: tokens.lineHeightBase300 },
  description: {
    margin: 0,
    maxWidth: '46ch',
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    justifyContent: 'center',
    gap: tokens.spacingHorizontalS,
    marginTop: tokens.spacingVerticalS,
    // The app's touch target, as the toolbars' buttons.
    '& > *': { minHeight: '40px' },
  },
});

export type EmptyStateProps = {
  /** An icon from @fluentui/react-icons, preferably one the app already loads; drawn at the state's size. */
  icon: ReactElement;
  title: string;
  description?: string;
  /** The next useful step: a button or a link styled as one. */
  action?: ReactNode;
  /** Compact: one line beside a small icon, for a section that is empty among others. */
  isCompact?: boolean;
};

export function EmptyState({ icon, title, description, action, isCompact = false }: EmptyStateProps) {
  const styles = useStyles();
  return (
    <div className={mergeClasses(styles.root, isCompact && styles.compact)}>
      <span className={mergeClasses(styles.icon, isCompact && styles.compactIcon)} aria-hidden>
        {icon}
      </span>
      <div className={styles.text}>
        <p className={mergeClasses(styles.title, isCompact && styles.compactTitle)}>{title}</p>
        {description && <p className={styles.description}>{description}</p>}
      </div>
      {action && <div className={styles.actions}>{action}</div>}
    </div>
  );
}
