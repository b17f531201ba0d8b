// The popup of a "More actions" button (a list row's, the details panel's), loaded with its first
// opening: Fluent's Menu and its positioning stay off the list's first load. Its items come ready to
// choose, so it holds links (Sign, the sign flow) as well as the document actions.
import type { ReactElement } from 'react';
import { Menu, MenuItem, MenuList, MenuPopover } from '@fluentui/react-components';

export type ActionsMenuItem = {
  key: string;
  label: string;
  icon?: ReactElement;
  onSelect: () => void;
};

export type DocumentActionsMenuProps = {
  isOpen: boolean;
  target: HTMLElement | null;
  items: readonly ActionsMenuItem[];
  /** Which edge of the button the menu lines up with: a row's button sits at the row's end. */
  align?: 'start' | 'end';
  onClose: () => void;
};

export function DocumentActionsMenu({
  isOpen,
  target,
  items,
  align = 'start',
  onClose,
}: DocumentActionsMenuProps) {
  return (
    <Menu
      open={isOpen}
      onOpenChange={(_event, data) => {
        if (!data.open) onClose();
      }}
      positioning={{ target, position: 'below', align }}
    >
      <MenuPopover
        // A list row selects on click and on Enter; what happens in its menu must not reach it.
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => event.stopPropagation()}
      >
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
