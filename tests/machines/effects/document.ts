// The document page loads its document, polls while its images are being drawn, and goes back to the
// list when the document cannot be loaded.
import type { EffectTable } from './table';

export const DOCUMENT_EFFECTS = {
  '(start)': ['invoke fetchDocument'],
  'loading: xstate.done.actor.fetchDocument #1 [isProcessing] -> processing': ['after PROCESSING_POLL'],
  'loading: xstate.done.actor.fetchDocument #2 [hasNothingToShow] -> unavailable': [],
  'loading: xstate.done.actor.fetchDocument #3 -> ready': [],
  'loading: xstate.error.actor.fetchDocument -> failed': ['goToDocuments'],
  'processing: document.reload -> loading': ['invoke fetchDocument'],
  'processing: xstate.after.PROCESSING_POLL.document.processing -> loading': ['invoke fetchDocument'],
  'ready: document.reload -> loading': ['invoke fetchDocument'],
  'unavailable: document.reload -> loading': ['invoke fetchDocument'],
} as const satisfies EffectTable;
