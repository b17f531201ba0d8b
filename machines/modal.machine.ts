// Which named modal is open, its error, and the keyboard rules of spec 000 §2 "Modals": Esc closes,
// Enter confirms the confirm and delete dialogs. One actor for the app's lifetime; the modal's own work
// (a delete, an upload) lives in that modal's machine, which reports failures here as codes.
import { assign, emit, setup } from 'xstate';

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

/** The dialogs where Enter means "yes". */
export const CONFIRM_MODAL_NAMES: readonly ModalName[] = ['confirm', 'delete', 'deleteMultiple'];

export type ModalProps = Record<string, unknown>;

export type ModalContext = {
  name: string | null;
  props: ModalProps;
  errorCode: string | null;
};

export type ModalEvent =
  | { type: 'modal.open'; name: string; props?: ModalProps }
  | { type: 'modal.close' }
  | { type: 'key.escape' }
  | { type: 'key.enter' }
  | { type: 'modal.error'; code: string }
  | { type: 'modal.errorCleared' };

/** Emitted (listen with `actor.on('modal.confirmed', ...)`) when Enter confirms a confirm dialog. */
export type ModalEmitted = { type: 'modal.confirmed'; name: string; props: ModalProps };

export function isModalName(name: string): name is ModalName {
  return (MODAL_NAMES as readonly string[]).includes(name);
}

const openedModal = ({ event }: { event: { name: string; props?: ModalProps } }) => ({
  name: event.name,
  props: event.props ?? {},
});
const nameOfEvent = ({ event }: { event: { name: string } }) => ({ name: event.name });
const codeOfEvent = ({ event }: { event: { code: string } }) => ({ code: event.code });
const confirmedModal = ({ context }: { context: ModalContext }) => ({
  name: context.name ?? '',
  props: context.props,
});

export const modalMachine = setup({
  types: {
    context: {} as ModalContext,
    events: {} as ModalEvent,
    emitted: {} as ModalEmitted,
    tags: {} as 'error',
  },
  actions: {
    showModal: assign((_, params: { name: string; props: ModalProps }) => ({
      name: params.name,
      props: params.props,
      errorCode: null,
    })),
    forgetModal: assign({ name: null, props: {}, errorCode: null }),
    rememberError: assign((_, params: { code: string }) => ({ errorCode: params.code })),
    clearError: assign({ errorCode: null }),
    notifyConfirmed: emit((_, params: { name: string; props: ModalProps }) => ({
      type: 'modal.confirmed' as const,
      name: params.name,
      props: params.props,
    })),
  },
  guards: {
    isKnownModal: (_, params: { name: string }) => isModalName(params.name),
    isConfirmModal: ({ context }) => CONFIRM_MODAL_NAMES.some((name) => name === context.name),
  },
}).createMachine({
  id: 'modal',
  context: { name: null, props: {}, errorCode: null },
  initial: 'closed',
  on: {
    'modal.open': [
      {
        guard: { type: 'isKnownModal', params: nameOfEvent },
        target: '.open',
        reenter: true,
        actions: { type: 'showModal', params: openedModal },
      },
      { target: '.unknown', actions: { type: 'showModal', params: openedModal } },
    ],
  },
  states: {
    closed: {},
    open: {
      initial: 'idle',
      on: {
        'modal.close': { target: 'closed', actions: 'forgetModal' },
        'key.escape': { target: 'closed', actions: 'forgetModal' },
        'key.enter': {
          guard: 'isConfirmModal',
          actions: { type: 'notifyConfirmed', params: confirmedModal },
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
      on: {
        'modal.close': { target: 'closed', actions: 'forgetModal' },
        'key.escape': { target: 'closed', actions: 'forgetModal' },
      },
    },
  },
});
