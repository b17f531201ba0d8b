import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import type { PersonProfile } from '../../machines/connections.machine';
import { modalMachine } from '../../machines/modal.machine';
import { samplePerson, sampleSignGroup } from '../samples';
import type { SaveSignGroupInput, SignGroup, SignGroupIdInput } from '../../machines/sign-groups.machine';
import { composeSignGroups } from '../../src/app/compose-connections';
import { SignGroupsPage } from '../../src/views/connections/sign-groups-page';
import { deferred } from '../machines/support';
import { findOpenDialog, isDisabled, renderView, waitForDialogsClosed } from './render';

const BOB = samplePerson('p-bob', { fullName: 'Bob Builder', emailAddress: 'bob@paraph.test' });
const CAROL = samplePerson('p-carol', { fullName: 'Carol Shaw', emailAddress: 'carol@paraph.test' });
const DAN = samplePerson('p-dan', { fullName: 'Dan Brown', emailAddress: 'dan@elsewhere.test' });
const BOARD = sampleSignGroup('g1', { name: 'Board', members: [BOB, CAROL] });

let modal: Actor<typeof modalMachine>;

beforeEach(() => {
  modal = createActor(modalMachine).start();
});

afterEach(() => {
  modal.stop();
  window.innerWidth = 1024;
});

type Fakes = {
  groups?: () => Promise<SignGroup[]>;
  group?: () => Promise<SignGroup>;
  save?: (input: SaveSignGroupInput) => Promise<void>;
  remove?: (input: SignGroupIdInput) => Promise<void>;
};

function renderGroups(fakes: Fakes = {}) {
  const fetchSignGroups = vi.fn(fakes.groups ?? (async () => [BOARD]));
  const fetchSignGroup = vi.fn(fakes.group ?? (async () => BOARD));
  const fetchMemberCandidates = vi.fn(async (): Promise<PersonProfile[]> => [BOB, CAROL, DAN]);
  const saveSignGroup = vi.fn(fakes.save ?? (async () => {}));
  const deleteSignGroup = vi.fn(fakes.remove ?? (async () => {}));
  // As the app composes it, with the shell's modal actor; the page, rendered without the shell,
  // never touches that actor, so it is open only because the sign-groups machine said so.
  const logic = composeSignGroups(modal).provide({
    actors: {
      fetchSignGroups: fromPromise<SignGroup[]>(() => fetchSignGroups()),
      fetchSignGroup: fromPromise<SignGroup, SignGroupIdInput>(() => fetchSignGroup()),
      fetchMemberCandidates: fromPromise<PersonProfile[]>(() => fetchMemberCandidates()),
      saveSignGroup: fromPromise<void, SaveSignGroupInput>(({ input }) => saveSignGroup(input)),
      deleteSignGroup: fromPromise<void, SignGroupIdInput>(({ input }) => deleteSignGroup(input)),
    },
  });
  renderView(<SignGroupsPage logic={logic} />, { path: '/connections/groups' });
  return { user: userEvent.setup(), fetchSignGroups, saveSignGroup, deleteSignGroup };
}

describe('sign groups page', () => {
  it('lists each group with its members, under the selected Sign groups tab', async () => {
    renderGroups();
    const table = await screen.findByRole('table', { name: 'Sign groups' });
    const row = within(table).getByText('Board').closest('tr');
    if (!row) throw new Error('no row for Board');
    expect(within(row).getByText('2 members')).toBeVisible();
    expect(within(row).getByText('Bob Builder, Carol Shaw')).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Sign groups' }).getAttribute('aria-selected')).toBe('true');
  });

  it('shows a spinner while loading, then the empty text', async () => {
    const pending = deferred<SignGroup[]>();
    renderGroups({ groups: () => pending.promise });
    expect(screen.getByText('Loading sign groups')).toBeVisible();
    pending.resolve([]);
    expect(await screen.findByText('You have no sign groups yet.')).toBeVisible();
  });

  it('shows a data error with a retry', async () => {
    const groups = vi
      .fn<() => Promise<SignGroup[]>>()
      .mockRejectedValueOnce({ code: 'internal_error', status: 500 })
      .mockResolvedValue([BOARD]);
    const { user } = renderGroups({ groups });
    const alert = await screen.findByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    const table = await screen.findByRole('table', { name: 'Sign groups' });
    // The header and the Board's row.
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stacks groups as cards with reachable buttons on a phone', async () => {
    window.innerWidth = 375;
    renderGroups();
    const list = await screen.findByRole('list', { name: 'Sign groups' });
    expect(within(list).getByRole('button', { name: 'Edit Board' })).toBeEnabled();
    expect(within(list).getByRole('button', { name: 'Delete Board' })).toBeEnabled();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('sign group editor', () => {
  async function openCreate() {
    const rendered = renderGroups();
    await screen.findByRole('table', { name: 'Sign groups' });
    await rendered.user.click(screen.getByRole('button', { name: 'Create a group' }));
    const dialog = await findOpenDialog();
    await within(dialog).findByRole('textbox', { name: /Group name/ });
    return { ...rendered, dialog };
  }

  it('keeps Create disabled without a name or members, with the validation messages', async () => {
    const { user, dialog } = await openCreate();
    const create = () => within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    expect(isDisabled(create())).toBe(true);

    const name = within(dialog).getByRole('textbox', { name: /Group name/ });
    await user.type(name, 'x');
    await user.clear(name);
    expect(within(dialog).getByText('You must provide a group name.')).toBeVisible();
    await user.type(name, 'Board 2');
    expect(isDisabled(create())).toBe(true);

    const search = within(dialog).getByRole('searchbox', { name: 'Add members' });
    await user.type(search, 'car');
    await user.click(within(dialog).getByRole('button', { name: 'Add Carol Shaw' }));
    expect(isDisabled(create())).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove Carol Shaw' }));
    expect(within(dialog).getByText('You must add at least one user to the group.')).toBeVisible();
    expect(isDisabled(create())).toBe(true);
  });

  it('searches the connections locally from 3 characters and says when none matches', async () => {
    const { user, dialog } = await openCreate();
    const search = within(dialog).getByRole('searchbox', { name: 'Add members' });
    await user.type(search, 'DA');
    expect(within(dialog).queryByRole('list', { name: 'Matching connections' })).toBeNull();
    await user.type(search, 'N');
    const results = within(dialog).getByRole('list', { name: 'Matching connections' });
    expect(within(results).getByText('Dan Brown')).toBeVisible();
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(within(dialog).getByText('No connection found.')).toBeVisible();
  });

  it('keeps a member list 140 px high that scrolls', async () => {
    const { dialog } = await openCreate();
    const members = within(dialog).getByTestId('sign-group-members');
    const style = window.getComputedStyle(members);
    expect(style.height).toBe('140px');
    expect(style.overflowY).toBe('auto');
  });

  it('names a member who is no longer a connection and keeps what was typed', async () => {
    const saved = vi.fn(async (_input: SaveSignGroupInput) => {
      throw { code: 'not_a_connection', status: 422, blockedIds: ['p-dan'] };
    });
    const rendered = renderGroups({ save: saved });
    await screen.findByRole('table', { name: 'Sign groups' });
    const { user } = rendered;
    await user.click(screen.getByRole('button', { name: 'Create a group' }));
    const dialog = await findOpenDialog();
    const name = await within(dialog).findByRole('textbox', { name: /Group name/ });
    await user.type(name, 'Board 2');
    const search = within(dialog).getByRole('searchbox', { name: 'Add members' });
    await user.type(search, 'dan');
    await user.click(within(dialog).getByRole('button', { name: 'Add Dan Brown' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Dan Brown is no longer one of your connections.');
    expect((name as HTMLInputElement).value).toBe('Board 2');
    expect(saved).toHaveBeenCalledWith({ groupId: null, name: 'Board 2', memberIds: ['p-dan'] });
  });

  it('says the group could not be loaded for editing', async () => {
    const rendered = renderGroups({
      group: async () => {
        throw { code: 'not_found', status: 404 };
      },
    });
    await screen.findByRole('table', { name: 'Sign groups' });
    await rendered.user.click(screen.getByRole('button', { name: 'Edit Board' }));
    const dialog = await findOpenDialog();
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'The sign group could not be loaded.',
    );
  });

  it('edits a group and saves it, closing the dialog', async () => {
    const { user, saveSignGroup } = renderGroups();
    await screen.findByRole('table', { name: 'Sign groups' });
    await user.click(screen.getByRole('button', { name: 'Edit Board' }));
    const dialog = await findOpenDialog();
    const name = await within(dialog).findByRole('textbox', { name: /Group name/ });
    expect((name as HTMLInputElement).value).toBe('Board');
    await user.click(within(dialog).getByRole('button', { name: 'Remove Bob Builder' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(saveSignGroup).toHaveBeenCalledWith({ groupId: 'g1', name: 'Board', memberIds: ['p-carol'] });
    await vi.waitFor(() => expect(modal.getSnapshot().matches('closed')).toBe(true));
  });
});

describe('sign group modals', () => {
  const openModalName = () => (modal.getSnapshot().matches('open') ? modal.getSnapshot().context.name : null);

  it('closes the editor with Esc and the deletion with Cancel, the shell agreeing each time', async () => {
    const { user } = renderGroups();
    await screen.findByRole('table', { name: 'Sign groups' });

    await user.click(screen.getByRole('button', { name: 'Edit Board' }));
    const editor = await findOpenDialog();
    const groupName = await within(editor).findByRole('textbox', { name: /Group name/ });
    expect((groupName as HTMLInputElement).value).toBe('Board');
    expect(openModalName()).toBe('signGroupEdit');
    await user.keyboard('{Escape}');
    await waitForDialogsClosed();
    expect(openModalName()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Delete Board' }));
    const deletion = await findOpenDialog();
    expect(deletion.textContent).toContain('Delete the sign group Board?');
    expect(openModalName()).toBe('signGroupDelete');
    await user.click(within(deletion).getByRole('button', { name: 'Cancel' }));
    await waitForDialogsClosed();
    expect(openModalName()).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Create a group' }));
    const creator = await findOpenDialog();
    const name = await within(creator).findByRole('textbox', { name: /Group name/ });
    expect((name as HTMLInputElement).value).toBe('');
    expect(openModalName()).toBe('signGroupEdit');
  });
});

describe('sign group deletion', () => {
  it('shows the deletion error banner and deletes on retry', async () => {
    const remove = vi
      .fn<(input: SignGroupIdInput) => Promise<void>>()
      .mockRejectedValueOnce({ code: 'internal_error', status: 500 })
      .mockResolvedValue(undefined);
    const { user } = renderGroups({ remove });
    await screen.findByRole('table', { name: 'Sign groups' });
    await user.click(screen.getByRole('button', { name: 'Delete Board' }));
    const dialog = await findOpenDialog();
    expect(within(dialog).getByText(/Delete the sign group Board\?/)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'An error has occurred while trying to delete the sign group.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(remove).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(modal.getSnapshot().matches('closed')).toBe(true));
  });
});
