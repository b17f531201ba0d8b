// The suggestions live in context; picking one is announced to the form (an emit).
import type { EffectTable } from './table';

export const PARTICIPANT_SEARCH_EFFECTS = {
  '(start)': [],
  '*: query.changed #1 [isSearchable] -> suggesting (on (root))': [],
  '*: query.changed #2 -> idle (on (root))': [],
  '*: role.changed [isAllowedRole] -> (stays) (on (root))': [],
  '*: sources.changed -> (stays) (on (root))': [],
  'suggesting: highlight.next -> (stays)': [],
  'suggesting: highlight.previous -> (stays)': [],
  'suggesting: suggestion.pick [isChoosable] -> idle': ['notifyPicked'],
  'suggesting: search.dismiss -> dismissed': [],
} as const satisfies EffectTable;
