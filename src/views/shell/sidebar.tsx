import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { ArrowUpload20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { useNavLinkStyles } from './nav-link-styles';
import { Link, useLocation } from 'wouter';
import { useModalActor } from '../../app/modal-context';
import { SessionContext } from '../../app/session';
import { isActive, NAV_ITEMS, type BadgeSource } from './nav-items';
import { SidebarLanguage } from './sidebar-language';
import { UserMenu } from './user-menu';
import { HelpLinks } from './help-links';
import { APP_VERSION } from '../../app/version';
import { VISUALLY_HIDDEN } from '../visually-hidden';

const useStyles = makeStyles({
  sidebar: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalM}`,
    boxSizing: 'border-box',
    height: '100%',
  },
  upload: { minHeight: '40px', width: '100%' },
  label: { flexGrow: 1 },
  hidden: VISUALLY_HIDDEN,
  badge: {
    minWidth: '20px',
    height: '20px',
    padding: '0 6px',
    boxSizing: 'border-box',
    borderRadius: '10px',
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold,
  },
  version: {
    marginTop: 'auto',
    alignSelf: 'flex-start',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground3,
    textDecoration: 'none',
    ':hover': { color: tokens.colorNeutralForeground1, textDecoration: 'underline' },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
});

function useBadgeCount(source: BadgeSource | undefined): number {
  return SessionContext.useSelector((snapshot) => (source ? (snapshot.context.profile?.[source] ?? 0) : 0));
}

function NavLink({ item, onNavigate }: { item: (typeof NAV_ITEMS)[number]; onNavigate?: () => void }) {
  const styles = useStyles();
  const links = useNavLinkStyles();
  const intl = useIntl();
  const [location] = useLocation();
  const count = useBadgeCount(item.badge?.source);
  const active = isActive(item, location);
  const Icon = item.icon;
  const label = intl.formatMessage({ id: item.label });
  const badge = item.badge && count > 0 ? intl.formatMessage({ id: item.badge.label }, { count }) : null;
  return (
    <li>
      <Link
        href={item.path}
        className={mergeClasses(links.link, active && links.active)}
        aria-current={active ? 'page' : undefined}
        onClick={onNavigate}
      >
        <Icon aria-hidden />
        {/* The bare count means nothing read aloud, so the link's name is written out, "To Do, 2 documents
            to do", as text out of sight rather than an aria-label: a name that starts with what the link
            shows is what voice control users say to click it. */}
        <span className={styles.label} aria-hidden={badge ? true : undefined}>
          {label}
        </span>
        {badge && (
          <>
            <span className={styles.badge} aria-hidden>
              {count > 99 ? '99+' : count}
            </span>
            <span className={styles.hidden}>
              {intl.formatMessage({ id: 'shell.nav.withBadge' }, { label, badge })}
            </span>
          </>
        )}
      </Link>
    </li>
  );
}

/** The version label opens the release notes; its name says so, since the label alone is a number. */
function VersionLink({ onNavigate }: { onNavigate?: () => void }) {
  const styles = useStyles();
  const intl = useIntl();
  const [location] = useLocation();
  return (
    <Link
      href="/releases"
      className={styles.version}
      aria-label={intl.formatMessage({ id: 'shell.releaseNotes' }, { version: APP_VERSION })}
      aria-current={location === '/releases' ? 'page' : undefined}
      onClick={onNavigate}
    >
      {APP_VERSION}
    </Link>
  );
}

export function Sidebar({ showUserMenu, onNavigate }: { showUserMenu: boolean; onNavigate?: () => void }) {
  const styles = useStyles();
  const links = useNavLinkStyles();
  const intl = useIntl();
  const modal = useModalActor();
  return (
    <div className={styles.sidebar}>
      {showUserMenu && <UserMenu />}
      <Button
        appearance="primary"
        icon={<ArrowUpload20Regular />}
        className={styles.upload}
        onClick={() => {
          onNavigate?.();
          modal.send({ type: 'modal.open', name: 'documentUpload' });
        }}
      >
        {intl.formatMessage({ id: 'shell.upload' })}
      </Button>
      <nav aria-label={intl.formatMessage({ id: 'shell.nav.label' })}>
        <ul className={links.list}>
          {NAV_ITEMS.map((item) => (
            <NavLink key={item.path} item={item} {...(onNavigate ? { onNavigate } : {})} />
          ))}
        </ul>
      </nav>
      <HelpLinks {...(onNavigate ? { onNavigate } : {})} />
      <SidebarLanguage />
      <VersionLink {...(onNavigate ? { onNavigate } : {})} />
    </div>
  );
}
