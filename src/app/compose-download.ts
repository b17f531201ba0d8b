// The download route's part of the composition root (see compose.ts), loaded with that route only.
import { downloadMachine } from '../../machines/download.machine';
import { fetchDocument } from '../services/documents';
import { startDownload } from '../services/download';
import { goToDocuments } from '../services/navigation';
import type { ShellActorRef } from './shell-context';

/** Why nothing was downloaded is the shell's notice, which the list shows. */
export const composeDownload = (shell: Pick<ShellActorRef, 'send'>) =>
  downloadMachine.provide({
    actors: { fetchDocument },
    actions: {
      startDownload: (_, params) => startDownload(params.url),
      goToDocuments: (_, params) => {
        shell.send(params.notice ? { type: 'notice.show', code: params.notice } : { type: 'notice.dismiss' });
        goToDocuments();
      },
    },
  });
