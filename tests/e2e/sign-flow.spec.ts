// [4/6] in a real browser, three people: Ada starts an ordered sign flow on her own upload with Carol as
// reviewer and Bob then Ada as signatories (a signature page at the end), Carol approves, and each list
// shows what it means for its reader: waiting for Bob, waiting for others for Ada.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import { invitationLinkFor } from './server-state.ts';
import { accessToken, personIn, signIn, snap, uploadViaApi } from './support.ts';

async function addPerson(page: Page, role: 'Reviewer' | 'Signatory', query: string, name: RegExp) {
  await page.getByRole('radio', { name: role, exact: true }).check();
  const search = page.getByRole('combobox', { name: 'Add people' });
  await search.fill(query);
  const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
  await expect(suggestions.getByRole('option', { name })).toBeVisible();
  // The keyboard way: the first suggestion, then Enter.
  await search.press('ArrowDown');
  await search.press('Enter');
}

test('Ada starts an ordered flow, Carol approves, Bob is waited for and Ada waits for others', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const ada = await personIn(browser, 'ada@paraph.test');
  const token = await accessToken(ada);
  if (!token) throw new Error('no token after sign-in');
  const name = 'Service contract 2026.pdf';
  const id = await uploadViaApi(ada, token, name, await makePdf({ pages: 2, text: 'Service contract' }));

  await ada.goto(`${new URL(ada.url()).origin}/app/document/${id}`);
  await ada
    .getByRole('button', { name: 'Start a sign flow' })
    .or(ada.getByRole('link', { name: 'Start a sign flow' }))
    .first()
    .click();
  await expect(ada).toHaveURL(new RegExp(`/app/signflow/new/${id}$`));

  await addPerson(ada, 'Reviewer', 'carol', /Carol Chen/);
  await addPerson(ada, 'Signatory', 'bob@paraph.test', /Bob Baker/);
  await addPerson(ada, 'Signatory', 'ada', /Ada Lovelace/);
  const signatories = ada.getByRole('region', { name: 'Signatories' });
  await expect(signatories).toContainText(/Bob Baker[\s\S]*Ada Lovelace/);
  await expect(ada.getByRole('region', { name: 'Reviewers' })).toContainText('Carol Chen');
  // Carol cannot also sign: she is marked as already added when searched as a signatory.
  await ada.getByRole('radio', { name: 'Signatory', exact: true }).check();
  await ada.getByRole('combobox', { name: 'Add people' }).fill('carol');
  await expect(ada.getByRole('option', { name: /Carol Chen/ })).toHaveAttribute('aria-disabled', 'true');
  await ada.getByRole('combobox', { name: 'Add people' }).fill('');

  await ada.getByRole('checkbox', { name: 'Sign in this order' }).check();
  await ada.getByRole('radio', { name: 'On a signature page' }).check();
  await ada.getByRole('radio', { name: 'At the end of the document' }).check();
  await ada.getByRole('textbox', { name: 'Comment' }).fill('Please review the payment terms first.');
  await snap(ada, 'sign-flow-form');
  await ada.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(ada).toHaveURL(new RegExp(`/app/document/${id}$`));

  // Carol reviews it from her To Do list.
  const carol = await personIn(browser, 'carol@paraph.test');
  await carol.getByRole('link', { name: /To Do/ }).first().click();
  const carolList = carol.getByRole('grid', { name: 'Documents' });
  await expect(carolList.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await carol.getByRole('button', { name: `More actions for ${name}` }).click();
  await carol.getByRole('menuitem', { name: 'Approve' }).click();
  const approve = carol.getByRole('dialog', { name: /Approve/ });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toBeHidden({ timeout: 10_000 });

  // Bob's turn first (ordered): his list says it waits for him; Ada's says it waits for others.
  const bob = await personIn(browser, 'bob@paraph.test');
  await bob.getByRole('link', { name: /To Do/ }).first().click();
  await expect(
    bob.getByRole('grid', { name: 'Documents' }).getByRole('row', { name: new RegExp(name) }),
  ).toContainText(/Waiting for you/);
  await ada.goto(`${new URL(ada.url()).origin}/app/documents`);
  await expect(
    ada.getByRole('grid', { name: 'Documents' }).getByRole('row', { name: new RegExp(name) }),
  ).toContainText(/Waiting for others/);
  await snap(ada, 'sign-flow-waiting-for-others');

  for (const page of [ada, bob, carol]) await page.context().close();
});

test('a session that ends while the form is open: after signing in again the form is as it was', async ({
  page,
}) => {
  await signIn(page, 'ada@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const id = await uploadViaApi(page, token, 'Draft kept.pdf', await makePdf({ pages: 1 }));
  const origin = new URL(page.url()).origin;
  await page.goto(`${origin}/app/signflow/new/${id}`);
  await addPerson(page, 'Signatory', 'bob@paraph.test', /Bob Baker/);
  await page.getByRole('radio', { name: 'On a signature page' }).check();
  await page.getByRole('textbox', { name: 'Comment' }).fill('Kept across a new sign-in.');

  // The session ends elsewhere (a log-out in another tab); the save answers 401.
  const revoked = await page.request.get(`${origin}/api/log_out?return_to=/app/login`, {
    headers: { Authorization: `Bearer ${token}` },
    maxRedirects: 0,
  });
  expect(revoked.status()).toBe(303);
  await page.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(page).toHaveURL(/\/app\/login\/timeout\?returnUrl=/);

  await page
    .getByRole('link', { name: /sign in/i })
    .first()
    .click();
  await page.getByLabel('E-mail').fill('ada@paraph.test');
  await page.getByLabel('Password').fill('paraph-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}$`));
  await expect(page.getByRole('region', { name: 'Signatories' })).toContainText('Bob Baker');
  await expect(page.getByRole('textbox', { name: 'Comment' })).toHaveValue('Kept across a new sign-in.');
  await expect(
    page.getByText('What you had entered before your session ended has been restored.'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
});

async function startFlow(
  page: Page,
  id: string,
  people: { reviewers?: [string, RegExp][]; signatories: [string, RegExp][] },
  options: { minimum?: number } = {},
) {
  await page.goto(`${new URL(page.url()).origin}/app/signflow/new/${id}`);
  for (const [query, name] of people.reviewers ?? []) await addPerson(page, 'Reviewer', query, name);
  for (const [query, name] of people.signatories) await addPerson(page, 'Signatory', query, name);
  await page.getByRole('radio', { name: 'On a signature page' }).check();
  if (options.minimum !== undefined) {
    const minimum = page.getByRole('textbox', { name: 'Minimum signatures' });
    // Typing a number ticks the box (spec 001 §4); too many would be sent as 0 (spec 001 §5), and the
    // hint next to the field says so without stopping the submit.
    await minimum.fill('2');
    await expect(
      page.getByRole('checkbox', { name: 'Require a minimum number of signatures' }),
    ).toBeChecked();
    await expect(
      page.getByText('Enter a whole number from 1 to 1. Otherwise every signatory must sign.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Start the sign flow' })).toBeEnabled();
    await minimum.fill(String(options.minimum));
  }
  await page.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));
}

test('a standard flow needing 1 of 2 signatures; a refusal with a reason ends it for everyone', async ({
  browser,
}) => {
  const ada = await personIn(browser, 'ada@paraph.test');
  const token = await accessToken(ada);
  if (!token) throw new Error('no token after sign-in');
  const name = 'Minimum one of two.pdf';
  const id = await uploadViaApi(ada, token, name, await makePdf({ pages: 1 }));
  await startFlow(
    ada,
    id,
    {
      signatories: [
        ['bob@paraph.test', /Bob Baker/],
        ['carol@paraph.test', /Carol Chen/],
      ],
    },
    { minimum: 1 },
  );
  const flow = await ada.request.get(`${new URL(ada.url()).origin}/api/documents/${id}/sign_flow`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await flow.json()) as {
    data: { type: string; attributes: { minimumRequiredSigns: number } };
  };
  expect(body.data.type).toBe('signFlows');
  expect(body.data.attributes.minimumRequiredSigns).toBe(1);

  const bob = await personIn(browser, 'bob@paraph.test');
  await bob.getByRole('link', { name: /To Do/ }).first().click();
  await bob.getByRole('button', { name: `More actions for ${name}` }).click();
  await bob.getByRole('menuitem', { name: 'Refuse to sign' }).click();
  const refuse = bob.getByRole('dialog', { name: 'Refuse to sign' });
  await refuse.getByLabel('Reason (optional)').fill('Wrong company name on page 1.');
  await refuse.getByRole('button', { name: 'Refuse' }).click();
  await expect(refuse).toBeHidden({ timeout: 10_000 });

  await ada.goto(`${new URL(ada.url()).origin}/app/documents/failed`);
  await expect(
    ada.getByRole('grid', { name: 'Documents' }).getByRole('row', { name: new RegExp(name) }),
  ).toContainText('Refused');
  for (const page of [ada, bob]) await page.context().close();
});

test('a reviewer rejects one flow; the owner cancels another from the document page', async ({ browser }) => {
  const ada = await personIn(browser, 'ada@paraph.test');
  const token = await accessToken(ada);
  if (!token) throw new Error('no token after sign-in');
  const rejectedName = 'Rejected in review.pdf';
  const cancelledName = 'Cancelled by the owner.pdf';
  const rejectedId = await uploadViaApi(ada, token, rejectedName, await makePdf({ pages: 1 }));
  const cancelledId = await uploadViaApi(ada, token, cancelledName, await makePdf({ pages: 1 }));
  const people = {
    reviewers: [['carol', /Carol Chen/]] as [string, RegExp][],
    signatories: [['bob@paraph.test', /Bob Baker/]] as [string, RegExp][],
  };
  await startFlow(ada, rejectedId, people);
  await startFlow(ada, cancelledId, people);

  const carol = await personIn(browser, 'carol@paraph.test');
  await carol.getByRole('link', { name: /To Do/ }).first().click();
  await carol.getByRole('button', { name: `More actions for ${rejectedName}` }).click();
  await carol.getByRole('menuitem', { name: 'Reject' }).click();
  const reject = carol.getByRole('dialog', { name: 'Reject the document' });
  await reject.getByRole('button', { name: 'Reject' }).click();
  await expect(reject).toBeHidden({ timeout: 10_000 });

  // The owner cancels the other one from its page, after the destructive confirmation.
  await ada.goto(`${new URL(ada.url()).origin}/app/document/${cancelledId}`);
  await ada.getByRole('button', { name: 'Cancel the sign flow' }).click();
  const cancel = ada.getByRole('dialog', { name: 'Cancel the sign flow' });
  await cancel.getByRole('button', { name: 'Cancel sign flow' }).click();
  await expect(cancel).toBeHidden({ timeout: 10_000 });
  // It can be started again, and its people read as cancelled, not as if someone had refused.
  await expect(ada.getByRole('link', { name: 'Start a sign flow' }).first()).toBeVisible();
  await expect(
    ada.getByRole('region', { name: 'Signatories' }).or(ada.getByLabel('Signatories')),
  ).toContainText('Sign flow cancelled');

  await ada.goto(`${new URL(ada.url()).origin}/app/documents/failed`);
  const failed = ada.getByRole('grid', { name: 'Documents' });
  await expect(failed.getByRole('row', { name: new RegExp(rejectedName) })).toContainText('Rejected');
  await expect(failed.getByRole('row', { name: new RegExp(cancelledName) })).toContainText(/cancelled/i);
  for (const page of [ada, carol]) await page.context().close();
});

test('signatures placed on page 2, one by mouse and one by keyboard, are saved with the flow', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page, 'ada@paraph.test');
  const token = await accessToken(page);
  if (!token) throw new Error('no token after sign-in');
  const origin = new URL(page.url()).origin;
  const id = await uploadViaApi(page, token, 'Placed on page two.pdf', await makePdf({ pages: 2 }));
  await page.goto(`${origin}/app/signflow/new/${id}`);
  await addPerson(page, 'Signatory', 'bob@paraph.test', /Bob Baker/);
  await addPerson(page, 'Signatory', 'ada', /Ada Lovelace/);
  await page.getByRole('radio', { name: 'On the pages (place each signature)' }).check();
  await expect(page.getByText('0 of 2 signatures placed')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start the sign flow' })).toBeDisabled();
  await page.getByRole('link', { name: 'Place the signatures' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}/signatures$`));

  // The page images are rendered in the background; the editor waits for them by itself.
  await expect(page.getByText('Page 1 of 2')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();

  // By mouse: a click on the page, then Bob in the add dialog.
  const sheet = page.getByRole('group', { name: 'Page 2: click the page to place a signature' });
  const canvas = sheet.locator('canvas').last();
  await expect(canvas).toBeVisible();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the page has no size');
  await page.mouse.click(box.x + box.width * 0.3, box.y + box.height * 0.6);
  const add = page.getByRole('dialog', { name: 'Add a signature' });
  await add.getByRole('radio', { name: /Bob Baker/ }).check();
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add).toBeHidden();

  // By keyboard: choose Ada, place her in the middle, move her right, confirm.
  await page.getByRole('combobox', { name: 'Signatory to place' }).selectOption({ label: '2. Ada Lovelace' });
  await page.getByRole('button', { name: 'Place', exact: true }).click();
  const adaBox = page.getByRole('button', { name: /Move the signature 2: Ada Lovelace/ });
  await adaBox.focus();
  await adaBox.press('ArrowRight');
  await adaBox.press('Shift+ArrowUp');
  await adaBox.press('Enter');
  await expect(
    page.getByRole('status').filter({ hasText: 'Signature of Ada Lovelace placed on page 2' }),
  ).toBeVisible();
  await snap(page, 'signature-placement');

  await page.getByRole('button', { name: 'Save the signatures' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/signflow/new/${id}$`));
  await expect(page.getByText('2 of 2 signatures placed')).toBeVisible();
  await page.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(page).toHaveURL(new RegExp(`/app/document/${id}$`));

  const flow = await page.request.get(`${origin}/api/documents/${id}/sign_flow`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await flow.json()) as {
    included: { type: string; attributes: Record<string, unknown> }[];
  };
  const coordinates = body.included.filter((item) => item.type === 'signatureCoordinates');
  expect(coordinates).toHaveLength(2);
  for (const coordinate of coordinates) {
    expect(coordinate.attributes).toMatchObject({ signPageNumber: 2 });
    expect(String(coordinate.attributes.left)).toMatch(/^0(\.\d{1,4})?$/);
    expect(Number(coordinate.attributes.left)).toBeLessThanOrEqual(0.72);
    expect(Number(coordinate.attributes.top)).toBeGreaterThanOrEqual(0.15);
  }
});

test('someone without an account is invited by e-mail, signs up from the invitation and lands on the document', async ({
  browser,
}) => {
  const ada = await personIn(browser, 'ada@paraph.test');
  const token = await accessToken(ada);
  if (!token) throw new Error('no token after sign-in');
  const name = 'For a newcomer.pdf';
  const id = await uploadViaApi(ada, token, name, await makePdf({ pages: 1 }));
  const email = `newcomer.${Date.now()}@example.test`;
  await ada.goto(`${new URL(ada.url()).origin}/app/signflow/new/${id}`);
  await addPerson(ada, 'Signatory', email, new RegExp(email.replace(/\./g, '\\.')));
  await ada.getByRole('radio', { name: 'On a signature page' }).check();
  await ada.getByRole('button', { name: 'Start the sign flow' }).click();
  await expect(ada).toHaveURL(new RegExp(`/app/document/${id}$`));

  // The invitation's link, as her mailbox would give it to her (the outbox shows messages only to their
  // signed-in recipient); it leads to the sign-up page.
  await expect.poll(() => invitationLinkFor(email)).toMatch(/^\/sign_up\?invite=/);
  const link = invitationLinkFor(email) ?? '';
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const newcomer = await context.newPage();
  await newcomer.goto(`${new URL(ada.url()).origin}${link}`);
  await expect(newcomer.getByLabel('E-mail')).toHaveValue(email);
  await newcomer.getByLabel('Full name').fill('Nora Newcomer');
  await newcomer.getByLabel('Password (at least 8 characters)').fill('a long enough password');
  await newcomer.getByLabel('Password again').fill('a long enough password');
  await newcomer.getByRole('button', { name: 'Create account' }).click();

  // Signed in, the invite accepted, and the document opened: it waits for her signature.
  await expect(newcomer).toHaveURL(new RegExp(`/app/document/(details/)?${id}$`), { timeout: 30_000 });
  // Her first use: the welcome modal comes first, and once closed it stays closed.
  const welcome = newcomer.getByRole('dialog', { name: 'Welcome to Paraph' });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByRole('heading', { name: 'Signing flows' })).toBeVisible();
  await snap(newcomer, 'welcome');
  await newcomer.keyboard.press('Escape');
  await expect(welcome).toBeHidden();
  await expect(newcomer.getByRole('heading', { level: 1, name })).toBeVisible();
  await snap(newcomer, 'invitee-document');
  const headers = { Authorization: `Bearer ${(await accessToken(newcomer)) ?? ''}` };
  await expect
    .poll(async () => {
      const profile = await newcomer.request.get(`${new URL(ada.url()).origin}/api/profiles`, { headers });
      return ((await profile.json()) as { data: { attributes: { welcomeScreenWatched: boolean } } }).data
        .attributes.welcomeScreenWatched;
    })
    .toBe(true);
  for (const page of [ada, newcomer]) await page.context().close();
});
