import { useState } from 'react';
import { MessageBar, MessageBarBody, MessageBarTitle, Spinner } from '@fluentui/react-components';
import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import type { ActorRefFrom } from 'xstate';
import { hasSomethingToShow, type documentMachine } from '../../../machines/document.machine';
import { MOBILE_QUERY, TOUCH_QUERY, useMediaQuery } from '../use-media-query';
import { PdfViewer } from '../../pdf/pdf-viewer';
import { PageImages } from './page-images';
import { PagesUnavailable } from './pages-unavailable';

export type DocumentActor = ActorRefFrom<typeof documentMachine>;

function Unavailable() {
  const intl = useIntl();
  return (
    <MessageBar intent="warning" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{intl.formatMessage({ id: 'document.viewer.unavailable.title' })}</MessageBarTitle>
        {intl.formatMessage({ id: 'document.viewer.unavailable.text' })}
      </MessageBarBody>
    </MessageBar>
  );
}

export function DocumentViewer({ document }: { document: DocumentActor }) {
  const intl = useIntl();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const isTouch = useMediaQuery(TOUCH_QUERY);
  const isProcessing = useSelector(document, (snapshot) => snapshot.matches('processing'));
  const isUnavailable = useSelector(document, (snapshot) => snapshot.matches('unavailable'));
  // Read again after an action (document-page.tsx), a document already on screen stays there, and the
  // reader keeps their place, until the answer comes: the machine keeps it in its context meanwhile.
  const isReady = useSelector(
    document,
    (snapshot) =>
      snapshot.matches('ready') ||
      (snapshot.matches('loading') && hasSomethingToShow(snapshot.context.document)),
  );
  const attributes = useSelector(document, (snapshot) => snapshot.context.document?.attributes ?? null);
  // A PDF that pdfjs cannot open falls back to the page images; this only remembers that it failed.
  const [pdfFailedUrl, setPdfFailedUrl] = useState<string | null>(null);

  if (isProcessing) {
    return (
      <MessageBar intent="info" layout="multiline" role="status">
        <MessageBarBody>
          <MessageBarTitle>{intl.formatMessage({ id: 'document.viewer.processing.title' })}</MessageBarTitle>
          {intl.formatMessage({ id: 'document.viewer.processing.text' })}
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (isUnavailable) return <Unavailable />;
  if (!isReady || !attributes) return <Spinner label={intl.formatMessage({ id: 'document.loading' })} />;

  const images = attributes.publicImagesFileUrls;
  const pdfUrl = attributes.pdfUrl && attributes.pdfUrl !== pdfFailedUrl ? attributes.pdfUrl : null;
  const prefersImages = isMobile || isTouch;
  const hasUnavailablePages = (attributes.unavailablePages?.length ?? 0) > 0;
  const notice = <PagesUnavailable pages={attributes.unavailablePages} />;

  // A page the server could not draw within its limits would cost the browser as much: images only.
  if (images.length > 0 && (prefersImages || !pdfUrl || hasUnavailablePages)) {
    return (
      <>
        {notice}
        <PageImages urls={images} name={attributes.originalFilename} />
      </>
    );
  }
  if (!pdfUrl) return <Unavailable />;
  return (
    <>
      {notice}
      <PdfViewer
        url={pdfUrl}
        pageImages={images}
        loadingLabel={intl.formatMessage({ id: 'document.viewer.loadingPdf' })}
        pageLabel={(page) =>
          intl.formatMessage({ id: 'document.viewer.pageImage' }, { page, name: attributes.originalFilename })
        }
        onFailure={() => setPdfFailedUrl(pdfUrl)}
      />
    </>
  );
}
