// Every change of the open modal is announced to the shell, and Enter in a confirm dialog too; an error
// shown in the dialog changes nothing else (docs/machines.md, "modal").
import type { EffectTable } from './table';

export const MODAL_EFFECTS = {
  '(start)': [],
  '*: modal.open #1 [isKnownModal] -> open (on (root))': ['announceChange'],
  '*: modal.open #2 -> unknown (on (root))': ['announceChange'],
  'open.*: modal.close -> closed (on open)': ['announceChange'],
  'open.*: key.escape -> closed (on open)': ['announceChange'],
  'open.*: key.enter [isConfirmModal] -> (stays) (on open)': ['announceConfirmed'],
  'open.*: modal.error -> open.error (on open)': [],
  'open.error: modal.errorCleared -> open.idle': [],
  'unknown: modal.close -> closed': ['announceChange'],
  'unknown: key.escape -> closed': ['announceChange'],
} as const satisfies EffectTable;
