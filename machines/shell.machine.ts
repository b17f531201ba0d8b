// The app's root actor: it owns the long-lived actors (session, modal, document actions, welcome screen,
// language) as children with system ids, wires them to each other, and keeps the notice the next list
// shows. Children never reach each other through views: what one needs of another goes through this
// machine (an announcement to the parent, passed on with sendTo) or straight to a sibling by its system
// id. Screens' own actors live with their views and hear `documents.changed` from here (emitted).
import {
  assign,
  emit,
  enqueueActions,
  sendParent,
  sendTo,
  setup,
  type ActorRefFrom,
  type AnyActorRef,
  type AnyActorScope,
} from 'xstate';
import { ACTION_MODAL_NAMES, type DocumentAction } from './document-actions-rules.ts';
import { documentActionsMachine } from './document-actions.machine.ts';
import { languageMachine, type LanguageInput } from './language.machine.ts';
import { modalMachine, type ModalName } from './modal.machine.ts';
import { sessionMachine } from './session.machine.ts';
import type { DocumentResource, Profile } from './types';
import { welcomeMachine } from './welcome.machine.ts';

/** The stored token and the language to start with (read, with its catalog, before the first render). */
export type ShellInput = { storedToken: string | null; language: LanguageInput };

/** Why the list was reached without the person asking (a download or invitation that led nowhere). */
export const NOTICE_CODES = [
  'download_unavailable',
  'invite_not_found',
  'invite_failed',
  'invite_no_document',
] as const;
export type NoticeCode = (typeof NOTICE_CODES)[number];

export type ShellContext = {
  storedToken: string | null;
  /** Handed to the language actor when it starts; from then on that actor owns the language on screen. */
  startLanguage: LanguageInput;
  /** The modal on screen, as the modal actor last announced it. */
  openModal: string | null;
  /** The profile's welcome flag, once the session has read a profile. */
  welcomeScreenWatched: boolean | null;
  notice: NoticeCode | null;
};

export type ShellEvent =
  | { type: 'documents.changed'; selectId?: string }
  | { type: 'profile.loaded'; welcomeScreenWatched: boolean; locale: string }
  | { type: 'modal.changed'; name: string | null }
  | { type: 'modal.confirmed'; name: string }
  | { type: 'action.request'; action: DocumentAction; documents: DocumentResource[] }
  | { type: 'notice.show'; code: NoticeCode }
  | { type: 'notice.dismiss' };

/** Screens' actors listen for this (actor.on) to load again what a change elsewhere made stale. */
export type ShellEmitted = { type: 'documents.changed'; selectId?: string };

export type ShellParts = {
  session: typeof sessionMachine;
  modal: typeof modalMachine;
  documentActions: typeof documentActionsMachine;
  welcome: typeof welcomeMachine;
  language: typeof languageMachine;
};

type SystemArgs = { system: AnyActorScope['system'] };
const sibling =
  (systemId: string) =>
  ({ system }: SystemArgs): AnyActorRef => {
    const actor = system.get(systemId) as AnyActorRef | undefined;
    if (!actor) throw new Error(`no actor '${systemId}' in the shell's system`);
    return actor;
  };

const toSession = sibling('session');
const toModal = sibling('modal');

/** The children's hooks wired to the shell and to each other; their services come from the composition. */
function wire(parts: ShellParts) {
  return {
    session: parts.session.provide({
      actions: {
        announceProfile: sendParent((_, params: { profile: Profile }) => ({
          type: 'profile.loaded' as const,
          welcomeScreenWatched: params.profile.welcomeScreenWatched,
          locale: params.profile.locale,
        })),
      },
    }),
    modal: parts.modal.provide({
      actions: {
        announceChange: sendParent((_, params: { name: string | null }) => ({
          type: 'modal.changed' as const,
          name: params.name,
        })),
        announceConfirmed: sendParent((_, params: { name: string }) => ({
          type: 'modal.confirmed' as const,
          name: params.name,
        })),
      },
    }),
    documentActions: parts.documentActions.provide({
      actions: {
        openDialog: sendTo(toModal, (_, params: { name: ModalName }) => ({
          type: 'modal.open' as const,
          name: params.name,
        })),
        closeModal: sendTo(toModal, { type: 'modal.close' }),
        refreshList: sendParent({ type: 'documents.changed' }),
        refreshProfile: sendTo(toSession, { type: 'profile.refresh' }),
      },
    }),
    welcome: parts.welcome.provide({
      actions: {
        openWelcome: sendTo(toModal, { type: 'modal.open', name: 'welcome' }),
        refreshProfile: sendTo(toSession, { type: 'profile.refresh' }),
      },
    }),
    language: parts.language.provide({
      actions: { refreshProfile: sendTo(toSession, { type: 'profile.refresh' }) },
    }),
  };
}

const isActionModal = (name: string | null) =>
  name !== null && (ACTION_MODAL_NAMES as readonly string[]).includes(name);

type Args = { context: ShellContext };

export function createShellMachine(parts: ShellParts) {
  return setup({
    types: {
      context: {} as ShellContext,
      events: {} as ShellEvent,
      input: {} as ShellInput,
      emitted: {} as ShellEmitted,
      children: {} as {
        session: 'session';
        modal: 'modal';
        documentActions: 'documentActions';
        welcome: 'welcome';
        language: 'language';
      },
    },
    actors: wire(parts),
    actions: {
      announceDocumentsChanged: emit((_, params: { selectId?: string }) => ({
        type: 'documents.changed' as const,
        ...(params.selectId ? { selectId: params.selectId } : {}),
      })),
      keepProfileFlags: assign((_, params: { welcomeScreenWatched: boolean }) => ({
        welcomeScreenWatched: params.welcomeScreenWatched,
      })),
      keepOpenModal: assign((_, params: { name: string | null }) => ({ openModal: params.name })),
      alignLocale: sendTo('language', (_, params: { locale: string }) => ({
        type: 'language.align' as const,
        profileLocale: params.locale,
      })),
      // The welcome machine decides; it hears the profile's flag and whether a modal is in the way.
      checkWelcome: sendTo('welcome', ({ context }: Args) => ({
        type: 'welcome.check' as const,
        welcomeScreenWatched: context.welcomeScreenWatched ?? true,
        isModalOpen: context.openModal !== null,
      })),
      followModal: enqueueActions(
        ({ context, enqueue }, params: { from: string | null; to: string | null }) => {
          // Leaving a document action's dialog (Esc, Cancel, a click outside) drops its request; going
          // from one action's dialog to another's keeps the new request.
          if (isActionModal(params.from) && !isActionModal(params.to)) {
            enqueue.sendTo('documentActions', { type: 'action.dismiss' });
          }
          // However the welcome modal went (its buttons, Esc, the upload it offers), it is closed; the
          // welcome machine only hears this while it shows.
          if (params.to !== 'welcome') enqueue.sendTo('welcome', { type: 'welcome.closed' });
          // The welcome screen waits for no modal being open: each change may be its moment.
          if (context.welcomeScreenWatched !== null) {
            enqueue.sendTo('welcome', {
              type: 'welcome.check',
              welcomeScreenWatched: context.welcomeScreenWatched,
              isModalOpen: params.to !== null,
            });
          }
        },
      ),
      confirmAction: sendTo('documentActions', { type: 'action.confirm' }),
      requestAction: sendTo(
        'documentActions',
        (_, params: { action: DocumentAction; documents: DocumentResource[] }) => ({
          type: 'action.request' as const,
          action: params.action,
          documents: params.documents,
        }),
      ),
      showNotice: assign((_, params: { code: NoticeCode }) => ({ notice: params.code })),
      dismissNotice: assign({ notice: null }),
    },
    guards: {
      isActionModal: (_, params: { name: string | null }) => isActionModal(params.name),
    },
  }).createMachine({
    id: 'shell',
    context: ({ input }) => ({
      storedToken: input.storedToken,
      startLanguage: input.language,
      openModal: null,
      welcomeScreenWatched: null,
      notice: null,
    }),
    invoke: [
      {
        id: 'session',
        systemId: 'session',
        src: 'session',
        input: ({ context }: Args) => ({ storedToken: context.storedToken }),
      },
      { id: 'modal', systemId: 'modal', src: 'modal' },
      { id: 'documentActions', systemId: 'documentActions', src: 'documentActions' },
      { id: 'welcome', systemId: 'welcome', src: 'welcome' },
      {
        id: 'language',
        systemId: 'language',
        src: 'language',
        input: ({ context }: Args) => context.startLanguage,
      },
    ],
    on: {
      'documents.changed': {
        actions: {
          type: 'announceDocumentsChanged',
          params: ({ event }) => (event.selectId ? { selectId: event.selectId } : {}),
        },
      },
      'modal.changed': {
        actions: [
          {
            type: 'followModal',
            params: ({ context, event }) => ({ from: context.openModal, to: event.name }),
          },
          { type: 'keepOpenModal', params: ({ event }) => event },
        ],
      },
      'modal.confirmed': {
        guard: { type: 'isActionModal', params: ({ event }) => ({ name: event.name }) },
        actions: 'confirmAction',
      },
      'action.request': { actions: { type: 'requestAction', params: ({ event }) => event } },
      'notice.show': { actions: { type: 'showNotice', params: ({ event }) => event } },
      'notice.dismiss': { actions: 'dismissNotice' },
    },
    // The language is lined up with the first profile only: later reads must not undo a choice made since.
    initial: 'waitingForProfile',
    states: {
      waitingForProfile: {
        on: {
          'profile.loaded': {
            target: 'ready',
            actions: [
              { type: 'keepProfileFlags', params: ({ event }) => event },
              { type: 'alignLocale', params: ({ event }) => ({ locale: event.locale }) },
              'checkWelcome',
            ],
          },
        },
      },
      ready: {
        on: {
          'profile.loaded': {
            actions: [{ type: 'keepProfileFlags', params: ({ event }) => event }, 'checkWelcome'],
          },
        },
      },
    },
  });
}

/**
 * The machine with its children's placeholders: the registry, the gate and the inspector read this one.
 * The app runs src/app/compose.ts's instead and names this one only as a type: marked pure, the build
 * leaves it out, and with it the start-up cost of building every child machine's state tree once more.
 */
export const shellMachine = /* @__PURE__ */ createShellMachine({
  session: sessionMachine,
  modal: modalMachine,
  documentActions: documentActionsMachine,
  welcome: welcomeMachine,
  language: languageMachine,
});

export type ShellActorRef = ActorRefFrom<typeof shellMachine>;
