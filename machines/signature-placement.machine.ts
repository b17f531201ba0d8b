// The signature location editor (/app/signflow/{new,edit}/{id}/signatures, spec 001 §2, §4, §5). It loads
// the document's page images (waiting while they are rendered, with a poll and a retry), pages through
// them, and keeps one placement per signatory: placing a signatory who already has a box moves that box.
// Signed signatories keep their box as it is. Positions are fractions of the page, rounded to 4 decimals;
// the canvas converts them to pixels only to draw. Drag moves stay in the canvas: the machine hears the
// start and the drop, never each move. It ends in `left` (back, or no signatory at all) or `saved`; the
// view hands the placements to the form's actor. Each change emits `placement.announced` for screen readers.
// Two signatories' boxes may overlap while the owner rearranges them (machines/placement-overlap.ts): the
// view marks them and names them, and the editor does not save until none is left.
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import {
  DEFAULT_PAGE_RATIO,
  findOverlaps,
  isUsableRatio,
  type PlacementOverlap,
} from './placement-overlap.ts';
import { clampPlacement, SIGNATURE_BOX, type DraftSignatory, type Placement } from './sign-flow-draft.ts';
import { toErrorCode, type DocumentResource } from './types.ts';

export type SignaturePlacementInput = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
};

export type PlacementPoint = { left: number; top: number };
export type NudgeDirection = 'left' | 'right' | 'up' | 'down';

/** What the view reads aloud (aria-live) after a change; the text is the view's. */
export type AnnouncementKind = 'placed' | 'moved' | 'confirmed' | 'removed';

/** Emitted for the view's aria-live region (a side effect, so never kept in the context). */
export type PlacementAnnouncedEvent = {
  type: 'placement.announced';
  kind: AnnouncementKind;
  placement: Placement | undefined;
};

export type SignaturePlacementContext = {
  documentId: string;
  signatories: DraftSignatory[];
  placements: Placement[];
  pageUrls: string[];
  pageNumber: number;
  /** Height over width of each page whose image has loaded, by page number. */
  pageRatios: Record<number, number>;
  errorCode: string | null;
  /** Where the add dialog will put the box (its top-left corner, already clamped). */
  pendingPoint: PlacementPoint | null;
  /** The signatory chosen in the add dialog, the edit dialog or the keyboard select. */
  chosenEmail: string | null;
  /** The box the edit dialog is about. */
  editingEmail: string | null;
  /** The box the keyboard moves. */
  selectedEmail: string | null;
};

export type SignaturePlacementEvent =
  | { type: 'images.retry' }
  | { type: 'image.failed' }
  | { type: 'page.measured'; pageNumber: number; ratio: number }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'page.go'; pageNumber: number }
  | { type: 'page.clicked'; left: number; top: number }
  | { type: 'box.clicked'; emailAddress: string }
  | { type: 'box.dragStarted'; emailAddress: string }
  | { type: 'box.dropped'; emailAddress: string; left: number; top: number }
  | { type: 'signatory.chosen'; emailAddress: string }
  | { type: 'add.confirm' }
  | { type: 'edit.confirm' }
  | { type: 'edit.remove' }
  | { type: 'list.open' }
  | { type: 'dialog.close' }
  | { type: 'keyboard.place' }
  | { type: 'box.selected'; emailAddress: string }
  | { type: 'box.nudged'; direction: NudgeDirection; isLarge: boolean }
  | { type: 'box.confirmed' }
  | { type: 'placement.removed'; emailAddress: string }
  | { type: 'editor.save' }
  | { type: 'editor.back' };

export const PROCESSING_POLL_MS = 5_000;
/** Arrow keys move a box by 1 % of the page, 5 % with Shift. */
export const NUDGE_STEP = 0.01;
export const NUDGE_STEP_LARGE = 0.05;
/** Beyond the spec's limits (clampPlacement), the box also stays above the page's bottom edge. */
export const MAX_TOP_ON_PAGE = 1 - SIGNATURE_BOX.height;

const roundFraction = (value: number) => Math.round(value * 10_000) / 10_000;

/** A box position the editor accepts: the spec's limits, the box kept on the page, 4 decimals. */
export function clampOnPage(left: number, top: number): PlacementPoint {
  const limited = clampPlacement(left, Math.min(MAX_TOP_ON_PAGE, top));
  return { left: roundFraction(limited.left), top: roundFraction(limited.top) };
}

/** A click on the page centres the box on the pointer, within the limits. */
export function boxAroundPoint(x: number, y: number): PlacementPoint {
  return clampOnPage(x - SIGNATURE_BOX.width / 2, y - SIGNATURE_BOX.height / 2);
}

/** Keyboard placement puts the box in the middle of the page. */
export const PAGE_MIDDLE: PlacementPoint = boxAroundPoint(0.5, 0.5);

export function nudge(point: PlacementPoint, direction: NudgeDirection, isLarge: boolean): PlacementPoint {
  const step = isLarge ? NUDGE_STEP_LARGE : NUDGE_STEP;
  const dx = direction === 'left' ? -step : direction === 'right' ? step : 0;
  const dy = direction === 'up' ? -step : direction === 'down' ? step : 0;
  return clampOnPage(point.left + dx, point.top + dy);
}

function signatoryOf(signatories: readonly DraftSignatory[], emailAddress: string | null) {
  return signatories.find((signatory) => signatory.emailAddress === emailAddress);
}

/** Spec 001 §2: the add selector lists only signatories who have not signed. */
export function addableSignatories(signatories: readonly DraftSignatory[]): DraftSignatory[] {
  return signatories.filter((signatory) => !signatory.hasSigned);
}

/** The add dialog's first choice: the first unsigned signatory without a box, else the first unsigned. */
export function firstChoice(
  signatories: readonly DraftSignatory[],
  placements: readonly Placement[],
): string | null {
  const addable = addableSignatories(signatories);
  const unplaced = addable.find(
    (signatory) => !placements.some((placement) => placement.emailAddress === signatory.emailAddress),
  );
  return (unplaced ?? addable[0])?.emailAddress ?? null;
}

export function isMovable(context: Pick<SignaturePlacementContext, 'signatories'>, emailAddress: string) {
  const signatory = signatoryOf(context.signatories, emailAddress);
  return signatory !== undefined && !signatory.hasSigned;
}

/** Places (or moves) one signatory's box: one placement per signatory, the flow's order kept. */
export function placeSignatory(
  signatories: readonly DraftSignatory[],
  placements: readonly Placement[],
  placement: Placement,
): Placement[] {
  const others = placements.filter((existing) => existing.emailAddress !== placement.emailAddress);
  const order = (emailAddress: string) =>
    signatories.findIndex((signatory) => signatory.emailAddress === emailAddress);
  return [...others, placement].sort((a, b) => order(a.emailAddress) - order(b.emailAddress));
}

/** The signatory's number in the flow (1-based), as the boxes and the list show it. */
export function signatoryNumber(signatories: readonly DraftSignatory[], emailAddress: string): number {
  return signatories.findIndex((signatory) => signatory.emailAddress === emailAddress) + 1;
}

/** A page's height over width: measured from its image, else A4 portrait. */
export function pageRatioOf(context: Pick<SignaturePlacementContext, 'pageRatios'>, pageNumber: number) {
  return context.pageRatios[pageNumber] ?? DEFAULT_PAGE_RATIO;
}

/** The overlapping boxes (a signed pair excepted: neither can move). The editor saves only without any. */
export function overlapsOf(
  context: Pick<SignaturePlacementContext, 'placements' | 'pageRatios' | 'signatories'>,
): PlacementOverlap[] {
  return findOverlaps(
    context.placements,
    (pageNumber) => pageRatioOf(context, pageNumber),
    (emailAddress) => signatoryOf(context.signatories, emailAddress)?.hasSigned ?? false,
  );
}

function initialPlacements(input: SignaturePlacementInput): Placement[] {
  const known = input.placements.filter((placement) =>
    input.signatories.some((signatory) => signatory.emailAddress === placement.emailAddress),
  );
  return known.reduce<Placement[]>(
    (placed, placement) =>
      placeSignatory(input.signatories, placed, {
        ...placement,
        ...(isMovable(input, placement.emailAddress) ? clampOnPage(placement.left, placement.top) : {}),
      }),
    [],
  );
}

type Args = { context: SignaturePlacementContext };

const documentOfOutput = ({ event }: { event: { output: DocumentResource } }) => ({ document: event.output });
const codeOfError = ({ event }: { event: { error: unknown } }) => ({ code: toErrorCode(event.error) });
const measureOfEvent = ({ event }: { event: { pageNumber: number; ratio: number } }) => ({
  pageNumber: event.pageNumber,
  ratio: event.ratio,
});
const emailOfEvent = ({ event }: { event: { emailAddress: string } }) => ({
  emailAddress: event.emailAddress,
});

function placementOf(context: SignaturePlacementContext, emailAddress: string | null) {
  return context.placements.find((placement) => placement.emailAddress === emailAddress);
}

/** Params of `announce`: read after the step's assigns, or before a removal. */
function announcing(kind: AnnouncementKind, emailOf: (context: SignaturePlacementContext) => string | null) {
  return {
    type: 'announce' as const,
    params: ({ context }: Args) => ({ kind, placement: placementOf(context, emailOf(context)) }),
  };
}

const CHOSEN = (context: SignaturePlacementContext) => context.chosenEmail;
const SELECTED = (context: SignaturePlacementContext) => context.selectedEmail;
const EDITED = (context: SignaturePlacementContext) => context.editingEmail;

// Not on the root: the final states must not take it.
const BACK = { 'editor.back': { target: '#signaturePlacement.left' } } as const;

export const signaturePlacementMachine = setup({
  types: {
    context: {} as SignaturePlacementContext,
    events: {} as SignaturePlacementEvent,
    input: {} as SignaturePlacementInput,
    tags: {} as 'busy' | 'error',
    emitted: {} as PlacementAnnouncedEvent,
  },
  actors: {
    fetchDocument: fromPromise<DocumentResource, { documentId: string }>(async () => {
      throw new Error('fetchDocument not provided');
    }),
  },
  actions: {
    keepPages: assign(({ context }, params: { document: DocumentResource }) => {
      const pageUrls = params.document.attributes.publicImagesFileUrls;
      return {
        pageUrls,
        pageNumber: Math.min(Math.max(1, context.pageNumber), Math.max(1, pageUrls.length)),
        errorCode: null,
      };
    }),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    // Only ratios other than the default are kept: an A4 page leaves the context as it was.
    keepRatio: assign(({ context }, params: { pageNumber: number; ratio: number }) => {
      const { [params.pageNumber]: _previous, ...others } = context.pageRatios;
      return {
        pageRatios:
          params.ratio === DEFAULT_PAGE_RATIO ? others : { ...others, [params.pageNumber]: params.ratio },
      };
    }),
    turnPage: assign(({ context }, params: { pageNumber: number }) => ({
      pageNumber: Math.min(Math.max(1, params.pageNumber), context.pageUrls.length),
      selectedEmail: null,
    })),
    openAdd: assign(({ context }, params: PlacementPoint) => ({
      pendingPoint: boxAroundPoint(params.left, params.top),
      chosenEmail: firstChoice(context.signatories, context.placements),
    })),
    openEdit: assign((_, params: { emailAddress: string }) => ({
      editingEmail: params.emailAddress,
      chosenEmail: params.emailAddress,
    })),
    choose: assign((_, params: { emailAddress: string }) => ({ chosenEmail: params.emailAddress })),
    addChosen: assign(({ context }) => {
      const emailAddress = context.chosenEmail ?? '';
      const point = context.pendingPoint ?? PAGE_MIDDLE;
      const placement = { emailAddress, pageNumber: context.pageNumber, ...point };
      return { placements: placeSignatory(context.signatories, context.placements, placement) };
    }),
    reassign: assign(({ context }) => {
      const current = placementOf(context, context.editingEmail);
      if (!current || !context.chosenEmail) return {};
      const placement = { ...current, emailAddress: context.chosenEmail };
      const others = context.placements.filter((existing) => existing.emailAddress !== current.emailAddress);
      return { placements: placeSignatory(context.signatories, others, placement) };
    }),
    removePlacement: assign(({ context }, params: { emailAddress: string }) => ({
      placements: context.placements.filter((placement) => placement.emailAddress !== params.emailAddress),
      selectedEmail: context.selectedEmail === params.emailAddress ? null : context.selectedEmail,
    })),
    movePlacement: assign(({ context }, params: { emailAddress: string; point: PlacementPoint }) => {
      const current = placementOf(context, params.emailAddress);
      const placement = {
        emailAddress: params.emailAddress,
        pageNumber: current?.pageNumber ?? context.pageNumber,
        ...clampOnPage(params.point.left, params.point.top),
      };
      return { placements: placeSignatory(context.signatories, context.placements, placement) };
    }),
    placeByKeyboard: assign(({ context }) => {
      const emailAddress = context.chosenEmail ?? '';
      const placement = { emailAddress, pageNumber: context.pageNumber, ...PAGE_MIDDLE };
      return {
        placements: placeSignatory(context.signatories, context.placements, placement),
        selectedEmail: emailAddress,
      };
    }),
    select: assign((_, params: { emailAddress: string }) => ({ selectedEmail: params.emailAddress })),
    announce: emit((_, params: { kind: AnnouncementKind; placement: Placement | undefined }) => ({
      type: 'placement.announced' as const,
      ...params,
    })),
    closeDialog: assign({ pendingPoint: null, editingEmail: null }),
  },
  guards: {
    isProcessing: (_, params: { document: DocumentResource }) => params.document.attributes.processing,
    hasNoImages: (_, params: { document: DocumentResource }) =>
      params.document.attributes.publicImagesFileUrls.length === 0,
    hasNextPage: ({ context }) => context.pageNumber < context.pageUrls.length,
    hasPreviousPage: ({ context }) => context.pageNumber > 1,
    isMeasure: ({ context }, params: { pageNumber: number; ratio: number }) =>
      Number.isInteger(params.pageNumber) &&
      params.pageNumber >= 1 &&
      params.pageNumber <= context.pageUrls.length &&
      isUsableRatio(params.ratio),
    hasNoOverlap: ({ context }) => overlapsOf(context).length === 0,
    isOtherPage: ({ context }, params: { pageNumber: number }) =>
      Number.isInteger(params.pageNumber) &&
      params.pageNumber >= 1 &&
      params.pageNumber <= context.pageUrls.length &&
      params.pageNumber !== context.pageNumber,
    canAdd: ({ context }) => addableSignatories(context.signatories).length > 0,
    isMovablePlacement: ({ context }, params: { emailAddress: string }) =>
      isMovable(context, params.emailAddress) && placementOf(context, params.emailAddress) !== undefined,
    isAddable: ({ context }, params: { emailAddress: string }) => isMovable(context, params.emailAddress),
    hasChoice: ({ context }) => context.chosenEmail !== null && isMovable(context, context.chosenEmail),
    hasSelection: ({ context }) =>
      context.selectedEmail !== null && isMovable(context, context.selectedEmail),
  },
  delays: { PROCESSING_POLL: PROCESSING_POLL_MS },
}).createMachine({
  id: 'signaturePlacement',
  context: ({ input }) => ({
    documentId: input.documentId,
    signatories: input.signatories,
    placements: initialPlacements(input),
    pageUrls: [],
    pageNumber: 1,
    pageRatios: {},
    errorCode: null,
    pendingPoint: null,
    chosenEmail: firstChoice(input.signatories, input.placements),
    editingEmail: null,
    selectedEmail: null,
  }),
  // Spec 001 §2: the editor redirects away when there are no signatories.
  entry: enqueueActions(({ context, enqueue }) => {
    if (context.signatories.length === 0) enqueue.raise({ type: 'editor.back' });
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      on: BACK,
      invoke: {
        id: 'fetchDocument',
        src: 'fetchDocument',
        input: ({ context }: Args) => ({ documentId: context.documentId }),
        onDone: [
          { guard: { type: 'isProcessing', params: documentOfOutput }, target: 'processing' },
          {
            guard: { type: 'hasNoImages', params: documentOfOutput },
            target: 'failed',
            actions: { type: 'rememberError', params: { code: 'no_images' } },
          },
          { target: 'ready', actions: { type: 'keepPages', params: documentOfOutput } },
        ],
        onError: { target: 'failed', actions: { type: 'rememberError', params: codeOfError } },
      },
    },
    processing: {
      after: { PROCESSING_POLL: 'loading' },
      on: { 'images.retry': 'loading', ...BACK },
    },
    failed: {
      tags: ['error'],
      on: { 'images.retry': 'loading', ...BACK },
    },
    ready: {
      initial: 'idle',
      on: {
        ...BACK,
        'image.failed': {
          target: 'failed',
          actions: { type: 'rememberError', params: { code: 'image_failed' } },
        },
        'page.measured': {
          guard: { type: 'isMeasure', params: measureOfEvent },
          actions: { type: 'keepRatio', params: measureOfEvent },
        },
        'page.next': {
          guard: 'hasNextPage',
          actions: { type: 'turnPage', params: ({ context }) => ({ pageNumber: context.pageNumber + 1 }) },
        },
        'page.previous': {
          guard: 'hasPreviousPage',
          actions: { type: 'turnPage', params: ({ context }) => ({ pageNumber: context.pageNumber - 1 }) },
        },
        'placement.removed': {
          guard: { type: 'isMovablePlacement', params: emailOfEvent },
          actions: [
            {
              type: 'announce',
              params: ({ context, event }) => ({
                kind: 'removed' as const,
                placement: placementOf(context, event.emailAddress),
              }),
            },
            { type: 'removePlacement', params: emailOfEvent },
          ],
        },
        // Refused while two boxes overlap: the view says which, and nothing is lost meanwhile.
        'editor.save': {
          guard: 'hasNoOverlap',
          target: 'saved',
        },
      },
      states: {
        idle: {
          on: {
            'page.go': {
              guard: { type: 'isOtherPage', params: ({ event }) => ({ pageNumber: event.pageNumber }) },
              actions: { type: 'turnPage', params: ({ event }) => ({ pageNumber: event.pageNumber }) },
            },
            'page.clicked': {
              guard: 'canAdd',
              target: 'adding',
              actions: {
                type: 'openAdd',
                params: ({ event }) => ({ left: event.left, top: event.top }),
              },
            },
            'box.clicked': {
              guard: { type: 'isMovablePlacement', params: emailOfEvent },
              target: 'editing',
              actions: { type: 'openEdit', params: emailOfEvent },
            },
            'box.dragStarted': {
              guard: { type: 'isMovablePlacement', params: emailOfEvent },
              target: 'dragging',
            },
            'list.open': 'list',
            'signatory.chosen': {
              guard: { type: 'isAddable', params: emailOfEvent },
              actions: { type: 'choose', params: emailOfEvent },
            },
            'keyboard.place': {
              guard: 'hasChoice',
              actions: ['placeByKeyboard', announcing('placed', CHOSEN)],
            },
            'box.selected': {
              guard: { type: 'isMovablePlacement', params: emailOfEvent },
              actions: { type: 'select', params: emailOfEvent },
            },
            'box.nudged': {
              guard: 'hasSelection',
              actions: [
                {
                  type: 'movePlacement',
                  params: ({ context, event }) => {
                    const current = placementOf(context, context.selectedEmail) ?? PAGE_MIDDLE;
                    return {
                      emailAddress: context.selectedEmail ?? '',
                      point: nudge(current, event.direction, event.isLarge),
                    };
                  },
                },
                announcing('moved', SELECTED),
              ],
            },
            'box.confirmed': { guard: 'hasSelection', actions: announcing('confirmed', SELECTED) },
          },
        },
        dragging: {
          on: {
            'box.dropped': {
              guard: { type: 'isMovablePlacement', params: emailOfEvent },
              target: 'idle',
              actions: [
                {
                  type: 'movePlacement',
                  params: ({ event }) => ({
                    emailAddress: event.emailAddress,
                    point: { left: event.left, top: event.top },
                  }),
                },
                {
                  type: 'announce',
                  params: ({ context, event }) => ({
                    kind: 'moved' as const,
                    placement: placementOf(context, event.emailAddress),
                  }),
                },
              ],
            },
          },
        },
        adding: {
          on: {
            'signatory.chosen': {
              guard: { type: 'isAddable', params: emailOfEvent },
              actions: { type: 'choose', params: emailOfEvent },
            },
            'add.confirm': {
              guard: 'hasChoice',
              target: 'idle',
              actions: ['addChosen', announcing('placed', CHOSEN), 'closeDialog'],
            },
            'dialog.close': { target: 'idle', actions: 'closeDialog' },
          },
        },
        editing: {
          on: {
            'signatory.chosen': {
              guard: { type: 'isAddable', params: emailOfEvent },
              actions: { type: 'choose', params: emailOfEvent },
            },
            'edit.confirm': {
              guard: 'hasChoice',
              target: 'idle',
              actions: ['reassign', announcing('placed', CHOSEN), 'closeDialog'],
            },
            'edit.remove': {
              target: 'idle',
              actions: [
                announcing('removed', EDITED),
                {
                  type: 'removePlacement',
                  params: ({ context }) => ({ emailAddress: context.editingEmail ?? '' }),
                },
                'closeDialog',
              ],
            },
            'dialog.close': { target: 'idle', actions: 'closeDialog' },
          },
        },
        list: {
          on: {
            'dialog.close': 'idle',
            'page.go': [
              {
                guard: { type: 'isOtherPage', params: ({ event }) => ({ pageNumber: event.pageNumber }) },
                target: 'idle',
                actions: { type: 'turnPage', params: ({ event }) => ({ pageNumber: event.pageNumber }) },
              },
              { target: 'idle' },
            ],
          },
        },
      },
    },
    left: { type: 'final' },
    saved: { type: 'final' },
  },
});
