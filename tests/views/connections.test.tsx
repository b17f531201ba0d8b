import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fromPromise } from 'xstate';
import { connectionsMachine, type Connection } from '../../machines/connections.machine';
import { sampleConnection } from '../../machines/samples';
import { ConnectionsPage } from '../../src/views/connections/connections-page';
import { renderView } from './render';

// Midday UTC is the same calendar day in every time zone the tests may run in.
const BOB = sampleConnection('c-bob', { lastSeenAt: '2030-01-02T12:00:00.000Z' });
const CAROL = sampleConnection('c-carol', {
  fullName: 'Carol Shaw',
  emailAddress: 'carol@paraph.test',
  lastSeenAt: null,
});

function pageWith(fetch: () => Promise<Connection[]>) {
  const fetchConnections = vi.fn(fetch);
  const logic = connectionsMachine.provide({
    actors: { fetchConnections: fromPromise<Connection[]>(() => fetchConnections()) },
  });
  return { logic, fetchConnections };
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

describe('connections page', () => {
  it("lists each connection's name, e-mail and last seen, or 'Never'", async () => {
    const { logic } = pageWith(async () => [BOB, CAROL]);
    renderView(<ConnectionsPage logic={logic} />, { path: '/connections/users' });

    const table = await screen.findByRole('table', { name: 'Connections' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const bob = rowOf('Bob Builder');
    expect(within(bob).getByText('bob@paraph.test')).toBeTruthy();
    expect(within(bob).getByText(/^Jan 2 2030, \d{2}:\d{2}$/)).toBeTruthy();
    const carol = rowOf('Carol Shaw');
    expect(within(carol).getByText('carol@paraph.test')).toBeTruthy();
    expect(within(carol).getByText('Never')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Connections' })).toBeTruthy();
    expect(document.title).toBe('Connections · Paraph');
  });

  it('animates the rows in 100 ms apart', async () => {
    const { logic } = pageWith(async () => [BOB, CAROL]);
    renderView(<ConnectionsPage logic={logic} />, { path: '/connections/users' });

    await screen.findByRole('table', { name: 'Connections' });
    expect(rowOf('Bob Builder').style.animationDelay).toBe('0ms');
    expect(rowOf('Carol Shaw').style.animationDelay).toBe('100ms');
  });

  it('says so when there are no connections', async () => {
    const { logic } = pageWith(async () => []);
    renderView(<ConnectionsPage logic={logic} />, { path: '/connections/users' });

    expect(await screen.findByText('You have no connections yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a data error whose retry loads the connections again', async () => {
    const { logic, fetchConnections } = pageWith(async () => [BOB]);
    fetchConnections.mockRejectedValueOnce({ code: 'internal_error', status: 500 });
    const user = userEvent.setup();
    renderView(<ConnectionsPage logic={logic} />, { path: '/connections/users' });

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('An error has occurred. Please try again in a few moments.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();

    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Connections' })).toBeTruthy();
    expect(rowOf('Bob Builder')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchConnections).toHaveBeenCalledTimes(2);
  });
});
