// The sidebar as an overlay drawer under 1150 px. Loaded on the first tap of the menu button, so wide
// screens never download the drawer.
import {
  Button,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  OverlayDrawer,
  Text,
  makeStyles,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { SIDEBAR_WIDTH } from './layout';
import { Sidebar } from './sidebar';

const useStyles = makeStyles({
  drawer: { width: `${SIDEBAR_WIDTH}px`, maxWidth: '85vw' },
  body: { padding: 0 },
  close: { minWidth: '40px', minHeight: '40px' },
});

export function NavDrawer({
  isOpen,
  showUserMenu,
  onClose,
}: {
  isOpen: boolean;
  showUserMenu: boolean;
  onClose: () => void;
}) {
  const styles = useStyles();
  const intl = useIntl();
  return (
    <OverlayDrawer
      open={isOpen}
      position="start"
      className={styles.drawer}
      onOpenChange={(_event, data) => {
        if (!data.open) onClose();
      }}
    >
      <DrawerHeader>
        <DrawerHeaderTitle
          action={
            <Button
              appearance="subtle"
              className={styles.close}
              icon={<Dismiss24Regular />}
              aria-label={intl.formatMessage({ id: 'shell.nav.close' })}
              onClick={onClose}
            />
          }
        >
          <Text weight="semibold">{intl.formatMessage({ id: 'app.name' })}</Text>
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody className={styles.body}>
        <Sidebar showUserMenu={showUserMenu} onNavigate={onClose} />
      </DrawerBody>
    </OverlayDrawer>
  );
}
