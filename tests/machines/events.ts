// The events each registered machine (machines/index.ts) accepts, with representative payloads, and the
// inputs it can start with: what the model-based gate (tests/machines/gate.test.ts) and the QA path
// exporter (scripts/paths.ts) send it. Actor results and timers are events too:
// xstate.done.actor.<id>, xstate.error.actor.<id> and xstate.after.<DELAY>.<state id>. A transition that no
// listed event can take fails the gate. Test data: the app never imports it (eslint.config.js).
import type { EventObject } from 'xstate';
import type { ConnectionsEvent } from '../../machines/connections.machine';
import type { SignGroupsEvent } from '../../machines/sign-groups.machine';
import type {
  ParticipantSearchEvent,
  ParticipantSearchInput,
} from '../../machines/participant-search.machine';
import type { SignFlowFormEvent, SignFlowFormInput } from '../../machines/sign-flow-form.machine';
import {
  PAGE_MIDDLE,
  type SignaturePlacementEvent,
  type SignaturePlacementInput,
} from '../../machines/signature-placement.machine.ts';
import { DEFAULT_PAGE_RATIO } from '../../machines/placement-overlap.ts';
import type { ActionRequest, DocumentActionsEvent } from '../../machines/document-actions.machine';
import type { DocumentListEvent, DocumentListInput } from '../../machines/document-list.machine';
import { DEFAULT_ADDRESS } from '../../machines/list-address.ts';
import type { DocumentDetailsEvent, DocumentDetailsInput } from '../../machines/document-details.machine';
import type { DocumentEvent, DocumentInput } from '../../machines/document.machine';
import type { DownloadInput } from '../../machines/download.machine';
import type { InviteAcceptInput } from '../../machines/invite-accept.machine';
import type { LifecycleEvent } from '../../machines/document-lifecycle.machine';
import type { ModalEvent, ModalName } from '../../machines/modal.machine';
import type { ShellEvent, ShellInput } from '../../machines/shell.machine';
import {
  SAMPLE_PROFILE,
  SAMPLE_SIGN_FLOW_PARTICIPANTS,
  SAMPLE_TICKET,
  SAMPLE_TICKET_TINY_LIMIT,
  sampleConnection,
  sampleDocument,
  sampleFile,
  samplePage,
  samplePerson,
  sampleRequest,
  sampleSignGroup,
  sampleSignFlowFormData,
  SAMPLE_EXISTING_FLOW,
} from '../samples/index.ts';
import type { SessionEvent, SessionInput } from '../../machines/session.machine';
import type { SignConfirmationEvent, SignConfirmationInput } from '../../machines/sign-confirmation.machine';
import type { SigningEvent, SigningInput } from '../../machines/signing.machine';
import { sampleFlowSigning, sampleOwnSigning } from '../samples/signing.ts';
import type { UploadEvent } from '../../machines/upload.machine';
import type { LanguageEvent, LanguageInput } from '../../machines/language.machine';
import type { WelcomeEvent } from '../../machines/welcome.machine';
import type { SettingsEvent, SettingsInput } from '../../machines/settings.machine';
import type {
  AuditTrailDownloadEvent,
  AuditTrailDownloadInput,
} from '../../machines/audit-trail-download.machine';
import type { ErrorReportEvent, ErrorReportInput } from '../../machines/error-report.machine';
import type { VerificationEvent } from '../../machines/verification.machine';
import { sampleVerificationReport } from '../samples/verification.ts';
import { MACHINES, type MachineName } from '../../machines/index.ts';
import type { RegisteredMachine } from '../../scripts/lib/transition-paths';

/** The events the machine's actors and timers raise, which the app never sends itself. */
type InternalEvent =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown }
  | { type: `xstate.after.${string}` };

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output }) as const;
const failed = (id: string, error: unknown) => ({ type: `xstate.error.actor.${id}`, error }) as const;
const after = (delay: string, stateId: string) => ({ type: `xstate.after.${delay}.${stateId}` }) as const;

const UNAUTHORIZED = { code: 'unauthorized', status: 401 };
const OFFLINE = { code: 'network' };
const SERVER_ERROR = { code: 'internal_error', status: 500 };

export const SESSION_EVENTS = [
  { type: 'auth.exchange' },
  { type: 'auth.exchange', returnUrl: '/app/document/d1' },
  { type: 'auth.exchange', returnUrl: 'https://elsewhere.example/' },
  { type: 'session.require', returnUrl: '/app/documents' },
  { type: 'session.unauthorized' },
  { type: 'session.logout' },
  { type: 'profile.refresh' },
  done('fetchToken', { accessToken: 'token-from-exchange' }),
  failed('fetchToken', UNAUTHORIZED),
  done('fetchProfile', SAMPLE_PROFILE),
  failed('fetchProfile', UNAUTHORIZED),
  failed('fetchProfile', SERVER_ERROR),
  done('pollProfile', { ...SAMPLE_PROFILE, pendingSignFlows: 3 }),
  failed('pollProfile', UNAUTHORIZED),
  failed('pollProfile', OFFLINE),
  failed('pollProfile', SERVER_ERROR),
  after('PROFILE_POLL', 'session.authenticated.idle'),
] as const satisfies readonly (SessionEvent | InternalEvent)[];

export const SESSION_INPUTS = [
  { storedToken: null },
  { storedToken: 'stored-token' },
] as const satisfies readonly SessionInput[];

export const MODAL_EVENTS = [
  { type: 'modal.open', name: 'delete' },
  { type: 'modal.open', name: 'welcome' },
  // A name no dialog answers to: the typed callers cannot send it, an older page's code could.
  { type: 'modal.open', name: 'noSuchModal' as ModalName },
  { type: 'modal.close' },
  { type: 'key.escape' },
  { type: 'key.enter' },
  { type: 'modal.error', code: 'internal_error' },
  { type: 'modal.errorCleared' },
] as const satisfies readonly ModalEvent[];

const PDF = sampleFile('contract.pdf', 'application/pdf');

export const UPLOAD_EVENTS = [
  { type: 'file.selected', files: [PDF] },
  { type: 'file.selected', files: [PDF, sampleFile('annex.pdf', 'application/pdf')] },
  { type: 'file.selected', files: [sampleFile('notes.txt', 'text/plain')] },
  { type: 'file.selected', files: [sampleFile('blank.pdf', 'application/pdf', '')] },
  { type: 'file.selected', files: [] },
  { type: 'upload.progress', percent: 40 },
  { type: 'upload.progress', percent: 250 },
  { type: 'upload.stored' },
  { type: 'upload.failed', code: 'storage' },
  { type: 'upload.failed', code: 'file_too_large' },
  { type: 'upload.retry' },
  { type: 'upload.cancel' },
  done('requestUpload', SAMPLE_TICKET),
  done('requestUpload', SAMPLE_TICKET_TINY_LIMIT),
  failed('requestUpload', OFFLINE),
  failed('sendToStorage', { code: 'storage' }),
  done('createDocument', { id: 'doc-new' }),
  failed('createDocument', { code: 'not_a_pdf', status: 422 }),
  after('LIST_REFRESH', 'upload.finished'),
  after('MODAL_CLOSE', 'upload.finished'),
] as const satisfies readonly (UploadEvent | InternalEvent)[];

const FIRST_PAGE = samplePage([sampleDocument('d1'), sampleDocument('d2')], 1, 2);
const LAST_PAGE = samplePage([sampleDocument('d3')], 2, 2);
const NO_DOCUMENTS = samplePage([], 1, 1);
const PAST_LAST_PAGE = samplePage([], 3, 2);

export const DOCUMENT_LIST_EVENTS = [
  { type: 'list.refresh' },
  { type: 'list.refresh', selectId: 'd2' },
  // The list as it opens: a new address of its own (page, search, sort, selection) would multiply the
  // contexts the paths explore without reaching another transition; tests/machines cover what it restores.
  { type: 'address.changed', address: DEFAULT_ADDRESS },
  { type: 'search.changed', term: '  contract ' },
  { type: 'search.changed', term: '   ' },
  { type: 'search.submit' },
  { type: 'search.clear' },
  { type: 'sort.changed', direction: 'asc' },
  { type: 'sort.changed', column: 'autodeletion_at', direction: 'asc' },
  { type: 'page.first' },
  { type: 'page.prev' },
  { type: 'page.next' },
  { type: 'page.last' },
  { type: 'row.click', id: 'd1', toggle: false },
  { type: 'row.click', id: 'd2', toggle: true },
  { type: 'row.checkbox', id: 'd1' },
  { type: 'selection.all' },
  { type: 'selection.none' },
  done('fetchPage', FIRST_PAGE),
  done('fetchPage', LAST_PAGE),
  done('fetchPage', NO_DOCUMENTS),
  done('fetchPage', PAST_LAST_PAGE),
  failed('fetchPage', OFFLINE),
] as const satisfies readonly (DocumentListEvent | InternalEvent)[];

export const DOCUMENT_LIST_INPUTS = [{ category: 'active' }] as const satisfies readonly DocumentListInput[];

export const DOCUMENT_EVENTS = [
  { type: 'document.reload' },
  done('fetchDocument', sampleDocument('d1')),
  done('fetchDocument', sampleDocument('d1', { processing: true, publicImagesFileUrls: [] })),
  done('fetchDocument', sampleDocument('d1', { state: 'error', pdfUrl: null, publicImagesFileUrls: [] })),
  failed('fetchDocument', { code: 'not_found', status: 404 }),
  after('PROCESSING_POLL', 'document.processing'),
] as const satisfies readonly (DocumentEvent | InternalEvent)[];

export const DOCUMENT_INPUTS = [{ documentId: 'd1' }] as const satisfies readonly DocumentInput[];

const SIGN_FLOW_DOCUMENT = sampleDocument('d1', {
  state: 'awaiting_signs',
  isSignFlow: true,
  signatoryCount: 2,
  signedCount: 1,
});

export const DOCUMENT_DETAILS_EVENTS = [
  { type: 'selection.changed', ids: [] },
  { type: 'selection.changed', ids: ['d1'] },
  { type: 'selection.changed', ids: ['d2'] },
  { type: 'selection.changed', ids: ['d1', 'd2'] },
  { type: 'selection.changed', ids: ['d1', 'd2', 'd3'] },
  { type: 'details.reload' },
  done('fetchDocument', sampleDocument('d1')),
  done('fetchDocument', SIGN_FLOW_DOCUMENT),
  failed('fetchDocument', { code: 'not_found', status: 404 }),
  done('fetchSignFlow', SAMPLE_SIGN_FLOW_PARTICIPANTS),
  failed('fetchSignFlow', { code: 'not_implemented', status: 501 }),
] as const satisfies readonly (DocumentDetailsEvent | InternalEvent)[];

export const DOCUMENT_DETAILS_INPUTS = [
  { selectedIds: [] },
  { selectedIds: ['d1'] },
] as const satisfies readonly DocumentDetailsInput[];

export const DOWNLOAD_EVENTS = [
  done(
    'fetchDocument',
    sampleDocument('d1', { state: 'signed', pdfDownloadUrl: 'http://localhost/s/d1.pdf' }),
  ),
  done('fetchDocument', sampleDocument('d1', { state: 'awaiting_signs' })),
  failed('fetchDocument', { code: 'not_found', status: 404 }),
] as const satisfies readonly InternalEvent[];

export const DOWNLOAD_INPUTS = [{ documentId: 'd1' }] as const satisfies readonly DownloadInput[];

export const INVITE_ACCEPT_EVENTS = [
  done('acceptInvite', 'd1'),
  done('acceptInvite', null),
  failed('acceptInvite', UNAUTHORIZED),
  failed('acceptInvite', { code: 'not_found', status: 404 }),
] as const satisfies readonly InternalEvent[];

export const INVITE_ACCEPT_INPUTS = [
  { inviteId: '5b1f0c1e-7a4e-4c1b-9d0e-2f3a4b5c6d7e' },
] as const satisfies readonly InviteAcceptInput[];

const BOB = sampleConnection('c1');
const INBOUND = sampleRequest('r-in');
const OUTBOUND = sampleRequest('r-out', {
  direction: 'outbound',
  profile: samplePerson('profile-erin', { fullName: 'Erin Hale', emailAddress: 'erin@paraph.test' }),
});
// Grace was invited already: with this list loaded, her address is not offered an invitation again.
const INVITATION = sampleRequest('r-invite', {
  direction: 'outbound',
  profile: null,
  invitationEmailAddress: 'grace@paraph.test',
});

export const CONNECTIONS_EVENTS = [
  { type: 'connections.reload' },
  { type: 'request.accept', requestId: 'r-in' },
  { type: 'request.refuse', requestId: 'r-in' },
  { type: 'request.cancel', requestId: 'r-out' },
  { type: 'connection.remove', connectionId: 'c1' },
  { type: 'remove.confirm' },
  { type: 'remove.dismiss' },
  { type: 'action.dismissError' },
  { type: 'add.open' },
  { type: 'add.close' },
  { type: 'add.queryChanged', query: 'gr' },
  { type: 'add.queryChanged', query: ' grace@paraph.test ' },
  { type: 'add.submit' },
  done('fetchConnections', { connections: [BOB], requests: [INBOUND, OUTBOUND, INVITATION] }),
  done('fetchConnections', { connections: [], requests: [] }),
  failed('fetchConnections', OFFLINE),
  done('acceptRequest', undefined),
  failed('acceptRequest', { code: 'not_found', status: 404 }),
  done('refuseRequest', undefined),
  failed('refuseRequest', SERVER_ERROR),
  done('cancelRequest', undefined),
  failed('cancelRequest', OFFLINE),
  done('removeConnection', undefined),
  failed('removeConnection', SERVER_ERROR),
  // The first result is already a connection: the second is offered.
  done('searchProfiles', [
    samplePerson('profile-c1'),
    samplePerson('profile-grace', { fullName: 'Grace Hopper', emailAddress: 'grace@paraph.test' }),
  ]),
  done('searchProfiles', [samplePerson('profile-c1')]),
  failed('searchProfiles', { code: 'too_many_requests', status: 429 }),
  after('SEARCH_DEBOUNCE', 'connections.add.open.form.debouncing'),
  done('addConnection', undefined),
  failed('addConnection', { code: 'already_connected', status: 409 }),
] as const satisfies readonly (ConnectionsEvent | InternalEvent)[];

const CAROL = samplePerson('profile-carol', { fullName: 'Carol Shaw', emailAddress: 'carol@paraph.test' });

export const SIGN_GROUPS_EVENTS = [
  { type: 'groups.reload' },
  { type: 'group.create' },
  { type: 'group.edit', groupId: 'g1' },
  { type: 'group.delete', groupId: 'g1' },
  { type: 'editor.nameChanged', name: 'Board' },
  { type: 'editor.nameChanged', name: ' ' },
  { type: 'editor.queryChanged', query: 'car' },
  { type: 'editor.memberAdded', profileId: 'profile-carol' },
  { type: 'editor.memberRemoved', profileId: 'profile-carol' },
  { type: 'editor.save' },
  { type: 'editor.retry' },
  { type: 'deletion.confirm' },
  { type: 'dialog.close' },
  done('fetchSignGroups', [sampleSignGroup('g1')]),
  done('fetchSignGroups', []),
  failed('fetchSignGroups', OFFLINE),
  done('fetchSignGroup', sampleSignGroup('g1')),
  failed('fetchSignGroup', { code: 'not_found', status: 404 }),
  done('fetchMemberCandidates', [CAROL]),
  failed('fetchMemberCandidates', SERVER_ERROR),
  done('saveSignGroup', undefined),
  failed('saveSignGroup', { code: 'not_a_connection', status: 422, blockedIds: ['profile-c1'] }),
  done('deleteSignGroup', undefined),
  failed('deleteSignGroup', SERVER_ERROR),
] as const satisfies readonly (SignGroupsEvent | InternalEvent)[];

const ARCHIVABLE = sampleDocument('d1');
const FLOW_DOCUMENT = sampleDocument('d2', {
  state: 'awaiting_signs',
  isSignFlow: true,
  currentUserCanRefuse: true,
  currentUserCanCancel: true,
});
const REVIEWED = sampleDocument('d3', { state: 'in_review', isSignFlow: true, currentUserCanReview: true });
const SIGNED = sampleDocument('d4', { state: 'signed', pdfDownloadUrl: '/storage/paraph/signed/d4.pdf' });
const request = (action: ActionRequest['action'], documents: ActionRequest['documents']) =>
  ({ type: 'action.request', action, documents }) as const;

export const DOCUMENT_ACTIONS_EVENTS = [
  request('archive', [ARCHIVABLE]),
  request('archive', [ARCHIVABLE, SIGNED]),
  request('delete', [FLOW_DOCUMENT]),
  request('delete', [ARCHIVABLE, SIGNED]),
  request('refuse', [FLOW_DOCUMENT]),
  request('approve', [REVIEWED]),
  request('reject', [REVIEWED]),
  request('cancelSignFlow', [FLOW_DOCUMENT]),
  request('download', [SIGNED]),
  request('download', [SIGNED, ARCHIVABLE]),
  request('approve', [ARCHIVABLE]),
  { type: 'reason.changed', reason: 'Wrong amount on page 2' },
  { type: 'reason.changed', reason: 'x'.repeat(128) },
  { type: 'action.confirm' },
  { type: 'action.dismiss' },
  done('archiveDocument', undefined),
  failed('archiveDocument', { code: 'not_found', status: 404 }),
  failed('archiveDocument', SERVER_ERROR),
  done('archiveDocuments', undefined),
  failed('archiveDocuments', { code: 'action_not_allowed', status: 409 }),
  failed('archiveDocuments', { code: 'bulk_blocked', status: 409, blockedIds: [SIGNED.id] }),
  failed('archiveDocuments', OFFLINE),
  done('deleteDocument', undefined),
  failed('deleteDocument', { code: 'not_found', status: 404 }),
  failed('deleteDocument', SERVER_ERROR),
  done('deleteDocuments', undefined),
  failed('deleteDocuments', { code: 'action_not_allowed', status: 409 }),
  failed('deleteDocuments', SERVER_ERROR),
  done('refuseSignFlow', undefined),
  failed('refuseSignFlow', { code: 'not_found', status: 404 }),
  failed('refuseSignFlow', SERVER_ERROR),
  done('approveDocument', undefined),
  failed('approveDocument', { code: 'action_not_allowed', status: 409 }),
  failed('approveDocument', SERVER_ERROR),
  done('rejectDocument', undefined),
  failed('rejectDocument', { code: 'action_not_allowed', status: 409 }),
  failed('rejectDocument', SERVER_ERROR),
  done('cancelSignFlow', undefined),
  failed('cancelSignFlow', { code: 'document_already_signed', status: 409 }),
  failed('cancelSignFlow', SERVER_ERROR),
  done('downloadDocuments', undefined),
  failed('downloadDocuments', OFFLINE),
  after('ACTION_SETTLE', 'documentActions.dialog.settling'),
] as const satisfies readonly (DocumentActionsEvent | InternalEvent)[];

const TWO_PAGES = sampleDocument('d1', {
  publicImagesFileUrls: ['http://localhost/s/d1/1.png', 'http://localhost/s/d1/2.png'],
});

export const SIGNATURE_PLACEMENT_EVENTS = [
  { type: 'images.retry' },
  { type: 'image.failed' },
  // An A4 page: its measure leaves the context as it was (other shapes are tested in
  // tests/machines/signature-placement), so the traversal does not double.
  { type: 'page.measured', pageNumber: 1, ratio: DEFAULT_PAGE_RATIO },
  // An image that failed to draw measures nothing.
  { type: 'page.measured', pageNumber: 1, ratio: 0 },
  { type: 'page.next' },
  { type: 'page.previous' },
  { type: 'page.go', pageNumber: 2 },
  { type: 'page.go', pageNumber: 9 },
  { type: 'page.clicked', left: 0.5, top: 0.5 },
  { type: 'box.clicked', emailAddress: 'ada@paraph.test' },
  { type: 'box.clicked', emailAddress: 'carol@paraph.test' },
  { type: 'box.dragStarted', emailAddress: 'ada@paraph.test' },
  { type: 'box.dropped', emailAddress: 'ada@paraph.test', left: 0.9, top: 0.05 },
  { type: 'signatory.chosen', emailAddress: 'ada@paraph.test' },
  { type: 'signatory.chosen', emailAddress: 'carol@paraph.test' },
  { type: 'add.confirm' },
  { type: 'edit.confirm' },
  { type: 'edit.remove' },
  { type: 'list.open' },
  { type: 'dialog.close' },
  { type: 'keyboard.place' },
  { type: 'box.selected', emailAddress: 'ada@paraph.test' },
  // Bounded: from the page's middle the box reaches the top limit in a few steps.
  { type: 'box.nudged', direction: 'up', isLarge: true },
  { type: 'box.confirmed' },
  { type: 'placement.removed', emailAddress: 'ada@paraph.test' },
  { type: 'editor.save' },
  { type: 'editor.back' },
  done('fetchDocument', TWO_PAGES),
  done('fetchDocument', sampleDocument('d1', { processing: true, publicImagesFileUrls: [] })),
  done('fetchDocument', sampleDocument('d1', { state: 'error', publicImagesFileUrls: [] })),
  failed('fetchDocument', { code: 'not_found', status: 404 }),
  after('PROCESSING_POLL', 'signaturePlacement.processing'),
] as const satisfies readonly (SignaturePlacementEvent | InternalEvent)[];

export const SIGNATURE_PLACEMENT_INPUTS = [
  {
    documentId: 'd1',
    signatories: [
      { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace', hasSigned: false },
      { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw', hasSigned: true },
    ],
    // Carol's box is in the middle of page 2, where a click or the keyboard puts ada's: the editor then
    // refuses to save the overlapping boxes.
    placements: [
      { emailAddress: 'ada@paraph.test', pageNumber: 1, left: 0.1, top: 0.2 },
      { emailAddress: 'carol@paraph.test', pageNumber: 2, ...PAGE_MIDDLE },
    ],
  },
  { documentId: 'd1', signatories: [], placements: [] },
  // Every signatory left has signed: there is no box to add or place.
  {
    documentId: 'd1',
    signatories: [{ emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw', hasSigned: true }],
    placements: [{ emailAddress: 'carol@paraph.test', pageNumber: 2, left: 0.5, top: 0.8 }],
  },
] as const satisfies readonly SignaturePlacementInput[];
// One unsigned signatory keeps the context small (each of ada's positions multiplies the states); the
// rules with several (reassigning, one box per signatory) are tested in tests/machines/signature-placement.

const ORDERED_FLOW = { type: 'ordered', minimumRequiredSigns: 0 } as const;
const REVIEWED_MEMBERS = [
  { id: 'r1', role: 'reviewer', position: 1 },
  { id: 'r2', role: 'reviewer', position: 2 },
  { id: 's1', role: 'signatory', position: 3 },
  { id: 's2', role: 'signatory', position: 4 },
] as const;
const SIGNATORY_MEMBERS = [
  { id: 's1', role: 'signatory', position: 1 },
  { id: 's2', role: 'signatory', position: 2 },
] as const;

// Two flows (ordered with two reviewers; standard, one signature of two) and the edits each allows, and
// the owner signing alone.
export const DOCUMENT_LIFECYCLE_EVENTS = [
  { type: 'flow.start', flow: ORDERED_FLOW, participants: [...REVIEWED_MEMBERS] },
  {
    type: 'flow.start',
    flow: { type: 'standard', minimumRequiredSigns: 1 },
    participants: [...SIGNATORY_MEMBERS],
  },
  // More signatures required than there are signatories: refused.
  {
    type: 'flow.start',
    flow: { type: 'standard', minimumRequiredSigns: 3 },
    participants: [...SIGNATORY_MEMBERS],
  },
  { type: 'flow.edit', flow: ORDERED_FLOW, participants: [...REVIEWED_MEMBERS] },
  {
    type: 'flow.edit',
    flow: ORDERED_FLOW,
    participants: REVIEWED_MEMBERS.filter((member) => member.id !== 'r2'),
  },
  {
    type: 'flow.edit',
    flow: { type: 'standard', minimumRequiredSigns: 0 },
    participants: [...SIGNATORY_MEMBERS],
  },
  { type: 'review.approve', participantId: 'r1' },
  { type: 'review.approve', participantId: 'r2' },
  { type: 'review.reject', participantId: 'r1' },
  { type: 'sign.begin', participantId: 's1' },
  { type: 'sign.begin', participantId: 's2' },
  { type: 'sign.abort', participantId: 's1' },
  { type: 'sign.complete', participantId: 's1' },
  { type: 'sign.complete', participantId: 's2' },
  { type: 'flow.refuse', participantId: 's2' },
  { type: 'flow.cancel' },
  { type: 'flow.fail' },
  // The owner's own signature of a document without a flow.
  { type: 'solo.begin' },
  { type: 'solo.complete' },
  { type: 'solo.abort' },
] as const satisfies readonly LifecycleEvent[];

const BOB_PERSON = { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder' };
const CAROL_PERSON = { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw' };
const NEW_FLOW_DATA = sampleSignFlowFormData();
const EDIT_FLOW_DATA = sampleSignFlowFormData({
  document: sampleDocument('d1', {
    state: 'in_review',
    isSignFlow: true,
    currentUserCanCreateSignFlow: false,
    currentUserCanEditSignFlow: true,
  }),
  flow: SAMPLE_EXISTING_FLOW,
});

export const SIGN_FLOW_FORM_EVENTS = [
  { type: 'participants.add', role: 'signatory', people: [BOB_PERSON, CAROL_PERSON] },
  {
    type: 'participants.add',
    role: 'reviewer',
    people: [{ emailAddress: 'dan@paraph.test', fullName: null }],
  },
  { type: 'participant.remove', role: 'signatory', emailAddress: 'carol@paraph.test' },
  { type: 'participant.remove', role: 'reviewer', emailAddress: 'dan@paraph.test' },
  { type: 'signatory.move', emailAddress: 'carol@paraph.test', toIndex: 0 },
  { type: 'ordered.changed', isOrdered: true },
  { type: 'ordered.changed', isOrdered: false },
  { type: 'minimum.toggled', isOn: true },
  { type: 'minimum.toggled', isOn: false },
  { type: 'minimum.changed', text: '1' },
  { type: 'mode.changed', mode: 'page' },
  { type: 'pagePosition.changed', position: 'after' },
  { type: 'afterPage.changed', text: '2' },
  { type: 'comment.changed', comment: 'Please sign before Friday.' },
  {
    type: 'placements.saved',
    placements: [{ emailAddress: 'carol@paraph.test', pageNumber: 2, left: 0.5, top: 0.5 }],
  },
  { type: 'form.submit' },
  { type: 'form.cancel' },
  { type: 'form.back' },
  done('loadSignFlowForm', NEW_FLOW_DATA),
  done('loadSignFlowForm', EDIT_FLOW_DATA),
  failed('loadSignFlowForm', OFFLINE),
  done('saveSignFlow', undefined),
  failed('saveSignFlow', SERVER_ERROR),
] as const satisfies readonly (SignFlowFormEvent | InternalEvent)[];

export const SIGN_FLOW_FORM_INPUTS = [
  { documentId: 'd1', mode: 'new' },
  { documentId: 'd1', mode: 'edit' },
] as const satisfies readonly SignFlowFormInput[];

const SEARCH_SOURCES = {
  self: { emailAddress: 'ada@paraph.test', fullName: 'Ada Lovelace' },
  connections: [BOB_PERSON, CAROL_PERSON],
  groups: [{ id: 'g1', name: 'Board', members: [BOB_PERSON, CAROL_PERSON] }],
  reviewers: [],
  signatories: [],
  canChangeReviewers: true,
};

export const PARTICIPANT_SEARCH_EVENTS = [
  { type: 'query.changed', query: 'bo' },
  { type: 'query.changed', query: 'boa' },
  // Nobody matches: Enter picks nothing.
  { type: 'query.changed', query: 'xyz' },
  { type: 'role.changed', role: 'reviewer' },
  { type: 'sources.changed', sources: { ...SEARCH_SOURCES, signatories: [BOB_PERSON] } },
  // A flow already in review: its reviewers are kept as they are.
  { type: 'sources.changed', sources: { ...SEARCH_SOURCES, canChangeReviewers: false } },
  { type: 'highlight.next' },
  { type: 'highlight.previous' },
  { type: 'suggestion.pick' },
  { type: 'search.dismiss' },
] as const satisfies readonly ParticipantSearchEvent[];

export const PARTICIPANT_SEARCH_INPUTS = [
  { sources: SEARCH_SOURCES },
] as const satisfies readonly ParticipantSearchInput[];

export const SETTINGS_EVENTS = [
  { type: 'locale.changed', locale: 'fr' },
  { type: 'locale.shown', locale: 'es' },
  { type: 'location.changed', location: '  Amsterdam  ' },
  { type: 'location.changed', location: 'x'.repeat(129) },
  { type: 'settings.save' },
  { type: 'settings.cancel' },
  { type: 'settings.retry' },
  done('loadSettings', { locale: 'es', location: 'Leiden' }),
  failed('loadSettings', OFFLINE),
  done('saveSettings', { locale: 'fr', location: 'Amsterdam' }),
  failed('saveSettings', SERVER_ERROR),
] as const satisfies readonly (SettingsEvent | InternalEvent)[];

export const SETTINGS_INPUTS = [{ shownLocale: 'en' }] as const satisfies readonly SettingsInput[];

export const AUDIT_TRAIL_DOWNLOAD_EVENTS = [
  { type: 'download.request' },
  { type: 'message.dismiss' },
  done('fetchAuditTrail', new Blob(['%PDF-1.7'], { type: 'application/pdf' })),
  failed('fetchAuditTrail', OFFLINE),
] as const satisfies readonly (AuditTrailDownloadEvent | InternalEvent)[];

export const AUDIT_TRAIL_DOWNLOAD_INPUTS = [
  { documentId: 'd1', originalFilename: 'Supplier agreement.pdf' },
] as const satisfies readonly AuditTrailDownloadInput[];

export const ERROR_REPORT_EVENTS = [
  { type: 'report.send' },
  done('sendErrorReport', undefined),
  failed('sendErrorReport', OFFLINE),
] as const satisfies readonly (ErrorReportEvent | InternalEvent)[];

export const ERROR_REPORT_INPUTS = [
  { error: { message: 'Cannot read properties of undefined', stack: 'TypeError: at DocumentPage' } },
] as const satisfies readonly ErrorReportInput[];

// Two catalogs' worth of texts: the language actor only keeps them, so one message tells them apart.
const CATALOG_EN = { 'common.language': 'Language' };
const CATALOG_FR = { 'common.language': 'Langue' };

export const LANGUAGE_EVENTS = [
  { type: 'language.choose', locale: 'fr' },
  { type: 'language.show', locale: 'es' },
  done('loadCatalog', CATALOG_FR),
  failed('loadCatalog', OFFLINE),
  done('saveLocale', undefined),
  failed('saveLocale', SERVER_ERROR),
  { type: 'language.align', profileLocale: 'fr' },
  { type: 'language.align', profileLocale: 'es' },
] as const satisfies readonly (LanguageEvent | InternalEvent)[];

export const LANGUAGE_INPUTS = [
  // Only the browser's languages chose English: the profile's language may replace it.
  { locale: 'en', messages: CATALOG_EN, source: 'browser', pendingForProfile: null },
  // A mobile wrapper forced French, which the profile has not been given yet.
  { locale: 'fr', messages: CATALOG_FR, source: 'chosen', pendingForProfile: 'fr' },
] as const satisfies readonly LanguageInput[];

export const WELCOME_EVENTS = [
  { type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: false },
  { type: 'welcome.check', welcomeScreenWatched: false, isModalOpen: true },
  { type: 'welcome.check', welcomeScreenWatched: true, isModalOpen: false },
  { type: 'welcome.closed' },
  done('saveWelcomeScreenWatched', undefined),
  failed('saveWelcomeScreenWatched', OFFLINE),
] as const satisfies readonly (WelcomeEvent | InternalEvent)[];

export const SHELL_EVENTS = [
  { type: 'documents.changed' },
  { type: 'documents.changed', selectId: 'd1' },
  { type: 'profile.loaded', welcomeScreenWatched: false, locale: 'fr' },
  { type: 'profile.loaded', welcomeScreenWatched: true, locale: 'fr' },
  { type: 'modal.changed', name: 'archive' },
  { type: 'modal.changed', name: null },
  { type: 'modal.confirmed', name: 'delete' },
  { type: 'modal.confirmed', name: 'addConnection' },
  { type: 'action.request', action: 'archive', documents: [ARCHIVABLE] },
  { type: 'notice.show', code: 'invite_not_found' },
  { type: 'notice.dismiss' },
] as const satisfies readonly ShellEvent[];

export const SHELL_INPUTS = [
  { storedToken: 'stored-token', language: LANGUAGE_INPUTS[0] },
] as const satisfies readonly ShellInput[];

// The sign screen's machines. Payloads are chosen so that few of them change the context the guards read
// (a card that is already chosen, the location the input already holds): the gate needs every transition
// taken, not every combination of field values, which the unit tests cover.
export const SIGNING_EVENTS = [
  { type: 'screen.retry' },
  { type: 'card.changed', cardId: 'card-1' },
  // A card the last load did not list (taken out of the reader since): ignored.
  { type: 'card.changed', cardId: 'card-unplugged' },
  { type: 'location.changed', location: 'London' },
  { type: 'location.locate' },
  { type: 'reason.changed', reason: '' },
  { type: 'mode.changed', mode: 'page' },
  { type: 'mode.changed', mode: 'inline' },
  { type: 'pagePosition.changed', position: 'after' },
  { type: 'afterPage.changed', text: '' },
  { type: 'placement.saved', placement: { pageNumber: 1, left: 0.1, top: 0.2 } },
  { type: 'placement.saved', placement: null },
  { type: 'sign.submit' },
  { type: 'form.cancel' },
  done('loadSignScreen', sampleOwnSigning()),
  done('loadSignScreen', sampleFlowSigning()),
  done('loadSignScreen', sampleOwnSigning({ document: sampleDocument('d1', { currentUserCanSign: false }) })),
  failed('loadSignScreen', OFFLINE),
  done('locateMe', 'London'),
  failed('locateMe', { code: 'location_unavailable' }),
  done('signDocument', { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' }),
  failed('signDocument', { code: 'sign_refused', status: 422, messages: ['The plan allows no more.'] }),
  done('confirmation', { outcome: 'confirmed' }),
  done('confirmation', { outcome: 'failed' }),
] as const satisfies readonly (SigningEvent | InternalEvent)[];

export const SIGNING_INPUTS = [
  { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation: 'London' },
  { documentId: 'd1', emailAddress: 'ada@paraph.test', defaultLocation: '' },
] as const satisfies readonly SigningInput[];

export const SIGN_CONFIRMATION_EVENTS = [
  { type: 'visibility.hidden' },
  { type: 'visibility.visible' },
  { type: 'resend.request' },
  { type: 'dialog.close' },
  done('fetchVersion', 'pending'),
  done('fetchVersion', 'signed'),
  done('fetchVersion', 'sign_limit_exceeded'),
  done('fetchVersion', 'presign_error'),
  done('fetchVersion', 'denied'),
  failed('fetchVersion', OFFLINE),
  failed('fetchVersion', { code: 'not_found', status: 404 }),
  done('resendNotification', undefined),
  failed('resendNotification', { code: 'too_many_requests', status: 429 }),
  failed('resendNotification', { code: 'action_not_allowed', status: 409 }),
  after('pollInterval', 'signConfirmation.waiting.poll.scheduled'),
  after('retryBackoff', 'signConfirmation.waiting.poll.backingOff'),
  after('resendCooldown', 'signConfirmation.waiting.resend.coolingDown'),
] as const satisfies readonly (SignConfirmationEvent | InternalEvent)[];

export const SIGN_CONFIRMATION_INPUTS = [
  { versionId: 'v1', confirmationUrl: 'http://localhost/idp/confirm/v1' },
] as const satisfies readonly SignConfirmationInput[];

export const VERIFICATION_EVENTS = [
  { type: 'file.selected', files: [PDF] },
  { type: 'file.selected', files: [sampleFile('scan.pdf', '', '%PDF-1.7\n')] },
  { type: 'file.selected', files: [sampleFile('notes.txt', 'text/plain')] },
  { type: 'file.selected', files: [PDF, sampleFile('annex.pdf', 'application/pdf')] },
  { type: 'file.selected', files: [sampleFile('blank.pdf', 'application/pdf', '')] },
  { type: 'file.selected', files: [] },
  { type: 'verification.retry' },
  { type: 'verification.reset' },
  done('verifyPdf', sampleVerificationReport()),
  done('verifyPdf', sampleVerificationReport({ verdict: 'no_signatures', level: null, signatures: [] })),
  failed('verifyPdf', OFFLINE),
  failed('verifyPdf', { code: 'not_a_pdf', status: 422 }),
  failed('verifyPdf', { code: 'too_many_requests', status: 429 }),
] as const satisfies readonly (VerificationEvent | InternalEvent)[];

export type MachineEvents = {
  events: readonly EventObject[];
  /** The inputs a real actor can start with; one path set is generated per input. */
  inputs?: readonly unknown[];
};

/** Every registered machine's events and inputs: a machine missing here does not compile. */
export const MACHINE_EVENTS = {
  shell: { events: SHELL_EVENTS, inputs: SHELL_INPUTS },
  session: { events: SESSION_EVENTS, inputs: SESSION_INPUTS },
  modal: { events: MODAL_EVENTS },
  upload: { events: UPLOAD_EVENTS },
  'document-list': { events: DOCUMENT_LIST_EVENTS, inputs: DOCUMENT_LIST_INPUTS },
  document: { events: DOCUMENT_EVENTS, inputs: DOCUMENT_INPUTS },
  connections: { events: CONNECTIONS_EVENTS },
  'sign-groups': { events: SIGN_GROUPS_EVENTS },
  settings: { events: SETTINGS_EVENTS, inputs: SETTINGS_INPUTS },
  language: { events: LANGUAGE_EVENTS, inputs: LANGUAGE_INPUTS },
  welcome: { events: WELCOME_EVENTS },
  'audit-trail-download': { events: AUDIT_TRAIL_DOWNLOAD_EVENTS, inputs: AUDIT_TRAIL_DOWNLOAD_INPUTS },
  'error-report': { events: ERROR_REPORT_EVENTS, inputs: ERROR_REPORT_INPUTS },
  'document-details': { events: DOCUMENT_DETAILS_EVENTS, inputs: DOCUMENT_DETAILS_INPUTS },
  download: { events: DOWNLOAD_EVENTS, inputs: DOWNLOAD_INPUTS },
  'invite-accept': { events: INVITE_ACCEPT_EVENTS, inputs: INVITE_ACCEPT_INPUTS },
  'document-actions': { events: DOCUMENT_ACTIONS_EVENTS },
  'sign-flow-form': { events: SIGN_FLOW_FORM_EVENTS, inputs: SIGN_FLOW_FORM_INPUTS },
  'participant-search': { events: PARTICIPANT_SEARCH_EVENTS, inputs: PARTICIPANT_SEARCH_INPUTS },
  'document-lifecycle': { events: DOCUMENT_LIFECYCLE_EVENTS },
  'signature-placement': { events: SIGNATURE_PLACEMENT_EVENTS, inputs: SIGNATURE_PLACEMENT_INPUTS },
  signing: { events: SIGNING_EVENTS, inputs: SIGNING_INPUTS },
  'sign-confirmation': { events: SIGN_CONFIRMATION_EVENTS, inputs: SIGN_CONFIRMATION_INPUTS },
  verification: { events: VERIFICATION_EVENTS },
} satisfies Record<MachineName, MachineEvents>;

/** A registered machine with the events and inputs the gate and the exporter send it. */
export function registeredMachine(name: MachineName): RegisteredMachine {
  return { machine: MACHINES[name], ...MACHINE_EVENTS[name] };
}
