// The signature location editor (/app/signflow/{new,edit}/{id}/signatures, spec 001 §2): the page image
// with its boxes (Konva, loaded lazily so the canvas code never weighs on other screens), the pager, the
// keyboard placement, the 360 px signature list (a dialog on smaller screens) and the dialogs. The
// signature-placement machine holds the behaviour; the form's actor (the host) receives the placements on
// save, and is left on back or when there is no signatory.
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeft20Regular, ChevronLeft20Regular, ChevronRight20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { DraftSignatory, Placement } from '../../../../machines/sign-flow-draft';
import {
  signatoryNumber,
  signaturePlacementMachine,
  type AnnouncementKind,
} from '../../../../machines/signature-placement.machine';
import { actorOptions } from '../../../app/inspect';
import { fetchDocument } from '../../../services/documents';
import { useMediaQuery } from '../../use-media-query';
import { KeyboardPlacement } from './keyboard-placement';
import { PlacementDialogs } from './placement-dialogs';
import { PlacementList } from './placement-list';
import { nameOf, percent, type PlacementActor } from './placement-shared';

const PlacementStage = lazy(() =>
  import('../../../canvas/placement-stage').then((module) => ({ default: module.PlacementStage })),
);

/** Spec 001 §9: the signature list is a 360 px sidebar; below this width it is a dialog. */
export const SIDEBAR_WIDTH = 360;
export const SIDEBAR_QUERY = '(min-width: 1150px)';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  title: { flex: '1 1 auto', minWidth: '160px' },
  body: { display: 'flex', gap: tokens.spacingHorizontalL, alignItems: 'flex-start', minWidth: 0 },
  editor: {
    flex: '1 1 auto',
    minWidth: 0,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalM,
  },
  page: { width: '100%', maxWidth: '900px', boxShadow: tokens.shadow4, lineHeight: 0 },
  pager: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM },
  aside: {
    flex: `0 0 ${SIDEBAR_WIDTH}px`,
    width: `${SIDEBAR_WIDTH}px`,
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  button: { minHeight: '40px', minWidth: '40px' },
  visuallyHidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

export type SignaturePlacementPageProps = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
  onSave(placements: Placement[]): void;
  onBack(): void;
};

function announcementText(
  intl: IntlShape,
  signatories: readonly DraftSignatory[],
  kind: AnnouncementKind,
  placement: Placement,
): string {
  const signatory = signatories.find((person) => person.emailAddress === placement.emailAddress);
  return intl.formatMessage(
    { id: `signflow.signatures.announce.${kind}` },
    {
      name: nameOf(signatory, placement.emailAddress),
      page: placement.pageNumber,
      left: percent(placement.left),
      top: percent(placement.top),
    },
  );
}

/** The width the page may use, followed as the window or the layout changes. */
function useAvailableWidth(): [(element: HTMLDivElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLDivElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.current.observe(element);
  }, []);
  return [ref, width];
}

function PageArea({ editor }: { editor: PlacementActor }) {
  const intl = useIntl();
  const styles = useStyles();
  const [pageRef, width] = useAvailableWidth();
  const pageUrls = useSelector(editor, (snapshot) => snapshot.context.pageUrls);
  const pageNumber = useSelector(editor, (snapshot) => snapshot.context.pageNumber);
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const placements = useSelector(editor, (snapshot) => snapshot.context.placements);
  const selectedEmail = useSelector(editor, (snapshot) => snapshot.context.selectedEmail);
  const boxes = useMemo(
    () =>
      placements
        .filter((placement) => placement.pageNumber === pageNumber)
        .map((placement) => {
          const signatory = signatories.find((person) => person.emailAddress === placement.emailAddress);
          return {
            emailAddress: placement.emailAddress,
            number: signatoryNumber(signatories, placement.emailAddress),
            name: nameOf(signatory, placement.emailAddress),
            left: placement.left,
            top: placement.top,
            isSigned: signatory?.hasSigned ?? false,
          };
        }),
    [placements, pageNumber, signatories],
  );
  const onPageClick = useCallback(
    (left: number, top: number) => editor.send({ type: 'page.clicked', left, top }),
    [editor],
  );
  const onBoxClick = useCallback(
    (emailAddress: string) => editor.send({ type: 'box.clicked', emailAddress }),
    [editor],
  );
  const onDragStart = useCallback(
    (emailAddress: string) => editor.send({ type: 'box.dragStarted', emailAddress }),
    [editor],
  );
  const onDrop = useCallback(
    (emailAddress: string, left: number, top: number) =>
      editor.send({ type: 'box.dropped', emailAddress, left, top }),
    [editor],
  );
  const onImageError = useCallback(() => editor.send({ type: 'image.failed' }), [editor]);
  const url = pageUrls[pageNumber - 1];
  return (
    <>
      <div
        ref={pageRef}
        className={styles.page}
        role="group"
        aria-label={intl.formatMessage({ id: 'signflow.signatures.editor.label' }, { page: pageNumber })}
      >
        {url !== undefined && width > 0 && (
          <Suspense
            fallback={<Spinner label={intl.formatMessage({ id: 'signflow.signatures.editor.loading' })} />}
          >
            <PlacementStage
              imageUrl={url}
              width={width}
              boxes={boxes}
              selectedEmail={selectedEmail}
              onPageClick={onPageClick}
              onBoxClick={onBoxClick}
              onDragStart={onDragStart}
              onDrop={onDrop}
              onImageError={onImageError}
            />
          </Suspense>
        )}
      </div>
      {pageUrls.length > 1 && (
        <div className={styles.pager}>
          <Button
            className={styles.button}
            icon={<ChevronLeft20Regular />}
            aria-label={intl.formatMessage({ id: 'document.viewer.prev' })}
            disabled={pageNumber <= 1}
            onClick={() => editor.send({ type: 'page.previous' })}
          />
          <Text aria-live="polite">
            {intl.formatMessage({ id: 'document.viewer.page' }, { page: pageNumber, total: pageUrls.length })}
          </Text>
          <Button
            className={styles.button}
            icon={<ChevronRight20Regular />}
            aria-label={intl.formatMessage({ id: 'document.viewer.next' })}
            disabled={pageNumber >= pageUrls.length}
            onClick={() => editor.send({ type: 'page.next' })}
          />
        </div>
      )}
      <KeyboardPlacement editor={editor} />
    </>
  );
}

function ImagesNotice({ editor }: { editor: PlacementActor }) {
  const intl = useIntl();
  const isLoading = useSelector(editor, (snapshot) => snapshot.matches('loading'));
  const isProcessing = useSelector(editor, (snapshot) => snapshot.matches('processing'));
  const isFailed = useSelector(editor, (snapshot) => snapshot.matches('failed'));
  if (isLoading) return <Spinner label={intl.formatMessage({ id: 'signflow.signatures.editor.loading' })} />;
  if (!isProcessing && !isFailed) return null;
  return (
    <MessageBar intent={isFailed ? 'error' : 'info'} layout="multiline">
      <MessageBarBody>
        {intl.formatMessage({
          id: isFailed
            ? 'signflow.signatures.editor.error-images'
            : 'signflow.signatures.editor.not-generated',
        })}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={() => editor.send({ type: 'images.retry' })}>
          {intl.formatMessage({ id: 'signflow.signatures.editor.retry' })}
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

export function SignaturePlacementPage({
  documentId,
  signatories,
  placements,
  onSave,
  onBack,
}: SignaturePlacementPageProps) {
  const intl = useIntl();
  const styles = useStyles();
  const isWide = useMediaQuery(SIDEBAR_QUERY);
  const [announcement, setAnnouncement] = useState('');
  const editor = useActorRef(
    signaturePlacementMachine.provide({ actors: { fetchDocument } }),
    actorOptions({ input: { documentId, signatories, placements } }),
  );
  const isLeft = useSelector(editor, (snapshot) => snapshot.matches('left'));
  const savedPlacements = useSelector(editor, (snapshot) =>
    snapshot.matches('saved') ? snapshot.context.placements : null,
  );
  // The host's callbacks may change identity while it navigates away: each is called once.
  const hasEnded = useRef(false);
  useEffect(() => {
    if (hasEnded.current) return;
    if (isLeft) {
      hasEnded.current = true;
      onBack();
    } else if (savedPlacements) {
      hasEnded.current = true;
      onSave(savedPlacements);
    }
  }, [isLeft, savedPlacements, onBack, onSave]);
  useEffect(() => {
    const subscription = editor.on('placement.announced', ({ kind, placement }) => {
      if (placement) setAnnouncement(announcementText(intl, signatories, kind, placement));
    });
    return () => subscription.unsubscribe();
  }, [editor, intl, signatories]);
  const isReady = useSelector(editor, (snapshot) => snapshot.matches('ready'));
  const count = useSelector(editor, (snapshot) => snapshot.context.placements.length);

  return (
    <div className={styles.root}>
      <div className={styles.toolbar}>
        <Button
          className={styles.button}
          icon={<ArrowLeft20Regular />}
          onClick={() => editor.send({ type: 'editor.back' })}
        >
          {intl.formatMessage({ id: 'signflow.signatures.back' })}
        </Button>
        <Text as="h1" size={500} weight="semibold" className={styles.title}>
          {intl.formatMessage({ id: 'signflow.signatures.title' })}
        </Text>
        {!isWide && (
          <Button
            className={styles.button}
            disabled={!isReady}
            onClick={() => editor.send({ type: 'list.open' })}
          >
            {intl.formatMessage({ id: 'signflow.signatures.openList' }, { count })}
          </Button>
        )}
        <Button
          className={styles.button}
          appearance="primary"
          disabled={!isReady}
          onClick={() => editor.send({ type: 'editor.save' })}
        >
          {intl.formatMessage({ id: 'signflow.signatures.save' })}
        </Button>
      </div>
      <div className={styles.body}>
        <section className={styles.editor}>
          <ImagesNotice editor={editor} />
          {isReady && <PageArea editor={editor} />}
        </section>
        {isWide && (
          <aside className={styles.aside} aria-labelledby="signature-list-title">
            <Text as="h2" id="signature-list-title" size={400} weight="semibold">
              {intl.formatMessage({ id: 'signflow.signatures.list.title' })}
            </Text>
            <PlacementList editor={editor} />
          </aside>
        )}
      </div>
      <PlacementDialogs editor={editor} />
      <div className={styles.visuallyHidden} aria-live="polite" role="status">
        {announcement}
      </div>
    </div>
  );
}
