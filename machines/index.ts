// The registry of every machine (docs/machines.md). For each: the machine, every event it accepts with
// representative payloads (actor results and timers included, as xstate.done.actor.<id>,
// xstate.error.actor.<id> and xstate.after.<DELAY>.<state id>), and the inputs it can start with.
// The model-based gate (tests/machines/gate.test.ts), the QA path exporter (scripts/paths.ts) and the
// inspector read it, so a transition that no listed event can take fails the gate.
import type { AnyStateMachine, EventObject } from 'xstate';
import { connectionsMachine, type ConnectionsEvent } from './connections.machine';
import { documentListMachine, type DocumentListEvent, type DocumentListInput } from './document-list.machine';
import { documentMachine, type DocumentEvent, type DocumentInput } from './document.machine';
import { modalMachine, type ModalEvent } from './modal.machine';
import {
  SAMPLE_PROFILE,
  SAMPLE_TICKET,
  SAMPLE_TICKET_TINY_LIMIT,
  sampleConnection,
  sampleDocument,
  sampleFile,
  samplePage,
} from './samples';
import { sessionMachine, type SessionEvent, type SessionInput } from './session.machine';
import { uploadMachine, type UploadEvent } from './upload.machine';

export type MachineEntry = {
  machine: AnyStateMachine;
  events: readonly EventObject[];
  /** The inputs a real actor can start with; one path set is generated per input. */
  inputs?: readonly unknown[];
};

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
  { type: 'modal.open', name: 'delete', props: { documentId: 'd1' } },
  { type: 'modal.open', name: 'welcome' },
  { type: 'modal.open', name: 'noSuchModal' },
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
  { type: 'search.changed', term: '  contract ' },
  { type: 'search.submit' },
  { type: 'search.clear' },
  { type: 'sort.changed', direction: 'asc' },
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

export const CONNECTIONS_EVENTS = [
  { type: 'connections.reload' },
  done('fetchConnections', [
    sampleConnection('c1'),
    sampleConnection('c2', { fullName: 'Carol Shaw', emailAddress: 'carol@paraph.test', lastSeenAt: null }),
  ]),
  done('fetchConnections', []),
  failed('fetchConnections', OFFLINE),
] as const satisfies readonly (ConnectionsEvent | InternalEvent)[];

export const MACHINES = {
  session: { machine: sessionMachine, events: SESSION_EVENTS, inputs: SESSION_INPUTS },
  modal: { machine: modalMachine, events: MODAL_EVENTS },
  upload: { machine: uploadMachine, events: UPLOAD_EVENTS },
  'document-list': {
    machine: documentListMachine,
    events: DOCUMENT_LIST_EVENTS,
    inputs: DOCUMENT_LIST_INPUTS,
  },
  document: { machine: documentMachine, events: DOCUMENT_EVENTS, inputs: DOCUMENT_INPUTS },
  connections: { machine: connectionsMachine, events: CONNECTIONS_EVENTS },
} satisfies Record<string, MachineEntry>;

export type MachineName = keyof typeof MACHINES;

export { documentListMachine, documentMachine, modalMachine, sessionMachine, uploadMachine };
export { connectionsMachine };
export type { ConnectedProfile, Connection } from './connections.machine';
export * from './types';
