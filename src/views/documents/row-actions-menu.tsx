// The popup half of the row menu, loaded with its first opening: Fluent's Menu and its positioning
// would otherwise weigh on the list's first load (the /app/documents budget).
import { Menu, MenuItem, MenuList, MenuPopover } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import type { DocumentAction } from '../../../machines/document-actions-rules';
import type { MessageId } from '../../i18n/messages';

export type RowActionsMenuProps = {
  isOpen: boolean;
  target: HTMLElement | null;
  actions: readonly DocumentAction[];
  labels: Record<DocumentAction, MessageId>;
  onClose: () => void;
  onSelect: (action: DocumentAction) => void;
};

export function RowActionsMenu({ isOpen, target, actions, labels, onClose, onSelect }: RowActionsMenuProps) {
  const intl = useIntl();
  return (
    <Menu
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) onClose();
      }}
      positioning={{ target, position: 'below', align: 'end' }}
    >
      <MenuPopover
        // The row selects on click and on Enter; what happens in its menu must not reach it.
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => event.stopPropagation()}
      >
        <MenuList>
          {actions.map((action) => (
            <MenuItem key={action} onClick={() => onSelect(action)}>
              {intl.formatMessage({ id: labels[action] })}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
