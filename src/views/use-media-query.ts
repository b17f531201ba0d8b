import { useCallback, useSyncExternalStore } from 'react';

// The layout breakpoints of spec 000 §2: under 768 px mobile, 960 px and up the full table, and the
// shell's own 1150 px narrow breakpoint.
export const MOBILE_QUERY = '(max-width: 767px)';
export const FULL_TABLE_QUERY = '(min-width: 960px)';
export const NARROW_SHELL_QUERY = '(max-width: 1149px)';
// Not the spec's: with the sidebar and the 360 px details panel beside it, the full table has about
// 500-650 px under 1440 px, where six columns wrap the owner and the status a word per line. The owner
// column starts here; below, the owner is shown under the name (docs/decisions.md, "The owner column").
export const OWNER_COLUMN_QUERY = '(min-width: 1440px)';
export const TOUCH_QUERY = '(pointer: coarse)';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const read = useCallback(() => window.matchMedia(query).matches, [query]);
  return useSyncExternalStore(subscribe, read, () => false);
}
