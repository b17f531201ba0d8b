// The document page in its three routes (spec 000 §2): /document/:id shows the viewer beside the
// details, /document/details/:id the details only (where the mobile list leads), /document/view/:id
// the viewer only. One document actor per page; a load failure sends the user back to the list. The
// details and participants are the list's details panel (its own actor, in its page variant).
import { Button, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, DocumentPdf24Regular } from '@fluentui/react-icons';
import { useCallback } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { actorOptions } from '../../app/inspect';
import { usePageTitle } from '../../app/page-title';
import { useDocumentChanges } from '../../app/shell-context';
import type { documentMachine } from '../../../machines/document.machine';
import { DetailsPanel, type DocumentDetailsLogic } from '../documents/details-panel';
import { truncateName } from '../format';
import { DocumentViewer } from './document-viewer';

export type DocumentPageMode = 'full' | 'details' | 'view';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, minWidth: 0 },
  top: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  title: { overflowWrap: 'anywhere', minWidth: 0 },
  button: { minHeight: '40px' },
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) 360px',
    gap: tokens.spacingHorizontalXXL,
    alignItems: 'start',
    // Spec 000 §9: the details panel is 360 px, 280 px on tablets; phones stack it under the viewer.
    '@media (min-width: 768px) and (max-width: 959px)': { gridTemplateColumns: 'minmax(0, 1fr) 280px' },
    '@media (max-width: 767px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  panel: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // On a phone the details and their actions come first: a reviewer sent here by a notification sees
  // Approve without scrolling past a page of the document.
  sideFirstOnPhone: { minWidth: 0, '@media (max-width: 767px)': { order: -1 } },
});

export function DocumentPage({
  id,
  mode,
  logic,
  detailsLogic,
}: {
  id: string;
  mode: DocumentPageMode;
  logic: typeof documentMachine;
  detailsLogic: DocumentDetailsLogic;
}) {
  const styles = useStyles();
  const intl = useIntl();
  const document = useActorRef(logic, actorOptions({ input: { documentId: id } }));
  const name = useSelector(
    document,
    (snapshot) => snapshot.context.document?.attributes.originalFilename ?? null,
  );
  const isArchived = useSelector(
    document,
    (snapshot) => snapshot.context.document?.attributes.currentUserArchived ?? false,
  );
  usePageTitle(name ?? intl.formatMessage({ id: 'document.pageTitle' }));
  // After an action taken here (in the details panel) the page reads its document again, as the panel
  // does: the back link follows an archive, and a deleted document's failed read (not_found) sends the
  // person to the list, as any failed load does.
  useDocumentChanges(useCallback(() => document.send({ type: 'document.reload' }), [document]));

  // Spec 000 §2: back goes to the archive for a document the user archived; the full viewer goes back
  // to the details page.
  const back =
    mode === 'view'
      ? { href: `/document/details/${id}`, label: intl.formatMessage({ id: 'document.backToDetails' }) }
      : { href: isArchived ? '/archive' : '/documents', label: intl.formatMessage({ id: 'document.back' }) };

  return (
    <article className={styles.page}>
      <div className={styles.top}>
        <Link href={back.href} asChild>
          <Button as="a" appearance="subtle" className={styles.button} icon={<ArrowLeft20Regular />}>
            {back.label}
          </Button>
        </Link>
      </div>
      <Title2 as="h1" className={styles.title} title={name ?? undefined}>
        {name ? truncateName(name) : intl.formatMessage({ id: 'document.pageTitle' })}
      </Title2>
      {/* The viewer and the details start loading together (they share the document's read). */}
      {mode === 'details' ? (
        <div className={styles.panel}>
          <DetailsPanel logic={detailsLogic} selectedIds={[id]} variant="page" />
          {/* Not filled: the document's own lead action (Sign, Approve) above is the one to press. */}
          <Link href={`/document/view/${id}`} asChild>
            <Button as="a" className={styles.button} icon={<DocumentPdf24Regular />}>
              {intl.formatMessage({ id: 'document.openViewer' })}
            </Button>
          </Link>
        </div>
      ) : mode === 'view' ? (
        <DocumentViewer document={document} />
      ) : (
        <div className={styles.layout}>
          <section aria-label={intl.formatMessage({ id: 'document.viewer.label' })}>
            <DocumentViewer document={document} />
          </section>
          <div className={styles.sideFirstOnPhone}>
            <DetailsPanel logic={detailsLogic} selectedIds={[id]} variant="page" />
          </div>
        </div>
      )}
    </article>
  );
}
