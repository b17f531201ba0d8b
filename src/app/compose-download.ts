// The download route's part of the composition root (see compose.ts), loaded with that route only.
import { downloadMachine } from '../../machines/download.machine';
import { fetchDocument } from '../services/documents';
import { startDownload } from '../services/download';
import { goToDocuments } from '../services/navigation';
import { showNotice } from '../services/notices';

export const downloadLogic = downloadMachine.provide({
  actors: { fetchDocument },
  actions: {
    startDownload: (_, params) => startDownload(params.url),
    goToDocuments: (_, params) => {
      showNotice(params.notice);
      goToDocuments();
    },
  },
});
