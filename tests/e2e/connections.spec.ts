// [3/6] in a real browser, two people at once: Ada removes Bob, asks him again by e-mail, Bob sees the
// badge and accepts, and both see each other; Ada rejects Erin's request and her badge goes. Then Ada's
// sign groups: create with Bob and Carol, edit, a member who stopped being a connection, delete.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { accessToken, baseUrl, personIn, snap } from './support.ts';

async function api(page: Page, method: 'GET' | 'DELETE' | 'PATCH', path: string): Promise<unknown> {
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const response = await page.request.fetch(`${baseUrl()}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok(), `${method} ${path} answered ${response.status()}`).toBe(true);
  return response.status() === 204 ? null : response.json();
}

test('Ada asks Bob by e-mail, Bob sees the badge and accepts, both see each other', async ({ browser }) => {
  const ada = await personIn(browser, 'ada@paraph.test');
  await ada
    .getByRole('link', { name: /^Connections/ })
    .first()
    .click();
  await expect(ada).toHaveURL(/\/app\/connections\/users$/);
  const adaTable = ada.getByRole('table', { name: 'Connections' });
  await expect(adaTable.getByRole('row', { name: /Bob Baker/ })).toBeVisible();
  // Erin (seeded) has asked Ada: the request is listed and the sidebar counts it.
  const requests = ada.getByRole('list', { name: 'Requests' });
  await expect(requests.getByTestId('connection-request-inbound')).toContainText('Erin Evans');
  await expect(ada.getByRole('link', { name: /1 connection request/ })).toBeVisible();
  await snap(ada, 'connections-list');

  // Remove Bob, after a confirmation.
  await adaTable.getByRole('button', { name: 'Remove Bob Baker' }).click();
  const removeDialog = ada.getByRole('dialog', { name: 'Remove connection' });
  await expect(removeDialog).toContainText('Bob Baker');
  await removeDialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(removeDialog).toBeHidden();
  await expect(adaTable.getByRole('row', { name: /Bob Baker/ })).toHaveCount(0);

  // Ask him again by e-mail: two characters search nothing; his address finds him.
  await ada.getByRole('button', { name: 'Add a connection' }).click();
  const addDialog = ada.getByRole('dialog', { name: 'Add a connection by e-mail' });
  const search = addDialog.getByRole('searchbox', { name: 'E-mail address or name' });
  await search.fill('bo');
  await expect(addDialog.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
  await search.fill('bob@paraph.test');
  await expect(addDialog.getByTestId('connection-search-result')).toContainText('Bob Baker');
  await snap(ada, 'connections-add');
  await addDialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(addDialog).toBeHidden();
  await expect(requests.getByTestId('connection-request-outbound')).toContainText('Bob Baker');

  // Bob sees the badge, then the request, and accepts it.
  const bob = await personIn(browser, 'bob@paraph.test');
  await expect(bob.getByRole('link', { name: /1 connection request/ })).toBeVisible();
  await bob
    .getByRole('link', { name: /^Connections/ })
    .first()
    .click();
  const bobRequests = bob.getByRole('list', { name: 'Requests' });
  await expect(bobRequests.getByTestId('connection-request-inbound')).toContainText('Ada Lovelace');
  await snap(bob, 'connections-inbound');
  await bobRequests.getByRole('button', { name: 'Accept the request of Ada Lovelace' }).click();
  await expect(
    bob.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /Ada Lovelace/ }),
  ).toBeVisible();
  await expect(bob.getByTestId('connection-request-inbound')).toHaveCount(0);
  await expect(bob.getByRole('link', { name: /connection request/ })).toHaveCount(0);

  // Ada sees Bob again once her page reloads its data; Erin's request she rejects.
  await ada.reload();
  await expect(adaTable.getByRole('row', { name: /Bob Baker/ })).toBeVisible();
  await expect(ada.getByTestId('connection-request-outbound')).toHaveCount(0);
  await requests.getByRole('button', { name: 'Reject the request of Erin Evans' }).click();
  await expect(ada.getByTestId('connection-request-inbound')).toHaveCount(0);
  await expect(ada.getByRole('link', { name: /connection request/ })).toHaveCount(0);
  await expect(adaTable.getByRole('row', { name: /Erin Evans/ })).toHaveCount(0);

  await ada.context().close();
  await bob.context().close();
});

test('Ada creates a sign group with Bob and Carol, edits it, cannot keep a former connection, deletes it', async ({
  browser,
}) => {
  const ada = await personIn(browser, 'ada@paraph.test');
  await ada.goto(`${baseUrl()}/app/connections/groups`);
  await expect(ada.getByRole('tab', { name: 'Sign groups', selected: true })).toBeVisible();
  await expect(ada.getByText('You have no sign groups yet.')).toBeVisible();

  await ada.getByRole('button', { name: 'Create a group' }).click();
  const editor = ada.getByRole('dialog', { name: 'Create a sign group' });
  const create = editor.getByRole('button', { name: 'Create', exact: true });
  await expect(create).toBeDisabled();
  await editor.getByRole('textbox', { name: 'Group name' }).fill('Board');
  await expect(create).toBeDisabled();
  const memberSearch = editor.getByRole('searchbox', { name: 'Add members' });
  await memberSearch.fill('bob');
  await editor.getByRole('button', { name: 'Add Bob Baker' }).click();
  await memberSearch.fill('CAROL');
  await editor.getByRole('button', { name: 'Add Carol Chen' }).click();
  await memberSearch.fill('nobody-here');
  await expect(editor.getByText('No connection found.')).toBeVisible();
  const members = editor.getByTestId('sign-group-members');
  await expect(members).toContainText('Bob Baker');
  await expect(members).toContainText('Carol Chen');
  await snap(ada, 'sign-group-editor');
  await create.click();
  await expect(editor).toBeHidden();
  const groups = ada.getByRole('table', { name: 'Sign groups' });
  await expect(groups.getByRole('row', { name: /Board/ })).toContainText('2 members');
  await snap(ada, 'sign-groups-list');

  // Rename it and take Carol out.
  await groups.getByRole('button', { name: 'Edit Board' }).click();
  const edit = ada.getByRole('dialog', { name: 'Edit sign group' });
  await edit.getByRole('textbox', { name: 'Group name' }).fill('Board 2026');
  await edit.getByTestId('sign-group-members').getByRole('button', { name: 'Remove Carol Chen' }).click();
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit).toBeHidden();
  await expect(groups.getByRole('row', { name: /Board 2026/ })).toContainText('1 member');

  // Bob removes Ada from his connections behind her back: saving the group now names him, and the
  // form keeps what she typed.
  const bob = await personIn(browser, 'bob@paraph.test');
  const bobConnections = (await api(bob, 'GET', '/connections')) as {
    data: { id: string; attributes: { emailAddress: string } }[];
  };
  const withAda = bobConnections.data.find((c) => c.attributes.emailAddress === 'ada@paraph.test');
  if (!withAda) throw new Error('Bob is not connected to Ada');
  await api(bob, 'DELETE', `/connections/${withAda.id}`);
  await groups.getByRole('button', { name: 'Edit Board 2026' }).click();
  await edit.getByRole('textbox', { name: 'Group name' }).fill('Board 2027');
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit.getByText(/Bob Baker is no longer one of your connections/)).toBeVisible();
  await expect(edit.getByRole('textbox', { name: 'Group name' })).toHaveValue('Board 2027');
  await snap(ada, 'sign-group-not-a-connection');
  await edit
    .getByRole('button', { name: /Close|Cancel/ })
    .first()
    .click();
  await expect(edit).toBeHidden();

  // Delete, after a confirmation; the members stay connections.
  await groups.getByRole('button', { name: 'Delete Board 2026' }).click();
  const confirm = ada.getByRole('dialog', { name: 'Delete sign group' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(ada.getByText('You have no sign groups yet.')).toBeVisible();
  await ada.getByRole('tab', { name: 'Connections' }).click();
  await expect(
    ada.getByRole('table', { name: 'Connections' }).getByRole('row', { name: /Carol Chen/ }),
  ).toBeVisible();

  // Leave the demo data as it was for the journeys that follow: Ada and Bob connected again.
  const bobProfile = (await api(bob, 'GET', '/profiles')) as { data: { id: string } };
  const adaToken = await accessToken(ada);
  const asked = await ada.request.post(`${baseUrl()}/api/connection_requests`, {
    headers: { Authorization: `Bearer ${adaToken ?? ''}` },
    data: { connection_request: { to: bobProfile.data.id } },
  });
  expect(asked.status()).toBe(201);
  const requestId = ((await asked.json()) as { data: { id: string } }).data.id;
  await api(bob, 'PATCH', `/connection_requests/${requestId}/accept`);

  await ada.context().close();
  await bob.context().close();
});
