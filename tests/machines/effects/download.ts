// /app/download/:id always ends at the list: with the download started, or with a notice.
import type { EffectTable } from './table';

export const DOWNLOAD_EFFECTS = {
  '(start)': ['invoke fetchDocument'],
  'loading: xstate.done.actor.fetchDocument #1 [isDownloadable] -> started': [
    'goToDocuments',
    'startDownload',
  ],
  'loading: xstate.done.actor.fetchDocument #2 -> unavailable': ['goToDocuments'],
  'loading: xstate.error.actor.fetchDocument -> failed': ['goToDocuments'],
} as const satisfies EffectTable;
