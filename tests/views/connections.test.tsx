import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import type {
  AddConnectionInput,
  ConnectionsData,
  PersonProfile,
  RowActionInput,
  SearchInput,
} from '../../machines/connections.machine';
import { modalMachine } from '../../machines/modal.machine';
import { sampleConnection, samplePerson, sampleRequest } from '../samples';
import { composeConnections } from '../../src/app/compose-connections';
import { ConnectionsPage } from '../../src/views/connections/connections-page';
import { deferred } from '../machines/support';
import { findOpenDialog, isDisabled, renderView, waitForDialogsClosed } from './render';

// Midday UTC is the same calendar day in every time zone the tests may run in.
const BOB = sampleConnection('c-bob', { lastSeenAt: '2030-01-02T12:00:00.000Z' });
const CAROL = sampleConnection('c-carol', {
  fullName: 'Carol Shaw',
  emailAddress: 'carol@paraph.test',
  lastSeenAt: null,
});
const INBOUND = sampleRequest('r-in');
const OUTBOUND = sampleRequest('r-out', {
  direction: 'outbound',
  profile: samplePerson('profile-erin', { fullName: 'Erin Hale', emailAddress: 'erin@paraph.test' }),
});
const INVITATION = sampleRequest('r-invite', {
  direction: 'outbound',
  profile: null,
  invitationEmailAddress: 'frank@elsewhere.test',
});
const GRACE = samplePerson('profile-grace', { fullName: 'Grace Hopper', emailAddress: 'grace@paraph.test' });

let modal: Actor<typeof modalMachine>;

beforeEach(() => {
  modal = createActor(modalMachine).start();
});

afterEach(() => modal.stop());

type Fakes = {
  fetch?: () => Promise<ConnectionsData>;
  search?: (input: SearchInput) => Promise<PersonProfile[]>;
  add?: (input: AddConnectionInput) => Promise<void>;
  accept?: (input: RowActionInput) => Promise<void>;
};

function pageWith(fakes: Fakes = {}) {
  const fetchConnections = vi.fn(fakes.fetch ?? (async () => ({ connections: [BOB, CAROL], requests: [] })));
  const searchProfiles = vi.fn(fakes.search ?? (async () => [GRACE]));
  const addConnection = vi.fn(fakes.add ?? (async () => {}));
  const acceptRequest = vi.fn(fakes.accept ?? (async () => {}));
  const refuseRequest = vi.fn(async (_input: RowActionInput) => {});
  const cancelRequest = vi.fn(async (_input: RowActionInput) => {});
  const removeConnection = vi.fn(async (_input: RowActionInput) => {});
  const refreshProfile = vi.fn();
  // As the app composes it, with the shell's modal actor: the page itself never touches that actor, so
  // it is open only because the connections machine said so.
  const logic = composeConnections(modal, { send: refreshProfile }).provide({
    actors: {
      fetchConnections: fromPromise<ConnectionsData>(() => fetchConnections()),
      searchProfiles: fromPromise<PersonProfile[], SearchInput>(({ input }) => searchProfiles(input)),
      addConnection: fromPromise<void, AddConnectionInput>(({ input }) => addConnection(input)),
      acceptRequest: fromPromise<void, RowActionInput>(({ input }) => acceptRequest(input)),
      refuseRequest: fromPromise<void, RowActionInput>(({ input }) => refuseRequest(input)),
      cancelRequest: fromPromise<void, RowActionInput>(({ input }) => cancelRequest(input)),
      removeConnection: fromPromise<void, RowActionInput>(({ input }) => removeConnection(input)),
    },
    // The debounce's length is the machine tests' business; here it only has to happen.
    delays: { SEARCH_DEBOUNCE: 0 },
  });
  return {
    logic,
    fetchConnections,
    searchProfiles,
    addConnection,
    acceptRequest,
    refuseRequest,
    cancelRequest,
    removeConnection,
    refreshProfile,
  };
}

// No shell modal wiring in the page: it talks to its own machine only.
function renderPage(ui: ReactElement) {
  return renderView(ui, { path: '/connections/users' });
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('connections page', () => {
  it("lists each connection's name, e-mail and last seen, or 'Never'", async () => {
    const { logic } = pageWith();
    renderPage(<ConnectionsPage logic={logic} />);

    const table = await screen.findByRole('table', { name: 'Connections' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const bob = rowOf('Bob Builder');
    expect(within(bob).getByText('bob@paraph.test')).toBeVisible();
    expect(within(bob).getByText(/^Jan 2 2030, \d{2}:\d{2}$/)).toBeVisible();
    const carol = rowOf('Carol Shaw');
    expect(within(carol).getByText('carol@paraph.test')).toBeVisible();
    expect(within(carol).getByText('Never')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Connections' })).toBeVisible();
    expect(document.title).toBe('Connections · Paraph');
  });

  it('shows the two tabs, the Connections one selected', async () => {
    const { logic } = pageWith();
    renderPage(<ConnectionsPage logic={logic} />);
    const tabs = await screen.findByRole('tablist', { name: 'Connections and sign groups' });
    expect(within(tabs).getByRole('tab', { name: 'Connections' }).getAttribute('aria-selected')).toBe('true');
    expect(within(tabs).getByRole('tab', { name: 'Sign groups' }).getAttribute('aria-selected')).toBe(
      'false',
    );
  });

  it('shows a spinner while loading', async () => {
    const pending = deferred<ConnectionsData>();
    const { logic } = pageWith({ fetch: () => pending.promise });
    renderPage(<ConnectionsPage logic={logic} />);
    expect(screen.getByText('Loading connections')).toBeVisible();
    pending.resolve({ connections: [BOB], requests: [] });
    const table = await screen.findByRole('table', { name: 'Connections' });
    // The header and Bob's row.
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByText('Loading connections')).toBeNull();
  });

  it('animates the rows in 100 ms apart', async () => {
    const { logic } = pageWith();
    renderPage(<ConnectionsPage logic={logic} />);

    await screen.findByRole('table', { name: 'Connections' });
    expect(rowOf('Bob Builder').style.animationDelay).toBe('0ms');
    expect(rowOf('Carol Shaw').style.animationDelay).toBe('100ms');
  });

  it('says so when there are no connections', async () => {
    const { logic } = pageWith({ fetch: async () => ({ connections: [], requests: [] }) });
    renderPage(<ConnectionsPage logic={logic} />);

    expect(await screen.findByText('You have no connections yet.')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a data error whose retry loads the connections again', async () => {
    const { logic, fetchConnections } = pageWith();
    fetchConnections.mockRejectedValueOnce({ code: 'internal_error', status: 500 });
    const user = userEvent.setup();
    renderPage(<ConnectionsPage logic={logic} />);

    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByText('An error has occurred. Please try again in a few moments.'),
    ).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const table = await screen.findByRole('table', { name: 'Connections' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchConnections).toHaveBeenCalledTimes(2);
  });
});

describe('connections page: requests', () => {
  const withRequests = async () => ({ connections: [BOB], requests: [INBOUND, OUTBOUND, INVITATION] });

  it('shows each request with its direction, and an invitation by its e-mail', async () => {
    const { logic } = pageWith({ fetch: withRequests });
    renderPage(<ConnectionsPage logic={logic} />);

    const list = await screen.findByRole('list', { name: 'Requests' });
    const [inbound, outbound, invitation] = within(list).getAllByRole('listitem');
    if (!inbound || !outbound || !invitation) throw new Error('three requests expected');
    expect(within(inbound).getByText('Dan Brown')).toBeVisible();
    expect(within(inbound).getByText('Wants to connect with you')).toBeVisible();
    expect(within(inbound).getByRole('button', { name: 'Accept the request of Dan Brown' })).toBeEnabled();
    expect(within(inbound).getByRole('button', { name: 'Reject the request of Dan Brown' })).toBeEnabled();
    expect(within(outbound).getByText('Waiting for their answer')).toBeVisible();
    expect(within(outbound).getByRole('button', { name: 'Cancel the request to Erin Hale' })).toBeEnabled();
    expect(within(outbound).queryByRole('button', { name: /Accept/ })).toBeNull();
    expect(within(invitation).getByText('frank@elsewhere.test')).toBeVisible();
    expect(within(invitation).getByText('Invited by e-mail, waiting for their sign-up')).toBeVisible();
  });

  it('sends one accept for a double click, disables the buttons meanwhile, then refreshes the badge', async () => {
    const accepted = deferred<void>();
    const { logic, acceptRequest, fetchConnections, refreshProfile } = pageWith({
      fetch: withRequests,
      accept: () => accepted.promise,
    });
    const user = userEvent.setup();
    renderPage(<ConnectionsPage logic={logic} />);

    const accept = await screen.findByRole('button', { name: 'Accept the request of Dan Brown' });
    await user.dblClick(accept);
    expect(acceptRequest).toHaveBeenCalledTimes(1);
    expect(acceptRequest).toHaveBeenCalledWith({ id: 'r-in' });
    expect(isDisabled(accept)).toBe(true);
    expect(isDisabled(screen.getByRole('button', { name: 'Reject the request of Dan Brown' }))).toBe(true);

    fetchConnections.mockResolvedValueOnce({ connections: [BOB, CAROL], requests: [] });
    accepted.resolve();
    expect(await screen.findByText('Carol Shaw')).toBeVisible();
    expect(refreshProfile).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('list', { name: 'Requests' })).toBeNull();
  });

  it('shows the action error banner when an action fails', async () => {
    const { logic } = pageWith({
      fetch: withRequests,
      accept: async () => {
        throw { code: 'internal_error', status: 500 };
      },
    });
    const user = userEvent.setup();
    renderPage(<ConnectionsPage logic={logic} />);

    await user.click(await screen.findByRole('button', { name: 'Accept the request of Dan Brown' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('An error has occurred while trying to accept the request.');
    await user.click(within(banner).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('removes a connection only after the destructive confirmation', async () => {
    const { logic, removeConnection } = pageWith();
    const user = userEvent.setup();
    renderPage(<ConnectionsPage logic={logic} />);

    await user.click(await screen.findByRole('button', { name: 'Remove Carol Shaw' }));
    const dialog = await findOpenDialog();
    expect(within(dialog).getByText(/Remove Carol Shaw from your connections\?/)).toBeVisible();
    expect(removeConnection).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(removeConnection).toHaveBeenCalledWith({ id: 'c-carol' });
  });
});

describe('connections page: add by e-mail', () => {
  async function openAdd(fakes: Fakes = {}) {
    const page = pageWith(fakes);
    const user = userEvent.setup();
    renderPage(<ConnectionsPage logic={page.logic} />);
    await screen.findByRole('table', { name: 'Connections' });
    await user.click(screen.getByRole('button', { name: 'Add a connection' }));
    const dialog = await findOpenDialog();
    const input = within(dialog).getByRole('searchbox', { name: 'E-mail address or name' });
    return { ...page, user, dialog, input };
  }

  it('tells the shell the addConnection modal is open', async () => {
    await openAdd();
    expect(modal.getSnapshot().matches('open')).toBe(true);
    expect(modal.getSnapshot().context.name).toBe('addConnection');
  });

  it('closes with Esc, and opens again empty, the shell agreeing each time', async () => {
    const { user, input, searchProfiles } = await openAdd();
    await user.type(input, 'gr');
    await user.keyboard('{Escape}');
    await waitForDialogsClosed();
    expect(modal.getSnapshot().matches('closed')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Add a connection' }));
    const dialog = await findOpenDialog();
    const again = within(dialog).getByRole('searchbox', { name: 'E-mail address or name' });
    expect((again as HTMLInputElement).value).toBe('');
    expect(modal.getSnapshot().context.name).toBe('addConnection');

    // The reopened dialog is live: it searches, and Cancel closes it for the shell too.
    await user.type(again, 'grace');
    expect((await within(dialog).findByTestId('connection-search-result')).textContent).toContain(
      'Grace Hopper',
    );
    expect(searchProfiles).toHaveBeenLastCalledWith({ query: 'grace' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitForDialogsClosed();
    expect(modal.getSnapshot().matches('closed')).toBe(true);
  });

  it('sends nothing for two characters and keeps Add disabled', async () => {
    const { user, dialog, input, searchProfiles } = await openAdd();
    await user.type(input, 'gr');
    expect(within(dialog).getByText('Type at least 3 characters.')).toBeVisible();
    expect(isDisabled(within(dialog).getByRole('button', { name: 'Add' }))).toBe(true);
    expect(searchProfiles).not.toHaveBeenCalled();
  });

  it('shows the first result that is not already a connection and adds it', async () => {
    const { user, dialog, input, searchProfiles, addConnection } = await openAdd({
      search: async () => [
        samplePerson('profile-c-bob'),
        GRACE,
        samplePerson('profile-zed', { fullName: 'Zed' }),
      ],
    });
    await user.type(input, 'paraph');
    const result = await within(dialog).findByTestId('connection-search-result');
    expect(within(result).getByText('Grace Hopper')).toBeVisible();
    expect(within(dialog).queryByText('Zed')).toBeNull();
    expect(searchProfiles).toHaveBeenLastCalledWith({ query: 'paraph' });

    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(addConnection).toHaveBeenCalledWith({
      to: 'profile-grace',
      invitationEmailAddress: 'grace@paraph.test',
    });
    await vi.waitFor(() => expect(modal.getSnapshot().matches('closed')).toBe(true));
  });

  it('offers to invite an address nobody was found for', async () => {
    const { user, dialog, input, addConnection } = await openAdd({ search: async () => [] });
    await user.type(input, 'new@example.org');
    expect(await within(dialog).findByText(/You can invite new@example.org\./)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Invite' }));
    expect(addConnection).toHaveBeenCalledWith({ to: null, invitationEmailAddress: 'new@example.org' });
  });

  it('says so when adding fails, keeping the dialog and the query', async () => {
    const { user, dialog, input } = await openAdd({
      add: async () => {
        throw { code: 'already_connected', status: 409 };
      },
    });
    await user.type(input, 'grace');
    await user.click(await within(dialog).findByRole('button', { name: 'Add' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'An error has occurred while trying to add the connection.',
    );
    expect((input as HTMLInputElement).value).toBe('grace');
    expect(modal.getSnapshot().matches('open')).toBe(true);
  });
});
