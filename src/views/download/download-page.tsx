// /app/download/:id: a short waiting screen while the download actor loads the document, starts the
// download and sends the user back to the list (spec 000 §2).
import { useActorRef } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { downloadMachine } from '../../../machines/download.machine';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { Busy } from '../busy';

export function DownloadPage({ id, logic }: { id: string; logic: typeof downloadMachine }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'download.pageTitle' }));
  useActorRef(logic, actorOptions({ input: { documentId: id } }));
  return <Busy label={intl.formatMessage({ id: 'download.loading' })} />;
}
