// Every change of what the list shows loads a page; turning the page also scrolls back to the top.
// Selection and the typed search (until submitted) are context only.
import type { EffectTable } from './table';

export const DOCUMENT_LIST_EFFECTS = {
  '(start)': ['invoke fetchPage'],
  'loading: xstate.done.actor.fetchPage #1 [isPastLastPage] -> loading': ['invoke fetchPage'],
  'loading: xstate.done.actor.fetchPage #2 [isEmptyPage] -> empty': [],
  'loading: xstate.done.actor.fetchPage #3 -> loaded': [],
  'loading: xstate.error.actor.fetchPage -> failed': [],
  '*: list.refresh -> loading (on (root))': ['invoke fetchPage'],
  '*: address.changed -> loading (on (root))': ['invoke fetchPage'],
  '*: search.changed -> (stays) (on (root))': [],
  '*: search.submit [hasSearchToSend] -> loading (on (root))': ['invoke fetchPage'],
  '*: search.clear -> loading (on (root))': ['invoke fetchPage'],
  '*: sort.changed -> loading (on (root))': ['invoke fetchPage'],
  'loaded.idle: page.first [isAfterFirstPage] -> loading (on loaded)': ['invoke fetchPage', 'scrollToTop'],
  'loaded.idle: page.prev [isAfterFirstPage and hasPrevLink] -> loading (on loaded)': [
    'invoke fetchPage',
    'scrollToTop',
  ],
  'loaded.idle: page.next [isBeforeLastPage and hasNextLink] -> loading (on loaded)': [
    'invoke fetchPage',
    'scrollToTop',
  ],
  'loaded.idle: page.last [isBeforeLastPage] -> loading (on loaded)': ['invoke fetchPage', 'scrollToTop'],
  'loaded.idle: row.click #1 [isToggleOnListedRow] -> (stays) (on loaded)': [],
  'loaded.idle: row.click #2 [isListedRow] -> (stays) (on loaded)': [],
  'loaded.idle: row.checkbox [isListedRow] -> (stays) (on loaded)': [],
  'loaded.idle: selection.all -> (stays) (on loaded)': [],
  'loaded.idle: selection.none -> (stays) (on loaded)': [],
} as const satisfies EffectTable;
