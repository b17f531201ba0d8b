// The dialogs the modal machine opens by name. This module loads with the first opening (none is on
// the first screen's path), then stays mounted so that closing animates and restores the page.
import { useEffect, useMemo, useRef } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { composeUpload } from '../../app/compose-upload';
import { useModalActor } from '../../app/modal-context';
import { useShell } from '../../app/shell-context';
import { focusMainIfLost } from '../focus-fallback';
import { loader, preloadedLazy } from '../preloaded-lazy';
import { WelcomeModal } from '../welcome/welcome-modal';

// Loaded without suspending, as the host itself (shell.tsx): React's reveal delay would hold the first
// dialog back 300 ms after the code arrived.
const UploadModal = preloadedLazy(
  loader(() => import('../upload/upload-modal')),
  (module) => module.UploadModal,
);

function UploadModalHost() {
  const shell = useShell();
  const logic = useMemo(() => composeUpload(shell), [shell]);
  return <UploadModal logic={logic} />;
}

// The action dialogs load with the first opening of any modal; their actor is the shell's.
const ActionModals = preloadedLazy(
  loader(() => import('../documents/action-modals')),
  (module) => module.ActionModals,
);

function UnknownModal() {
  const intl = useIntl();
  const modal = useModalActor();
  const isUnknown = useSelector(modal, (snapshot) => snapshot.matches('unknown'));
  return (
    <Dialog
      open={isUnknown}
      onOpenChange={(_event, data) => {
        if (!data.open) modal.send({ type: data.type === 'escapeKeyDown' ? 'key.escape' : 'modal.close' });
      }}
    >
      <DialogSurface style={{ width: 520, maxWidth: 'calc(100vw - 32px)' }}>
        <DialogBody>
          <DialogTitle>{intl.formatMessage({ id: 'common.error.generic' })}</DialogTitle>
          <DialogContent>{intl.formatMessage({ id: 'app.notFound.modal' })}</DialogContent>
          <DialogActions>
            <Button style={{ minHeight: 40 }} onClick={() => modal.send({ type: 'modal.close' })}>
              {intl.formatMessage({ id: 'common.close' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

// Focus that a closed dialog leaves on <body> goes to the main region (focus-fallback.ts).
function FocusAfterClose() {
  const modal = useModalActor();
  const isClosed = useSelector(modal, (snapshot) => snapshot.matches('closed'));
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!isClosed) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    return focusMainIfLost();
  }, [isClosed]);
  return null;
}

/** Every dialog stays mounted once loaded and follows the modal machine's state. */
export function ModalHost() {
  return (
    <>
      <FocusAfterClose />
      <UploadModalHost />
      <ActionModals />
      <WelcomeModal />
      <UnknownModal />
    </>
  );
}
