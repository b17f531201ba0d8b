// The popup of the details panel's "More actions" button, loaded with its first opening, as the row
// menu's is (row-actions-menu.tsx): Fluent's Menu and its positioning stay off the list's first load.
// Unlike the row menu it holds links as well as actions, so its items are given ready to choose.
import type { ReactElement } from 'react';
import { Menu, MenuItem, MenuList, MenuPopover } from '@fluentui/react-components';

export type ActionsMenuItem = {
  key: string;
  label: string;
  icon: ReactElement;
  onSelect: () => void;
};

export type DocumentActionsMenuProps = {
  isOpen: boolean;
  target: HTMLElement | null;
  items: readonly ActionsMenuItem[];
  onClose: () => void;
};

export function DocumentActionsMenu({ isOpen, target, items, onClose }: DocumentActionsMenuProps) {
  return (
    <Menu
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) onClose();
      }}
      positioning={{ target, position: 'below', align: 'start' }}
    >
      <MenuPopover>
        <MenuList>
          {items.map((item) => (
            <MenuItem key={item.key} icon={item.icon} style={{ minHeight: 40 }} onClick={item.onSelect}>
              {item.label}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
