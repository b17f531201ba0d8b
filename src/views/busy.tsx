// A light loading indicator for the screens on the first paint (session check, route chunks), where
// Fluent's Spinner would add its weight to the entry bundle. Announced to screen readers by its label.
import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground2,
  },
  page: { minHeight: '100vh', boxSizing: 'border-box' },
  ring: {
    width: '32px',
    height: '32px',
    boxSizing: 'border-box',
    borderRadius: '50%',
    border: `3px solid ${tokens.colorNeutralStroke2}`,
    borderTopColor: tokens.colorBrandStroke1,
    animationName: { to: { transform: 'rotate(360deg)' } },
    animationDuration: '900ms',
    animationIterationCount: 'infinite',
    animationTimingFunction: 'linear',
    '@media (prefers-reduced-motion: reduce)': { animationDuration: '3s' },
  },
});

export function Busy({ label, fullPage = false }: { label: string; fullPage?: boolean }) {
  const styles = useStyles();
  return (
    <div className={fullPage ? `${styles.root} ${styles.page}` : styles.root} role="status">
      <span className={styles.ring} aria-hidden />
      <span>{label}</span>
    </div>
  );
}
