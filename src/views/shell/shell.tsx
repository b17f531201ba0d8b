// The signed-in frame (spec 000 §2 "Shell"): a 66 px header, a 250 px sidebar that becomes an overlay
// drawer under 1150 px, and the main area. The actors it shows (the modal, the session) are the app
// shell's (src/app/shell-context.ts).
import { useState, type ReactNode } from 'react';
import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { Navigation24Regular } from '@fluentui/react-icons';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { useModalActor } from '../../app/modal-context';
import { loader, preloadedLazy } from '../preloaded-lazy';
import { MOBILE_QUERY, NARROW_SHELL_QUERY, useMediaQuery } from '../use-media-query';
import { HEADER_HEIGHT, SIDEBAR_WIDTH } from './layout';
import { Sidebar } from './sidebar';
import { UserMenu } from './user-menu';

// Modals load with their first opening, the drawer with the first tap on the menu button: neither is
// needed to show a list. Neither suspends either: React would hold a revealed dialog or drawer back 300 ms
// (preloaded-lazy.tsx), which a person waits through after their tap, or sees as the welcome screen
// coming a moment after the list.
const ModalHost = preloadedLazy(
  loader(() => import('./modal-host')),
  (module) => module.ModalHost,
);
const NavDrawer = preloadedLazy(
  loader(() => import('./nav-drawer')),
  (module) => module.NavDrawer,
);

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh', overflow: 'hidden' },
  skip: {
    position: 'absolute',
    left: '-10000px',
    top: 0,
    zIndex: 10,
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground1,
    ':focus': { left: tokens.spacingHorizontalM, top: tokens.spacingVerticalM },
  },
  header: {
    flex: `0 0 ${HEADER_HEIGHT}px`,
    height: `${HEADER_HEIGHT}px`,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `0 ${tokens.spacingHorizontalL}`,
    boxSizing: 'border-box',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  brand: {
    fontSize: tokens.fontSizeBase500,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorBrandForeground1,
    textDecoration: 'none',
  },
  spacer: { flexGrow: 1 },
  menuButton: { minWidth: '40px', minHeight: '40px' },
  body: { display: 'flex', flex: '1 1 auto', minHeight: 0 },
  sidebar: {
    flex: `0 0 ${SIDEBAR_WIDTH}px`,
    width: `${SIDEBAR_WIDTH}px`,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    overflowY: 'auto',
  },
  main: {
    flex: '1 1 auto',
    minWidth: 0,
    overflowY: 'auto',
    overflowX: 'hidden',
    padding: tokens.spacingHorizontalXXL,
    boxSizing: 'border-box',
    ':focus': { outline: 'none' },
    '@media (max-width: 767px)': { padding: tokens.spacingHorizontalM },
  },
});

export function Shell({ children }: { children: ReactNode }) {
  const styles = useStyles();
  const intl = useIntl();
  const modal = useModalActor();
  const hasModal = useSelector(modal, (snapshot) => !snapshot.matches('closed'));
  // Loaded with the first opening, then kept: a dialog must stay mounted to close cleanly.
  const [isModalHostLoaded, setModalHostLoaded] = useState(false);
  if (hasModal && !isModalHostLoaded) setModalHostLoaded(true);
  const isNarrow = useMediaQuery(NARROW_SHELL_QUERY);
  const isMobile = useMediaQuery(MOBILE_QUERY);
  // Whether the drawer is pulled out is layout, not behaviour: it has no machine.
  const [isDrawerOpen, setDrawerOpen] = useState(false);
  const [hasOpenedDrawer, setHasOpenedDrawer] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <>
      <div className={styles.root}>
        <a href="#main" className={styles.skip}>
          {intl.formatMessage({ id: 'app.skipToContent' })}
        </a>
        <header className={styles.header}>
          {isNarrow && (
            <Button
              appearance="subtle"
              className={styles.menuButton}
              icon={<Navigation24Regular />}
              aria-label={intl.formatMessage({ id: 'shell.nav.open' })}
              aria-expanded={isDrawerOpen}
              onClick={() => {
                setHasOpenedDrawer(true);
                setDrawerOpen(true);
              }}
            />
          )}
          <Link href="/documents" className={styles.brand}>
            {intl.formatMessage({ id: 'app.name' })}
          </Link>
          <span className={styles.spacer} />
          {isMobile && <UserMenu compact />}
        </header>
        <div className={styles.body}>
          {isNarrow ? (
            hasOpenedDrawer && (
              <NavDrawer isOpen={isDrawerOpen} showUserMenu={!isMobile} onClose={closeDrawer} />
            )
          ) : (
            <aside className={styles.sidebar}>
              <Sidebar showUserMenu />
            </aside>
          )}
          <main id="main" className={styles.main} tabIndex={-1}>
            {children}
          </main>
        </div>
      </div>
      {isModalHostLoaded && <ModalHost />}
    </>
  );
}
