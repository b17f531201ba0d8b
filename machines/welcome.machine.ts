// The welcome screen on first use (spec 000 §1): once the signed-in profile says welcomeScreenWatched is
// false and no other modal is open, the welcome modal opens, once per page. However it closes (its
// buttons, Esc, the upload it offers), welcome_screen_watched is saved; a failed save is not retried, so
// the profile still says false and the screen shows again at the next start. Lives with the shell.
import { fromPromise, setup } from 'xstate';

export type WelcomeEvent =
  { type: 'welcome.check'; welcomeScreenWatched: boolean; isModalOpen: boolean } | { type: 'welcome.closed' };

type CheckParams = { welcomeScreenWatched: boolean; isModalOpen: boolean };
const checkOfEvent = ({ event }: { event: CheckParams }) => ({
  welcomeScreenWatched: event.welcomeScreenWatched,
  isModalOpen: event.isModalOpen,
});

export const welcomeMachine = setup({
  types: {
    events: {} as WelcomeEvent,
    tags: {} as 'busy',
  },
  actors: {
    saveWelcomeScreenWatched: fromPromise<void>(async () => {
      throw new Error('saveWelcomeScreenWatched not provided');
    }),
  },
  actions: {
    openWelcome: () => {},
    refreshProfile: () => {},
  },
  guards: {
    isWatched: (_, params: CheckParams) => params.welcomeScreenWatched,
    canShow: (_, params: CheckParams) => !params.welcomeScreenWatched && !params.isModalOpen,
  },
}).createMachine({
  id: 'welcome',
  initial: 'waiting',
  states: {
    waiting: {
      on: {
        'welcome.check': [
          { guard: { type: 'isWatched', params: checkOfEvent }, target: 'watched' },
          { guard: { type: 'canShow', params: checkOfEvent }, target: 'showing', actions: 'openWelcome' },
        ],
      },
    },
    showing: {
      on: { 'welcome.closed': 'saving' },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveWelcomeScreenWatched',
        src: 'saveWelcomeScreenWatched',
        onDone: { target: 'watched', actions: 'refreshProfile' },
        onError: 'unsaved',
      },
    },
    watched: {},
    // Shown and closed, but the profile still says false: not shown again in this page.
    unsaved: {},
  },
});
