// The signature location editor (/app/signflow/{new,edit}/{id}/signatures, spec 001 §2): the page image
// with its boxes (the Konva stage, which the composition gives it loaded lazily so the canvas code never
// weighs on other screens), the pager, the keyboard placement, the 360 px signature list (a dialog on
// smaller screens) and the dialogs. The signature-placement machine holds the behaviour; the form's actor
// (the host) receives the placements on save, and is left on back or when there is no signatory.
// On a page taller than the window the toolbar sticks to the top of the scrolling area and the pager (with
// the overlap message) to its bottom, at every width; both let go while a box is dragged, so they never
// hide it, and what takes focus keeps clear of them (scroll margins of their measured heights).
import {
  Button,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeft20Regular, ChevronLeft20Regular, ChevronRight20Regular } from '@fluentui/react-icons';
import { useActorRef, useSelector } from '@xstate/react';
import {
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ComponentType,
  type CSSProperties,
} from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { overlappingAddresses } from '../../../../machines/placement-overlap';
import type { DraftSignatory, Placement } from '../../../../machines/sign-flow-draft';
import {
  signatoryNumber,
  type AnnouncementKind,
  type signaturePlacementMachine,
} from '../../../../machines/signature-placement.machine';
import { actorOptions } from '../../../app/inspect';
import type { PlacementStageProps } from '../../../canvas/placement-stage';
import { useMediaQuery } from '../../use-media-query';
import { KeyboardPlacement } from './keyboard-placement';
import { PlacementDialogs } from './placement-dialogs';
import { PlacementList } from './placement-list';
import { nameOf, percent, selectOverlaps, sameOverlaps, type PlacementActor } from './placement-shared';
import { VISUALLY_HIDDEN } from '../../visually-hidden';

/** Spec 001 §9: the signature list is a 360 px sidebar; below this width it is a dialog. */
export const SIDEBAR_WIDTH = 360;
export const SIDEBAR_QUERY = '(min-width: 1150px)';

// The shell's main area scrolls with this padding (src/views/shell/shell.tsx). A sticky bar is held that far
// inside the scrolling edge, so the bars reach past it: flush with the edge, and as wide as the area, so
// nothing shows around them.
const SHELL_PADDING = tokens.spacingHorizontalXXL;
const SHELL_PADDING_MOBILE = tokens.spacingHorizontalM;
const SHELL_MOBILE = '@media (max-width: 767px)';
const outside = (padding: string) => `calc(-1 * ${padding})`;
const PHONE = '@media (max-width: 599px)';
const TOP_BAR_VAR = '--placement-top-bar';
const BOTTOM_BAR_VAR = '--placement-bottom-bar';

const useStyles = makeStyles({
  root: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minWidth: 0,
  },
  // What scrolls under the bars: the browser brings a control that takes focus into view clear of them.
  // Not the bars' own controls: stuck, they would be scrolled for at every focus.
  clearOfBars: {
    '& button, & input, & select, & textarea, & a[href], & [tabindex]': {
      scrollMarginTop: `calc(var(${TOP_BAR_VAR}, 0px) + ${tokens.spacingVerticalS})`,
      scrollMarginBottom: `calc(var(${BOTTOM_BAR_VAR}, 0px) + ${tokens.spacingVerticalS})`,
    },
  },
  keyboard: { alignSelf: 'stretch' },
  toolbar: {
    position: 'sticky',
    top: outside(SHELL_PADDING),
    zIndex: 2,
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
    marginLeft: outside(SHELL_PADDING),
    marginRight: outside(SHELL_PADDING),
    padding: `${tokens.spacingVerticalS} ${SHELL_PADDING}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    [SHELL_MOBILE]: {
      top: outside(SHELL_PADDING_MOBILE),
      marginLeft: outside(SHELL_PADDING_MOBILE),
      marginRight: outside(SHELL_PADDING_MOBILE),
      padding: `${tokens.spacingVerticalS} ${SHELL_PADDING_MOBILE}`,
    },
  },
  spacer: { flex: '1 1 auto' },
  // While a box is dragged: the bars stay where they are in the flow, so nothing moves, but stop covering.
  letGo: { position: 'static' },
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
  bottomBar: {
    position: 'sticky',
    bottom: outside(SHELL_PADDING),
    zIndex: 2,
    alignSelf: 'stretch',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    backgroundColor: tokens.colorNeutralBackground1,
    [SHELL_MOBILE]: { bottom: outside(SHELL_PADDING_MOBILE) },
  },
  bottomBarFilled: {
    padding: `${tokens.spacingVerticalS} 0`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  overlaps: { alignSelf: 'stretch' },
  overlapList: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
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
  // On a phone the toolbar keeps to one row: Back shows its arrow only, and keeps its name.
  backButton: { [PHONE]: { minWidth: '40px', paddingLeft: '8px', paddingRight: '8px' } },
  backLabel: { [PHONE]: VISUALLY_HIDDEN },
  visuallyHidden: VISUALLY_HIDDEN,
});

export type SignaturePlacementLogic = typeof signaturePlacementMachine;

export type SignaturePlacementPageProps = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
  onSave(placements: Placement[]): void;
  onBack(): void;
  logic: SignaturePlacementLogic;
  /** The canvas (src/canvas/placement-stage.tsx, lazy: Konva comes only with a drawn page). */
  Stage: ComponentType<PlacementStageProps>;
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

/** A size of an element, read again whenever it resizes (a bar that wraps, the window, the layout). */
function useObservedSize(
  read: (element: HTMLElement, entry?: ResizeObserverEntry) => number,
): [(element: HTMLElement | null) => void, number] {
  const [size, setSize] = useState(0);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback(
    (element: HTMLElement | null) => {
      observer.current?.disconnect();
      observer.current = null;
      if (!element) return;
      setSize(read(element));
      if (typeof ResizeObserver === 'undefined') return;
      observer.current = new ResizeObserver(([entry]) => setSize(read(element, entry)));
      observer.current.observe(element);
    },
    [read],
  );
  return [ref, size];
}

const heightOf = (element: HTMLElement): number => element.offsetHeight;
// The layout's width at first, then the observed content width in whole pixels.
const widthOf = (element: HTMLElement, entry?: ResizeObserverEntry): number =>
  entry ? Math.floor(entry.contentRect.width) : element.clientWidth;

/** Which boxes overlap, page by page: both boxes of each pair are named. */
function OverlapMessage({ editor, id }: { editor: PlacementActor; id: string }) {
  const intl = useIntl();
  const styles = useStyles();
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const overlaps = useSelector(editor, selectOverlaps, sameOverlaps);
  const nameOfAddress = (emailAddress: string) =>
    nameOf(
      signatories.find((person) => person.emailAddress === emailAddress),
      emailAddress,
    );
  // A MessageBar is read out when it mounts: keyed by the pairs, it is read again whenever they change.
  const pairs = overlaps.map(({ pageNumber, emailAddresses }) => `${pageNumber} ${emailAddresses.join(' ')}`);
  return (
    <div id={id} className={styles.overlaps}>
      {overlaps.length > 0 && (
        <MessageBar key={pairs.join('|')} intent="warning" politeness="polite" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>
              {intl.formatMessage({ id: 'signflow.signatures.overlap.title' })}
            </MessageBarTitle>
            <ul className={styles.overlapList}>
              {overlaps.map(({ pageNumber, emailAddresses: [first, second] }) => (
                <li key={`${first} ${second}`}>
                  {intl.formatMessage(
                    { id: 'signflow.signatures.overlap.pair' },
                    { page: pageNumber, first: nameOfAddress(first), second: nameOfAddress(second) },
                  )}
                </li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
    </div>
  );
}

function PageArea({
  editor,
  Stage,
  overlapMessageId,
  bottomBarRef,
}: {
  editor: PlacementActor;
  Stage: ComponentType<PlacementStageProps>;
  overlapMessageId: string;
  bottomBarRef: (element: HTMLElement | null) => void;
}) {
  const intl = useIntl();
  const styles = useStyles();
  const [pageRef, width] = useObservedSize(widthOf);
  const pageUrls = useSelector(editor, (snapshot) => snapshot.context.pageUrls);
  const pageNumber = useSelector(editor, (snapshot) => snapshot.context.pageNumber);
  const signatories = useSelector(editor, (snapshot) => snapshot.context.signatories);
  const placements = useSelector(editor, (snapshot) => snapshot.context.placements);
  const selectedEmail = useSelector(editor, (snapshot) => snapshot.context.selectedEmail);
  const overlaps = useSelector(editor, selectOverlaps, sameOverlaps);
  const isDragging = useSelector(editor, (snapshot) => snapshot.matches({ ready: 'dragging' }));
  const boxes = useMemo(() => {
    const overlapping = overlappingAddresses(overlaps);
    return placements
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
          isOverlapping: overlapping.has(placement.emailAddress),
        };
      });
  }, [placements, pageNumber, signatories, overlaps]);
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
  const onPageMeasured = useCallback(
    (ratio: number) => editor.send({ type: 'page.measured', pageNumber, ratio }),
    [editor, pageNumber],
  );
  const url = pageUrls[pageNumber - 1];
  const hasPager = pageUrls.length > 1;
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
            <Stage
              imageUrl={url}
              width={width}
              boxes={boxes}
              selectedEmail={selectedEmail}
              onPageClick={onPageClick}
              onBoxClick={onBoxClick}
              onDragStart={onDragStart}
              onDrop={onDrop}
              onImageError={onImageError}
              onPageMeasured={onPageMeasured}
            />
          </Suspense>
        )}
      </div>
      <div
        ref={bottomBarRef}
        data-placement-bar="bottom"
        className={mergeClasses(
          styles.bottomBar,
          (hasPager || overlaps.length > 0) && styles.bottomBarFilled,
          isDragging && styles.letGo,
        )}
      >
        <OverlapMessage editor={editor} id={overlapMessageId} />
        {hasPager && (
          <div className={styles.pager}>
            <Button
              className={styles.button}
              icon={<ChevronLeft20Regular />}
              aria-label={intl.formatMessage({ id: 'document.viewer.prev' })}
              disabledFocusable={pageNumber <= 1}
              onClick={() => editor.send({ type: 'page.previous' })}
            />
            <Text aria-live="polite">
              {intl.formatMessage(
                { id: 'document.viewer.page' },
                { page: pageNumber, total: pageUrls.length },
              )}
            </Text>
            <Button
              className={styles.button}
              icon={<ChevronRight20Regular />}
              aria-label={intl.formatMessage({ id: 'document.viewer.next' })}
              disabledFocusable={pageNumber >= pageUrls.length}
              onClick={() => editor.send({ type: 'page.next' })}
            />
          </div>
        )}
      </div>
      <div className={mergeClasses(styles.keyboard, styles.clearOfBars)}>
        <KeyboardPlacement editor={editor} />
      </div>
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
  logic,
  Stage,
}: SignaturePlacementPageProps) {
  const intl = useIntl();
  const styles = useStyles();
  const isWide = useMediaQuery(SIDEBAR_QUERY);
  const [announcement, setAnnouncement] = useState('');
  const editor = useActorRef(logic, actorOptions({ input: { documentId, signatories, placements } }));
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
  const isDragging = useSelector(editor, (snapshot) => snapshot.matches({ ready: 'dragging' }));
  const hasOverlap = useSelector(editor, (snapshot) => selectOverlaps(snapshot).length > 0);
  const count = useSelector(editor, (snapshot) => snapshot.context.placements.length);
  const overlapMessageId = useId();
  const [topBarRef, topBarHeight] = useObservedSize(heightOf);
  const [bottomBarRef, bottomBarHeight] = useObservedSize(heightOf);
  const barHeights = {
    [TOP_BAR_VAR]: `${topBarHeight}px`,
    [BOTTOM_BAR_VAR]: `${bottomBarHeight}px`,
  } as CSSProperties;

  return (
    <div className={styles.root} style={barHeights}>
      <Text as="h1" size={500} weight="semibold">
        {intl.formatMessage({ id: 'signflow.signatures.title' })}
      </Text>
      <div ref={topBarRef} className={mergeClasses(styles.toolbar, isDragging && styles.letGo)}>
        <Button
          className={mergeClasses(styles.button, styles.backButton)}
          icon={<ArrowLeft20Regular />}
          onClick={() => editor.send({ type: 'editor.back' })}
        >
          <span className={styles.backLabel}>{intl.formatMessage({ id: 'signflow.signatures.back' })}</span>
        </Button>
        <span className={styles.spacer} />
        {!isWide && (
          <Button
            className={styles.button}
            disabledFocusable={!isReady}
            onClick={() => editor.send({ type: 'list.open' })}
          >
            {intl.formatMessage({ id: 'signflow.signatures.openList' }, { count })}
          </Button>
        )}
        {/* Still focusable while boxes overlap, so that it can say why it does nothing. */}
        <Button
          className={styles.button}
          appearance="primary"
          disabledFocusable={!isReady || hasOverlap}
          aria-describedby={isReady && hasOverlap ? overlapMessageId : undefined}
          onClick={() => editor.send({ type: 'editor.save' })}
        >
          {intl.formatMessage({ id: 'signflow.signatures.save' })}
        </Button>
      </div>
      <div className={styles.body}>
        <section className={styles.editor}>
          <ImagesNotice editor={editor} />
          {isReady && (
            <PageArea
              editor={editor}
              Stage={Stage}
              overlapMessageId={overlapMessageId}
              bottomBarRef={bottomBarRef}
            />
          )}
        </section>
        {isWide && (
          <aside
            className={mergeClasses(styles.aside, styles.clearOfBars)}
            aria-labelledby="signature-list-title"
          >
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
