// The profile's menu (spec 000 §2 "Shell"): a disclosure button showing the user's initials and name
// that reveals the menu's actions: Settings and Log out. A disclosure rather than
// a popup menu keeps the positioning engine off the first screen's bundle.
import { useEffect, useId, useRef, useState } from 'react';
import { Button, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Settings20Regular, SignOut20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { SessionContext } from '../../app/session';

const useStyles = makeStyles({
  root: { position: 'relative' },
  trigger: { minHeight: '40px', width: '100%', justifyContent: 'flex-start', gap: tokens.spacingHorizontalS },
  compactTrigger: { width: 'auto', minWidth: '40px' },
  initials: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    flex: '0 0 28px',
    width: '28px',
    height: '28px',
    borderRadius: '50%',
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: tokens.fontSizeBase200,
    fontWeight: tokens.fontWeightSemibold,
  },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  panel: {
    listStyle: 'none',
    margin: `${tokens.spacingVerticalXS} 0 0`,
    padding: tokens.spacingVerticalXS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
  },
  floating: { position: 'absolute', right: 0, top: '100%', zIndex: 100, minWidth: '200px' },
  item: { width: '100%', minHeight: '40px', justifyContent: 'flex-start' },
});

export function UserMenu({ compact = false }: { compact?: boolean }) {
  const styles = useStyles();
  const intl = useIntl();
  const session = SessionContext.useActorRef();
  const profile = SessionContext.useSelector((snapshot) => snapshot.context.profile);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  // Open or closed is presentation only; the actions it offers are the session's.
  const [isOpen, setOpen] = useState(false);

  useEffect(() => {
    if (!isOpen) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [isOpen]);

  if (!profile) return null;
  const name = profile.fullName || profile.emailAddress;
  return (
    <div ref={rootRef} className={styles.root}>
      <Button
        appearance="subtle"
        className={mergeClasses(styles.trigger, compact && styles.compactTrigger)}
        aria-expanded={isOpen}
        aria-controls={panelId}
        aria-label={intl.formatMessage({ id: 'shell.userMenu.label' }, { name })}
        onClick={() => setOpen((open) => !open)}
      >
        <span className={styles.initials} aria-hidden>
          {profile.initials}
        </span>
        {!compact && <span className={styles.name}>{name}</span>}
      </Button>
      {isOpen && (
        <ul id={panelId} className={mergeClasses(styles.panel, compact && styles.floating)}>
          <li>
            <Link href="/settings" asChild>
              <Button
                as="a"
                appearance="subtle"
                className={styles.item}
                icon={<Settings20Regular />}
                onClick={() => setOpen(false)}
              >
                {intl.formatMessage({ id: 'settings.menuLink' })}
              </Button>
            </Link>
          </li>
          <li>
            <Button
              appearance="subtle"
              className={styles.item}
              icon={<SignOut20Regular />}
              onClick={() => session.send({ type: 'session.logout' })}
            >
              {intl.formatMessage({ id: 'shell.userMenu.logOut' })}
            </Button>
          </li>
        </ul>
      )}
    </div>
  );
}
