// The sign flow form (spec 001 §2 "Sign flow form", §4, §5) for /app/signflow/new/{id} and
// /app/signflow/edit/{id}. One actor lives over the form and its /signatures page, so the draft survives
// the placement editor. It loads the document (a new flow needs currentUserCanCreateSignFlow, an edit
// currentUserCanEditSignFlow; else back to the document page), the flow being edited, the connections
// and sign groups the participant search runs over, and a draft kept when a 401 ended the session. The
// rules the view shows (who may be removed or moved, the minimum, the page number, the submit rules) are
// exported functions of the context, so the view, the guards and the tests read the same ones.
import { assign, emit, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import {
  sameAddress,
  type ParticipantRole,
  type Person,
  type SearchGroup,
} from './participant-search.machine.ts';
import { toFraction, type DraftSignatory, type Placement } from './sign-flow-draft.ts';
import { toErrorCode, type DocumentResource } from './types.ts';

export type FormMode = 'new' | 'edit';
export type DraftReviewer = Person & { hasApproved: boolean };
export type SignatureMode = 'inline' | 'page';
export type PagePosition = 'first' | 'after' | 'last';
export type SignFlowState = components['schemas']['SignFlowState'];
export type SignFlowRequest = components['schemas']['SignFlowRequest'];

/** The flow being edited, as GET /documents/{id}/sign_flow gives it. */
export type ExistingFlow = {
  isOrdered: boolean;
  state: SignFlowState;
  comment: string;
  minimumRequiredSigns: number;
  signPageNumber: number;
  reviewers: DraftReviewer[];
  signatories: DraftSignatory[];
  placements: Placement[];
};

/** What the user had entered, kept in session storage when a 401 ended the session (no token in it). */
export type SavedDraft = {
  mode: FormMode;
  reviewers: DraftReviewer[];
  signatories: DraftSignatory[];
  isOrdered: boolean;
  isMinimumOn: boolean;
  minimumText: string;
  signatureMode: SignatureMode;
  pagePosition: PagePosition;
  afterPageText: string;
  comment: string;
  placements: Placement[];
};

export type SignFlowFormData = {
  document: DocumentResource;
  /** Pages of the document, when the server knows them. */
  pageCount: number | null;
  flow: ExistingFlow | null;
  connections: Person[];
  groups: SearchGroup[];
  draft: SavedDraft | null;
};

export type SignFlowFormInput = { documentId: string; mode: FormMode };
export type LoadSignFlowFormInput = SignFlowFormInput;
export type SaveSignFlowInput = { documentId: string; mode: FormMode; body: SignFlowRequest };

export type SignFlowFormContext = SavedDraft & {
  documentId: string;
  document: DocumentResource | null;
  pageCount: number | null;
  flow: ExistingFlow | null;
  connections: Person[];
  groups: SearchGroup[];
  errorCode: string | null;
  saveErrorCode: string | null;
  isRestored: boolean;
};

export type SignFlowFormEvent =
  | { type: 'participants.add'; role: ParticipantRole; people: Person[] }
  | { type: 'participant.remove'; role: ParticipantRole; emailAddress: string }
  | { type: 'signatory.move'; emailAddress: string; toIndex: number }
  | { type: 'ordered.changed'; isOrdered: boolean }
  | { type: 'minimum.toggled'; isOn: boolean }
  | { type: 'minimum.changed'; text: string }
  | { type: 'mode.changed'; mode: SignatureMode }
  | { type: 'pagePosition.changed'; position: PagePosition }
  | { type: 'afterPage.changed'; text: string }
  | { type: 'comment.changed'; comment: string }
  | { type: 'placements.saved'; placements: Placement[] }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'form.back' };

export type SignFlowFormEmitted = { type: 'minimum.focus' };

/** Spec 001 §5 and §9. */
export const COMMENT_MAX_LENGTH = 1024;

type Rules = Pick<
  SignFlowFormContext,
  | 'documentId'
  | 'flow'
  | 'reviewers'
  | 'signatories'
  | 'isOrdered'
  | 'isMinimumOn'
  | 'minimumText'
  | 'signatureMode'
  | 'pagePosition'
  | 'afterPageText'
  | 'comment'
  | 'placements'
  | 'pageCount'
>;

/** Spec 001 §4: reviewers change on a new flow, or while an existing one is in review. */
export function canChangeReviewers(context: Pick<Rules, 'flow'>): boolean {
  return context.flow === null || context.flow.state === 'in_review';
}

/** Spec 001 §4: once a flow exists it has a type, and the ordered checkbox is disabled. */
export function canChangeType(context: Pick<Rules, 'flow'>): boolean {
  return context.flow === null;
}

/** Spec 001 §4: once anyone signed, neither the mode nor the page options change. */
export function hasAnySigned(context: Pick<Rules, 'signatories'>): boolean {
  return context.signatories.some((signatory) => signatory.hasSigned);
}

export function canRemove(context: Rules, role: ParticipantRole, emailAddress: string): boolean {
  if (role === 'reviewer') {
    const reviewer = context.reviewers.find((person) => sameAddress(person.emailAddress, emailAddress));
    return reviewer !== undefined && !reviewer.hasApproved && canChangeReviewers(context);
  }
  const signatory = context.signatories.find((person) => sameAddress(person.emailAddress, emailAddress));
  return signatory !== undefined && !signatory.hasSigned;
}

/** The signatories after a move, or null when the move is not allowed (signed ones keep their places). */
export function movedSignatories(
  context: Rules,
  emailAddress: string,
  toIndex: number,
): DraftSignatory[] | null {
  if (!context.isOrdered) return null;
  const from = context.signatories.findIndex((person) => sameAddress(person.emailAddress, emailAddress));
  const moving = context.signatories[from];
  if (!moving || moving.hasSigned || from === toIndex) return null;
  if (toIndex < 0 || toIndex >= context.signatories.length) return null;
  const next = context.signatories.filter((_, index) => index !== from);
  next.splice(toIndex, 0, moving);
  const keepsSigned = context.signatories.every(
    (person, index) => !person.hasSigned || next[index] === person,
  );
  return keepsSigned ? next : null;
}

function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : null;
}

export type MinimumProblem = 'needsTwoSignatories' | 'empty' | 'notANumber' | 'outOfRange';

/**
 * Why a ticked minimum cannot be used (spec 001 §5: a positive integer below the number of signatories,
 * for a standard flow only). It never blocks the submit: such a minimum is sent as 0, every signatory
 * signs, and the view says so next to the field.
 */
export function minimumProblem(context: Rules): MinimumProblem | null {
  if (context.isOrdered || !context.isMinimumOn) return null;
  if (context.signatories.length < 2) return 'needsTwoSignatories';
  if (context.minimumText.trim() === '') return 'empty';
  const value = wholeNumber(context.minimumText);
  // A negative whole number is a number, just not one in range.
  if (value === null) return /^-\d+$/.test(context.minimumText.trim()) ? 'outOfRange' : 'notANumber';
  return value >= 1 && value < context.signatories.length ? null : 'outOfRange';
}

/** Spec 001 §5: the minimum when it is valid on a standard flow, otherwise 0 (every signatory signs). */
export function minimumToSend(context: Rules): number {
  if (context.isOrdered || !context.isMinimumOn || minimumProblem(context) !== null) return 0;
  return wholeNumber(context.minimumText) ?? 0;
}

export type AfterPageProblem = 'belowOne' | 'pastEnd';

export function afterPageProblem(context: Rules): AfterPageProblem | null {
  if (context.signatureMode !== 'page' || context.pagePosition !== 'after') return null;
  const value = wholeNumber(context.afterPageText);
  if (value === null || value < 1) return 'belowOne';
  return context.pageCount !== null && context.pageCount > 0 && value > context.pageCount ? 'pastEnd' : null;
}

export function isCommentTooLong(context: Pick<Rules, 'comment'>): boolean {
  return context.comment.length > COMMENT_MAX_LENGTH;
}

export type SubmitBlocker = 'noSignatories' | 'placementsMissing' | 'afterPage' | 'commentTooLong';

/**
 * Spec 001 §5's submit rules, plus what the form says is wrong before sending ("Bad input"). An unusable
 * minimum is not one of them: spec 001 §5 sends it as 0 (minimumProblem).
 */
export function submitBlockers(context: Rules): SubmitBlocker[] {
  const blockers: SubmitBlocker[] = [];
  if (context.signatories.length === 0) blockers.push('noSignatories');
  if (context.signatureMode === 'inline' && context.placements.length !== context.signatories.length) {
    blockers.push('placementsMissing');
  }
  if (afterPageProblem(context) !== null) blockers.push('afterPage');
  if (isCommentTooLong(context)) blockers.push('commentTooLong');
  return blockers;
}

export function canSubmit(context: Rules): boolean {
  return submitBlockers(context).length === 0;
}

/** The contract's sign_page_number: 0 last, 1 first, N + 1 after page N; inline placements carry their own. */
export function signPageNumberOf(context: Rules): number {
  if (context.signatureMode === 'inline' || context.pagePosition === 'last') return 0;
  if (context.pagePosition === 'first') return 1;
  return (wholeNumber(context.afterPageText) ?? 0) + 1;
}

export function requestBodyOf(context: Rules): SignFlowRequest {
  const isInline = context.signatureMode === 'inline';
  return {
    sign_flow: {
      comment: context.comment,
      signatory_email_addresses: context.signatories.map((person) => person.emailAddress),
      reviewer_email_addresses: context.reviewers.map((person) => person.emailAddress),
      minimum_required_signs: minimumToSend(context),
      type: context.isOrdered ? 'ordered' : 'standard',
      sign_page_number: signPageNumberOf(context),
      signature_coordinates: isInline
        ? context.placements.map((placement) => ({
            email_address: placement.emailAddress,
            top: toFraction(placement.top),
            left: toFraction(placement.left),
            sign_page_number: placement.pageNumber,
          }))
        : [],
    },
  };
}

/** Spec 001 §4: inline when every signatory has a saved placement, else the signature page. */
export function initialModeOf(flow: ExistingFlow | null): SignatureMode {
  const placements = flow?.placements.length ?? 0;
  const signatories = flow?.signatories.length ?? 0;
  return placements === signatories ? 'inline' : 'page';
}

/** Spec 001 §4: last by default; first for a saved page number 1; after page N for N + 1 above 1. */
export function pagePositionOf(signPageNumber: number): { position: PagePosition; afterPageText: string } {
  if (signPageNumber === 1) return { position: 'first', afterPageText: '' };
  if (signPageNumber > 1) return { position: 'after', afterPageText: String(signPageNumber - 1) };
  return { position: 'last', afterPageText: '' };
}

/** The form's fields for a loaded flow (or none), with a kept draft laid over it. */
export function fieldsOf(data: Pick<SignFlowFormData, 'flow' | 'draft'>, mode: FormMode): SavedDraft {
  const { flow } = data;
  const page = pagePositionOf(flow?.signPageNumber ?? 0);
  const minimum = flow && !flow.isOrdered && flow.minimumRequiredSigns > 0 ? flow.minimumRequiredSigns : 0;
  const base: SavedDraft = {
    mode,
    reviewers: flow?.reviewers ?? [],
    signatories: flow?.signatories ?? [],
    isOrdered: flow?.isOrdered ?? false,
    isMinimumOn: minimum > 0,
    minimumText: minimum > 0 ? String(minimum) : '',
    signatureMode: initialModeOf(flow),
    pagePosition: page.position,
    afterPageText: page.afterPageText,
    comment: flow?.comment ?? '',
    placements: flow?.placements ?? [],
  };
  const draft = data.draft;
  if (!draft || draft.mode !== mode) return base;
  // What the server holds wins where the user could not have changed it: who signed or approved meanwhile.
  const signed = base.signatories.filter((person) => person.hasSigned);
  const approved = base.reviewers.filter((person) => person.hasApproved);
  const isSigned = (person: Person) => signed.some((s) => sameAddress(s.emailAddress, person.emailAddress));
  const isApproved = (person: Person) =>
    approved.some((r) => sameAddress(r.emailAddress, person.emailAddress));
  const signedPlacements = base.placements.filter((placement) =>
    signed.some((person) => sameAddress(person.emailAddress, placement.emailAddress)),
  );
  return {
    ...draft,
    isOrdered: flow ? flow.isOrdered : draft.isOrdered,
    reviewers: canChangeReviewers({ flow })
      ? [...approved, ...draft.reviewers.filter((person) => !isApproved(person))]
      : base.reviewers,
    signatories: [...signed, ...draft.signatories.filter((person) => !isSigned(person))],
    signatureMode: signed.length > 0 ? base.signatureMode : draft.signatureMode,
    placements: [
      ...signedPlacements,
      ...draft.placements.filter(
        (placement) => !isSigned({ emailAddress: placement.emailAddress, fullName: null }),
      ),
    ],
  };
}

export function draftOf(context: SignFlowFormContext): SavedDraft {
  return {
    mode: context.mode,
    reviewers: context.reviewers,
    signatories: context.signatories,
    isOrdered: context.isOrdered,
    isMinimumOn: context.isMinimumOn,
    minimumText: context.minimumText,
    signatureMode: context.signatureMode,
    pagePosition: context.pagePosition,
    afterPageText: context.afterPageText,
    comment: context.comment,
    placements: context.placements,
  };
}

function isInFlow(context: Rules, emailAddress: string): boolean {
  return [...context.reviewers, ...context.signatories].some((person) =>
    sameAddress(person.emailAddress, emailAddress),
  );
}

/** The people a pick adds: each once, nobody already a reviewer or a signatory. */
export function newcomersOf(context: Rules, people: Person[]): Person[] {
  const seen = new Set<string>();
  return people.filter((person) => {
    const address = person.emailAddress.trim().toLowerCase();
    if (seen.has(address) || isInFlow(context, address)) return false;
    seen.add(address);
    return true;
  });
}

const BLANK_FIELDS: SavedDraft = {
  mode: 'new',
  reviewers: [],
  signatories: [],
  isOrdered: false,
  isMinimumOn: false,
  minimumText: '',
  signatureMode: 'inline',
  pagePosition: 'last',
  afterPageText: '',
  comment: '',
  placements: [],
};

const FORM_EVENTS = {
  'participants.add': {
    guard: {
      type: 'canAdd',
      params: ({ event }: { event: { role: ParticipantRole; people: Person[] } }) => event,
    },
    actions: {
      type: 'addPeople',
      params: ({ event }: { event: { role: ParticipantRole; people: Person[] } }) => event,
    },
  },
  'participant.remove': {
    guard: {
      type: 'canRemove',
      params: ({ event }: { event: { role: ParticipantRole; emailAddress: string } }) => event,
    },
    actions: {
      type: 'removePerson',
      params: ({ event }: { event: { role: ParticipantRole; emailAddress: string } }) => event,
    },
  },
  'signatory.move': {
    guard: {
      type: 'canMove',
      params: ({ event }: { event: { emailAddress: string; toIndex: number } }) => event,
    },
    actions: {
      type: 'moveSignatory',
      params: ({ event }: { event: { emailAddress: string; toIndex: number } }) => event,
    },
  },
  'ordered.changed': {
    guard: 'canChangeType',
    actions: { type: 'setOrdered', params: ({ event }: { event: { isOrdered: boolean } }) => event },
  },
  'minimum.toggled': [
    {
      guard: { type: 'isTurningMinimumOn', params: ({ event }: { event: { isOn: boolean } }) => event },
      actions: [{ type: 'setMinimumOn', params: { isOn: true } }, 'focusMinimum'],
    },
    {
      guard: { type: 'isMinimumAllowed', params: ({ event }: { event: { isOn: boolean } }) => event },
      actions: { type: 'setMinimumOn', params: { isOn: false } },
    },
  ],
  'minimum.changed': {
    guard: 'isStandardFlow',
    actions: { type: 'setMinimumText', params: ({ event }: { event: { text: string } }) => event },
  },
  'mode.changed': {
    guard: 'canChangeMode',
    actions: { type: 'setMode', params: ({ event }: { event: { mode: SignatureMode } }) => event },
  },
  'pagePosition.changed': {
    guard: 'canChangeMode',
    actions: {
      type: 'setPagePosition',
      params: ({ event }: { event: { position: PagePosition } }) => event,
    },
  },
  'afterPage.changed': {
    guard: 'canChangeMode',
    actions: { type: 'setAfterPage', params: ({ event }: { event: { text: string } }) => event },
  },
  'comment.changed': {
    actions: { type: 'setComment', params: ({ event }: { event: { comment: string } }) => event },
  },
  'placements.saved': {
    actions: {
      type: 'keepPlacements',
      params: ({ event }: { event: { placements: Placement[] } }) => event,
    },
  },
  'form.submit': { guard: 'canSubmit', target: '#signFlowForm.saving' },
  'form.cancel': { target: '#signFlowForm.left', actions: ['clearDraft', 'goToDocument'] },
} as const;

export const signFlowFormMachine = setup({
  types: {
    context: {} as SignFlowFormContext,
    events: {} as SignFlowFormEvent,
    input: {} as SignFlowFormInput,
    emitted: {} as SignFlowFormEmitted,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    loadSignFlowForm: fromPromiseNotProvided<SignFlowFormData, LoadSignFlowFormInput>('loadSignFlowForm'),
    saveSignFlow: fromPromiseNotProvided<void, SaveSignFlowInput>('saveSignFlow'),
  },
  actions: {
    goToDocument: () => {},
    clearDraft: () => {},
    focusMinimum: emit({ type: 'minimum.focus' } as const),
    populate: assign(({ context }, params: { data: SignFlowFormData }) => ({
      ...fieldsOf(params.data, context.mode),
      document: params.data.document,
      pageCount: params.data.pageCount,
      flow: params.data.flow,
      connections: params.data.connections,
      groups: params.data.groups,
      isRestored: params.data.draft !== null && params.data.draft.mode === context.mode,
      errorCode: null,
    })),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    rememberSaveError: assign((_, params: { code: string }) => ({ saveErrorCode: params.code })),
    clearSaveError: assign({ saveErrorCode: null }),
    addPeople: assign(({ context }, params: { role: ParticipantRole; people: Person[] }) => {
      const people = newcomersOf(context, params.people);
      return params.role === 'reviewer'
        ? {
            reviewers: [...context.reviewers, ...people.map((person) => ({ ...person, hasApproved: false }))],
          }
        : {
            signatories: [
              ...context.signatories,
              ...people.map((person) => ({ ...person, hasSigned: false })),
            ],
          };
    }),
    removePerson: assign(({ context }, params: { role: ParticipantRole; emailAddress: string }) => {
      const others = <T extends Person>(list: T[]) =>
        list.filter((person) => !sameAddress(person.emailAddress, params.emailAddress));
      return params.role === 'reviewer'
        ? { reviewers: others(context.reviewers) }
        : {
            signatories: others(context.signatories),
            placements: context.placements.filter(
              (placement) => !sameAddress(placement.emailAddress, params.emailAddress),
            ),
          };
    }),
    moveSignatory: assign(({ context }, params: { emailAddress: string; toIndex: number }) => ({
      signatories: movedSignatories(context, params.emailAddress, params.toIndex) ?? context.signatories,
    })),
    setOrdered: assign((_, params: { isOrdered: boolean }) =>
      params.isOrdered ? { isOrdered: true, isMinimumOn: false, minimumText: '' } : { isOrdered: false },
    ),
    setMinimumOn: assign((_, params: { isOn: boolean }) =>
      params.isOn ? { isMinimumOn: true } : { isMinimumOn: false, minimumText: '' },
    ),
    setMinimumText: assign(({ context }, params: { text: string }) => {
      const value = wholeNumber(params.text);
      const isOn =
        params.text.trim() === '' ? false : value !== null && value > 0 ? true : context.isMinimumOn;
      return { minimumText: params.text, isMinimumOn: isOn };
    }),
    setMode: assign((_, params: { mode: SignatureMode }) => ({ signatureMode: params.mode })),
    setPagePosition: assign((_, params: { position: PagePosition }) => ({ pagePosition: params.position })),
    setAfterPage: assign((_, params: { text: string }) => ({ afterPageText: params.text })),
    setComment: assign((_, params: { comment: string }) => ({ comment: params.comment })),
    keepPlacements: assign(({ context }, params: { placements: Placement[] }) => {
      const signed = context.signatories.filter((person) => person.hasSigned);
      const isSigned = (address: string) =>
        signed.some((person) => sameAddress(person.emailAddress, address));
      const isSignatory = (address: string) =>
        context.signatories.some((person) => sameAddress(person.emailAddress, address));
      // A signed signatory's placement cannot change (spec 001 §5): theirs are kept as loaded.
      return {
        placements: [
          ...context.placements.filter((placement) => isSigned(placement.emailAddress)),
          ...params.placements.filter(
            (placement) => isSignatory(placement.emailAddress) && !isSigned(placement.emailAddress),
          ),
        ],
      };
    }),
  },
  guards: {
    isNotAllowed: ({ context }, params: { document: DocumentResource }) =>
      context.mode === 'new'
        ? !params.document.attributes.currentUserCanCreateSignFlow
        : !params.document.attributes.currentUserCanEditSignFlow,
    canAdd: ({ context }, params: { role: ParticipantRole; people: Person[] }) =>
      newcomersOf(context, params.people).length > 0 &&
      (params.role === 'signatory' || canChangeReviewers(context)),
    canRemove: ({ context }, params: { role: ParticipantRole; emailAddress: string }) =>
      canRemove(context, params.role, params.emailAddress),
    canMove: ({ context }, params: { emailAddress: string; toIndex: number }) =>
      movedSignatories(context, params.emailAddress, params.toIndex) !== null,
    canChangeType: ({ context }) => canChangeType(context),
    isStandardFlow: ({ context }) => !context.isOrdered,
    isTurningMinimumOn: ({ context }, params: { isOn: boolean }) => params.isOn && !context.isOrdered,
    isMinimumAllowed: ({ context }, params: { isOn: boolean }) => !params.isOn && !context.isOrdered,
    canChangeMode: ({ context }) => !hasAnySigned(context),
    canSubmit: ({ context }) => canSubmit(context),
  },
}).createMachine({
  id: 'signFlowForm',
  context: ({ input }) => ({
    ...BLANK_FIELDS,
    mode: input.mode,
    documentId: input.documentId,
    document: null,
    pageCount: null,
    flow: null,
    connections: [],
    groups: [],
    errorCode: null,
    saveErrorCode: null,
    isRestored: false,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadSignFlowForm',
        src: 'loadSignFlowForm',
        input: ({ context }) => ({ documentId: context.documentId, mode: context.mode }),
        onDone: [
          {
            guard: { type: 'isNotAllowed', params: ({ event }) => ({ document: event.output.document }) },
            target: 'left',
            actions: 'goToDocument',
          },
          {
            target: 'editing',
            actions: { type: 'populate', params: ({ event }) => ({ data: event.output }) },
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: { type: 'rememberError', params: ({ event }) => ({ code: toErrorCode(event.error) }) },
        },
      },
    },
    loadFailed: {
      tags: ['error'],
      on: { 'form.back': { target: 'left', actions: 'goToDocument' } },
    },
    editing: {
      initial: 'idle',
      on: FORM_EVENTS,
      states: {
        idle: {},
        saveFailed: { tags: ['error'] },
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearSaveError',
      invoke: {
        id: 'saveSignFlow',
        src: 'saveSignFlow',
        input: ({ context }) => ({
          documentId: context.documentId,
          mode: context.mode,
          body: requestBodyOf(context),
        }),
        onDone: { target: 'left', actions: ['clearDraft', 'goToDocument'] },
        onError: {
          target: 'editing.saveFailed',
          actions: { type: 'rememberSaveError', params: ({ event }) => ({ code: toErrorCode(event.error) }) },
        },
      },
    },
    left: { type: 'final' },
  },
});

function fromPromiseNotProvided<Output, Input>(name: string) {
  return fromPromise<Output, Input>(async () => {
    throw new Error(`${name} not provided`);
  });
}
