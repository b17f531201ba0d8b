// The "More actions" menu of one document (spec 000 §5 "Row-level actions"): only the actions its flags
// allow, none once the user archived it. Choosing one asks the shell's document-actions actor, which opens
// its dialog (action-modals.tsx).
import { useState } from 'react';
import { Button, type ButtonProps } from '@fluentui/react-components';
import { MoreHorizontal20Regular } from '@fluentui/react-icons';
import { useIntl } from 'react-intl';
import { rowActionsOf, type DocumentAction } from '../../../machines/document-actions-rules';
import type { DocumentResource } from '../../../machines/types';
import { useOptionalShell, type ShellActorRef } from '../../app/shell-context';
import type { MessageId } from '../../i18n/messages';
import { loader, preloadedLazy } from '../preloaded-lazy';

export const ACTION_LABELS: Record<DocumentAction, MessageId> = {
  archive: 'documents.actions.archive',
  delete: 'documents.actions.delete',
  refuse: 'documents.actions.refuse',
  approve: 'documents.actions.approve',
  reject: 'documents.actions.reject',
  cancelSignFlow: 'documents.actions.cancelSignFlow',
  download: 'documents.actions.download',
};

/** Asks the shell's document-actions actor for an action; it opens the action's dialog. */
export function requestAction(
  shell: Pick<ShellActorRef, 'send'>,
  action: DocumentAction,
  documents: DocumentResource[],
): void {
  shell.send({ type: 'action.request', action, documents });
}

/**
 * The menu of a document's actions, loaded with its first opening. It does not suspend: React would show
 * it no sooner than 300 ms after the tap that opened it (preloaded-lazy.tsx).
 */
export const DocumentActionsMenu = preloadedLazy(
  loader(() => import('./document-actions-menu')),
  (module) => module.DocumentActionsMenu,
);

export function RowActions({
  document,
  appearance = 'subtle',
}: {
  document: DocumentResource;
  appearance?: ButtonProps['appearance'];
}) {
  const intl = useIntl();
  // Outside the shell (a bare list in a test) nothing can run an action: none is offered.
  const shell = useOptionalShell();
  const [button, setButton] = useState<HTMLElement | null>(null);
  // Whether the popup is out is presentation, not behaviour: it has no machine.
  const [isOpen, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  const actions = rowActionsOf(document.attributes);
  if (!shell || actions.length === 0) return null;
  const close = () => {
    setOpen(false);
    button?.focus();
  };
  return (
    <>
      <Button
        ref={setButton}
        appearance={appearance}
        icon={<MoreHorizontal20Regular />}
        style={{ minWidth: 40, minHeight: 40 }}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-label={intl.formatMessage(
          { id: 'documents.actions.more' },
          { name: document.attributes.originalFilename },
        )}
        // The row selects on click and on Enter; opening its menu must not.
        onClick={(event) => {
          event.stopPropagation();
          setHasOpened(true);
          setOpen((wasOpen) => !wasOpen);
        }}
        onKeyDown={(event) => event.stopPropagation()}
      />
      {hasOpened && (
        <DocumentActionsMenu
          isOpen={isOpen}
          target={button}
          align="end"
          items={actions.map((action) => ({
            key: action,
            label: intl.formatMessage({ id: ACTION_LABELS[action] }),
            onSelect: () => {
              close();
              requestAction(shell, action, [document]);
            },
          }))}
          onClose={close}
        />
      )}
    </>
  );
}
