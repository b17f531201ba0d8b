// Which named modal is open, its error, and the keyboard rules of spec 000 §2 "Modals": Esc closes,
// Enter confirms the confirm and delete dialogs. One actor for the app's lifetime, a child of the shell;
// the modal's own work (a delete, an upload) lives in that modal's machine, which opens and closes it
// here. What the dialog acts on is that machine's context, never the modal's: a request is only a name.
// Every change of the open modal and every Enter that confirms is announced (the shell passes them on).
import { assign, setup } from 'xstate';

export const MODAL_NAMES = [
  'confirm',
  'documentUpload',
  'refuse',
  'delete',
  'deleteMultiple',
  'archive',
  'archiveMultiple',
  'addConnection',
  'signGroupEdit',
  'signGroupDelete',
  'signatureList',
  'signatureEdit',
  'signConfirmation',
  'welcome',
] as const;
export type ModalName = (typeof MODAL_NAMES)[number];

/**
 * The dialogs where Enter means "yes": spec 000 §2 names confirm and delete; archive is as harmless to
 * confirm and people expect the same key to work there (docs/decisions.md "Enter in the dialogs").
 */
export const CONFIRM_MODAL_NAMES: readonly ModalName[] = [
  'confirm',
  'delete',
  'deleteMultiple',
  'archive',
  'archiveMultiple',
];

export type ModalContext = {
  name: string | null;
  errorCode: string | null;
};

/** A modal is asked for by its name alone; an unknown name (from an older page) opens the "no such modal". */
export type ModalEvent =
  | { type: 'modal.open'; name: ModalName }
  | { type: 'modal.close' }
  | { type: 'key.escape' }
  | { type: 'key.enter' }
  | { type: 'modal.error'; code: string }
  | { type: 'modal.errorCleared' };

export function isModalName(name: string): name is ModalName {
  return (MODAL_NAMES as readonly string[]).includes(name);
}

const nameOfEvent = ({ event }: { event: { name: string } }) => ({ name: event.name });
const noModal = () => ({ name: null });
const codeOfEvent = ({ event }: { event: { code: string } }) => ({ code: event.code });
const nameOfContext = ({ context }: { context: ModalContext }) => ({ name: context.name ?? '' });

const CLOSE = {
  target: '#modal.closed',
  actions: ['forgetModal', { type: 'announceChange', params: noModal }],
} as const;

export const modalMachine = setup({
  types: {
    context: {} as ModalContext,
    events: {} as ModalEvent,
    tags: {} as 'error',
  },
  actions: {
    announceChange: (_, _params: { name: string | null }) => {},
    announceConfirmed: (_, _params: { name: string }) => {},
    showModal: assign((_, params: { name: string }) => ({ name: params.name, errorCode: null })),
    forgetModal: assign({ name: null, errorCode: null }),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
  },
  guards: {
    isKnownModal: (_, params: { name: string }) => isModalName(params.name),
    isConfirmModal: ({ context }) => CONFIRM_MODAL_NAMES.some((name) => name === context.name),
  },
}).createMachine({
  id: 'modal',
  context: { name: null, errorCode: null },
  initial: 'closed',
  on: {
    'modal.open': [
      {
        guard: { type: 'isKnownModal', params: nameOfEvent },
        target: '.open',
        reenter: true,
        actions: [
          { type: 'showModal', params: nameOfEvent },
          { type: 'announceChange', params: nameOfEvent },
        ],
      },
      {
        target: '.unknown',
        actions: [
          { type: 'showModal', params: nameOfEvent },
          { type: 'announceChange', params: nameOfEvent },
        ],
      },
    ],
  },
  states: {
    closed: {},
    open: {
      initial: 'idle',
      on: {
        'modal.close': CLOSE,
        'key.escape': CLOSE,
        'key.enter': {
          guard: 'isConfirmModal',
          actions: { type: 'announceConfirmed', params: nameOfContext },
        },
        'modal.error': { target: '.error', actions: { type: 'rememberError', params: codeOfEvent } },
      },
      states: {
        idle: {},
        error: {
          tags: ['error'],
          on: { 'modal.errorCleared': { target: 'idle', actions: 'clearError' } },
        },
      },
    },
    unknown: {
      on: { 'modal.close': CLOSE, 'key.escape': CLOSE },
    },
  },
});
