// The signing machine's transition-covering paths (`npm run paths -- signing --json`), replayed in Chromium
// against the real app and server. Each path gets a document of its own, made through the API as its first
// loadSignScreen answer describes (the person's own upload, someone else's sign flow with the person's box
// placed, or a document the person cannot sign), and the profile's default location its input names. The
// screen's requests (the load, the geocoder, the sign call) are held until the path says how each ends; the
// confirmation ends on the identity app, in a phone-sized context of the same person. Two answers are
// made up at the network level, each because nothing real gives it (see where they are made): the
// geocoder finding no place, and a sign call refused with `validations.base`.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { makePdf } from '../../fixtures/pdfs.ts';
import { GEOCODED_CITY } from '../global-setup.ts';
import { baseUrl, IDP_CONFIRM_TIMEOUT_MS, pageImagesDrawn, signIn, uploadViaApi } from '../support.ts';
import {
  actorOutcome,
  coveredTransitions,
  HeldRequests,
  loadPaths,
  pathTitle,
  replay,
  type Adapter,
  type ModelPath,
  type PathEvent,
  type PathStep,
} from './replay.ts';
import { startPrivateServerForFile } from './private-server.ts';

const SIGNING = loadPaths('signing');

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
type Account = { email: string; storageState: StorageState; token: string };

// Erin signs (on this spec's own server: private-server.ts). Frank's plan has this month's signatures used
// up, so his confirmation really fails. Each owns the sign flows the other signs in.
const SIGNER = 'erin@paraph.test';
const LIMITED_SIGNER = 'frank@paraph.test';
const accounts = new Map<string, Account>();

// Where the context says the person is; the geocoder stand-in (global-setup.ts) names it GEOCODED_CITY.
const POSITION = { latitude: 52.0907, longitude: 5.1214 };
// What Nominatim answers for a position with no place near it (the open sea): no `address`, so the app's
// lookup ends location_unavailable, as the path's failure says.
const NO_PLACE = { error: 'Unable to geocode' };
// Every path's document has two pages, as the paths' payloads do (a sign flow's box is on page 2).
const PAGES = 2;

// The English catalog's words (src/i18n/en.json, documents.sign.* and signflow.signatures.*).
const TEXT = {
  loading: 'Loading the document and your smart cards…',
  loadFailed: 'The document or your smart cards could not be loaded.',
  locationEmpty: 'A location must be filled in.',
  locationShort: 'The location must be at least two characters long.',
  locateFailed: 'Your location could not be found. Please type it in.',
  afterPage: 'Enter a page number from 1 to the number of pages.',
  notPlaced: 'Please place your signature before proceeding.',
  signError: 'An error has occurred while signing the document. Please try again.',
  confirmed: 'Your signature has been confirmed.',
  limitReached:
    'You have reached the maximum number of signatures within your current plan. Please check your account plan.',
};
// What the identity app says once the answer is taken.
const IDP_SIGNED = /^(Signed|Confirmed: the signature is being applied)$/;
const IDP_LIMIT = /^The monthly signing limit of your plan is reached$/;

/** Which real document a path needs, read from its first loadSignScreen answer (P1, P2, P3). */
type Fixture =
  | { kind: 'own' }
  | { kind: 'flow'; placement: { pageNumber: number; left: number; top: number } }
  | { kind: 'cannotSign' };

type LoadOutput = {
  document: { attributes: { isSignFlow: boolean; currentUserCanSign: boolean } };
  assignedPlacement: { pageNumber: number; left: number; top: number } | null;
};

function fixtureOf(modelPath: ModelPath): Fixture {
  const loaded = modelPath.steps.find((step) => step.event.type === 'xstate.done.actor.loadSignScreen');
  // A path whose load never succeeds still opens a real document: the person's own.
  if (!loaded) return { kind: 'own' };
  const output = loaded.event.output as LoadOutput;
  if (!output.document.attributes.currentUserCanSign) return { kind: 'cannotSign' };
  if (!output.document.attributes.isSignFlow) return { kind: 'own' };
  if (!output.assignedPlacement) throw new Error('a sign flow path without the signatory’s box');
  return { kind: 'flow', placement: output.assignedPlacement };
}

/** A confirmation that must fail needs a signer whose plan refuses it at confirmation. */
function signerOf(modelPath: ModelPath): string {
  const fails = modelPath.steps.some(
    (step) =>
      step.event.type === 'xstate.done.actor.confirmation' &&
      (step.event.output as { outcome?: string } | undefined)?.outcome === 'failed',
  );
  return fails ? LIMITED_SIGNER : SIGNER;
}

function accountOf(email: string): Account {
  const account = accounts.get(email);
  if (!account) throw new Error(`${email} is not signed in`);
  return account;
}

function inputOf(modelPath: ModelPath): { defaultLocation: string } {
  const input = modelPath.input as { defaultLocation?: unknown };
  return { defaultLocation: String(input.defaultLocation ?? '') };
}

/** What the page has been made to hold so far: the form's fields as the person set them. */
type FormView = {
  location: string;
  isValidationShown: boolean;
  mode: 'inline' | 'page';
  position: 'first' | 'after' | 'last';
  afterPage: string;
  isPlaced: boolean;
  signError: string;
};

class SigningAdapter implements Adapter {
  private readonly browser: Browser;
  private readonly page: Page;
  private readonly tag: string;
  private readonly held = new HeldRequests();
  private readonly warnings: string[] = [];
  private documentId = '';
  private readonly view: FormView;
  private readonly fixture: Fixture;
  private readonly signer: Account;
  /** How many times the path has entered each requesting state: each entry makes one request. */
  private readonly seen = { loadSignScreen: 0, locateMe: 0, signDocument: 0 };

  constructor(browser: Browser, page: Page, tag: string, modelPath: ModelPath) {
    this.browser = browser;
    this.page = page;
    this.tag = tag;
    this.fixture = fixtureOf(modelPath);
    this.signer = accountOf(signerOf(modelPath));
    this.view = {
      location: inputOf(modelPath).defaultLocation,
      isValidationShown: false,
      mode: 'inline',
      position: 'last',
      afterPage: '',
      isPlaced: false,
      signError: '',
    };
    page.on('console', (message) => {
      if (message.type() === 'warning') this.warnings.push(message.text());
    });
  }

  private get offersPlacement(): boolean {
    return this.fixture.kind !== 'flow';
  }

  private get form(): Locator {
    return this.page
      .locator('form')
      .filter({ has: this.page.getByRole('heading', { name: 'Sign the document' }) });
  }

  private get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Confirm your signature' });
  }

  private get locationField(): Locator {
    return this.page.getByRole('textbox', { name: 'Location' });
  }

  /** The path's document, the signer's default location, then the sign screen with its requests held. */
  async open(modelPath: ModelPath): Promise<void> {
    const other = accountOf(this.signer.email === SIGNER ? LIMITED_SIGNER : SIGNER);
    const name = `${this.tag} contract.pdf`;
    const pdf = await makePdf({ pages: PAGES, text: `Replayed signing ${this.tag}` });
    const owner = this.fixture.kind === 'flow' ? other : this.signer;
    this.documentId = await uploadViaApi(this.page, owner.token, name, pdf);
    if (this.fixture.kind !== 'own') {
      // A flow the signer is in, with their box where the path's payload has it; or one they are not in.
      const { placement } = this.fixture.kind === 'flow' ? this.fixture : { placement: null };
      const signatory = this.fixture.kind === 'flow' ? this.signer.email : other.email;
      const flow = await this.page.request.post(`${baseUrl()}/api/documents/${this.documentId}/sign_flow`, {
        headers: { Authorization: `Bearer ${owner.token}` },
        data: {
          sign_flow: {
            type: 'ordered',
            signatory_email_addresses: [signatory],
            signature_coordinates: placement
              ? [
                  {
                    email_address: signatory,
                    sign_page_number: placement.pageNumber,
                    top: placement.top.toFixed(4),
                    left: placement.left.toFixed(4),
                  },
                ]
              : [],
          },
        },
      });
      expect(flow.status(), await flow.text()).toBe(201);
    }
    const settings = await this.page.request.patch(`${baseUrl()}/api/profiles/update_settings`, {
      headers: { Authorization: `Bearer ${this.signer.token}` },
      data: { settings: { location: inputOf(modelPath).defaultLocation } },
    });
    expect(settings.status(), await settings.text()).toBe(200);
    // The placement editor needs the page images, which are rendered in the background.
    if (modelPath.steps.some((step) => step.event.type === 'placement.saved')) await this.waitForPages();

    await this.held.hold(
      this.page,
      'loadSignScreen',
      (url, request) => request.method() === 'GET' && url.pathname === '/api/smart_cards',
    );
    await this.held.hold(
      this.page,
      'locateMe',
      (url, request) => request.method() === 'GET' && url.pathname === '/reverse',
    );
    await this.held.hold(
      this.page,
      'signDocument',
      (url, request) =>
        request.method() === 'PATCH' && url.pathname === `/api/documents/${this.documentId}/sign`,
    );
    await this.page.goto(`${baseUrl()}/app/sign/${this.documentId}`);
  }

  private async waitForPages(): Promise<void> {
    await pageImagesDrawn(this.page, this.signer.token, this.documentId, PAGES);
  }

  async act(step: PathStep, index: number, modelPath: ModelPath): Promise<void> {
    const { event } = step;
    const before = modelPath.steps[index - 1]?.state;
    // Leaving the lookup by anything but its own end stops it: the page drops its geocoder request.
    if (before === 'editing.locating' && step.state !== 'editing.locating') {
      const outcome = actorOutcome(event);
      if (outcome?.actor !== 'locateMe') this.held.forget('locateMe');
    }
    switch (event.type) {
      case 'xstate.init':
        return;
      case 'screen.retry':
        await this.page.getByRole('button', { name: 'Try again' }).click();
        return;
      case 'form.cancel':
        await this.page.getByRole('button', { name: 'Cancel', exact: true }).click();
        return;
      case 'card.changed':
        return this.chooseCard(event);
      case 'location.changed':
        return this.typeLocation(String(event.location));
      case 'location.locate':
        await this.page.getByRole('button', { name: 'Locate me' }).click();
        return;
      case 'reason.changed':
        await this.setText(
          this.page.getByRole('textbox', { name: 'Reason (optional)' }),
          String(event.reason),
        );
        return;
      case 'mode.changed':
        return this.chooseMode(event.mode === 'page' ? 'page' : 'inline');
      case 'pagePosition.changed':
        return this.choosePosition(String(event.position));
      case 'afterPage.changed':
        return this.typeAfterPage(String(event.text));
      case 'placement.saved':
        return this.place(event);
      case 'sign.submit':
        await this.form.getByRole('button', { name: 'Continue' }).click();
        // The machine shows the fields' messages after any attempt that does not send.
        if (step.state !== 'submitting') this.view.isValidationShown = true;
        return;
      default:
        return this.endActor(event);
    }
  }

  private async endActor(event: PathEvent): Promise<void> {
    const outcome = actorOutcome(event);
    switch (outcome?.actor) {
      case 'loadSignScreen': {
        const route = await this.held.next('loadSignScreen');
        // The smart cards never arrive: the browser's connection is gone.
        if (outcome.ok) await route.continue();
        else await route.abort('internetdisconnected');
        return;
      }
      case 'locateMe': {
        const route = await this.held.next('locateMe');
        if (outcome.ok) {
          await route.continue();
          this.view.location = GEOCODED_CITY;
          return;
        }
        const code = String((event.error as { code?: unknown }).code);
        // Faked at the network level: the stand-in always finds a city, and the failure the path names is
        // a geocoder answer without one. The stand-in's own headers (CORS) are kept.
        const response = await route.fetch();
        await route.fulfill({ response, json: NO_PLACE });
        await expect.poll(() => this.warnings).toContain(`Location lookup failed: ${code}`);
        return;
      }
      case 'signDocument': {
        const route = await this.held.next('signDocument');
        if (outcome.ok) {
          await route.continue();
          return;
        }
        // Faked at the network level: the server refuses a sign call only for a field
        // (`validations.<field>`), never with `validations.base`, so the refusal with the server's own
        // sentences is this contract's Error body (openapi.yaml UnprocessableEntity), not sent to it.
        const error = event.error as { code: string; status: number; messages: string[] };
        const message = error.messages.join(' ');
        await route.fulfill({
          status: error.status,
          json: { code: error.code, message, validations: { base: error.messages } },
        });
        this.view.signError = message || TEXT.signError;
        return;
      }
      case 'confirmation':
        return this.answerOnPhone((event.output as { outcome: string }).outcome);
      default:
        throw new Error(`no page action for ${event.type}`);
    }
  }

  /** The identity app on the same person's phone, then the dialog's own button once it knows. */
  private async answerOnPhone(outcome: string): Promise<void> {
    const link = await this.dialog.getByRole('link', { name: 'Open the identity app' }).getAttribute('href');
    if (!link) throw new Error('the confirmation dialog has no link to the identity app');
    const phone = await this.browser.newContext({
      storageState: this.signer.storageState,
      viewport: { width: 375, height: 812 },
      isMobile: true,
    });
    const idp = await phone.newPage();
    await idp.goto(link);
    await idp.getByRole('button', { name: 'Confirm' }).click({ timeout: IDP_CONFIRM_TIMEOUT_MS });
    await expect(idp.getByText(outcome === 'confirmed' ? IDP_SIGNED : IDP_LIMIT)).toBeVisible({
      timeout: IDP_CONFIRM_TIMEOUT_MS,
    });
    await phone.close();
    // The dialog learns it on its next poll (every 5 s): that timer has to run out.
    if (outcome === 'confirmed') {
      await expect(this.dialog.getByText(TEXT.confirmed)).toBeVisible({ timeout: 20_000 });
      await this.dialog.getByRole('button', { name: 'Open the document' }).click();
    } else if (outcome === 'failed') {
      await expect(this.dialog.getByRole('alert')).toHaveText(TEXT.limitReached, { timeout: 20_000 });
      await this.dialog.getByRole('button', { name: 'Back to the form' }).click();
    } else {
      throw new Error(`no identity app answer gives the outcome ${outcome}`);
    }
  }

  // An event whose value the page already holds is a person pressing what is already chosen (or clearing
  // an empty field): the page sends nothing, and the state's assertion shows that nothing changed. An event
  // for a control the page does not show for this document (the placement choices in a sign flow, the
  // signature page's position while the box is placed by hand, the page number unless "After a page")
  // has nothing to press: the same assertion shows that nothing changed either.

  private async chooseCard(event: PathEvent): Promise<void> {
    // The paths name the sample's cards card-1, card-2: the signer's first and second card.
    const number = Number(/^card-(\d+)$/.exec(String(event.cardId))?.[1] ?? Number.NaN);
    const card = this.page
      .getByRole('radiogroup', { name: 'Smart card' })
      .getByRole('radio')
      .nth(number - 1);
    await card.check();
    await expect(card).toBeChecked();
  }

  private async typeLocation(location: string): Promise<void> {
    const field = this.locationField;
    if ((await field.inputValue()) !== location) {
      await field.fill(location);
    } else {
      // The same text typed again: the last letter retyped, so the field changes and ends as it was.
      await field.press('End');
      await field.press('Backspace');
      await field.press(location.slice(-1));
    }
    this.view.location = location;
  }

  private async setText(field: Locator, text: string): Promise<void> {
    await field.fill(text);
    await expect(field).toHaveValue(text);
  }

  private async chooseMode(mode: 'inline' | 'page'): Promise<void> {
    if (!this.offersPlacement) return;
    const name = mode === 'page' ? 'On a signature page' : 'On a page, where I place it';
    await this.page.getByRole('radio', { name }).check();
    this.view.mode = mode;
  }

  private async choosePosition(position: string): Promise<void> {
    if (!this.offersPlacement || this.view.mode !== 'page') return;
    const names: Record<string, string> = {
      first: 'At the start',
      after: 'After a page',
      last: 'At the end',
    };
    const name = names[position];
    if (!name) throw new Error(`no signature page position ${position}`);
    await this.page.getByRole('radio', { name }).check();
    this.view.position = position as FormView['position'];
  }

  private async typeAfterPage(text: string): Promise<void> {
    if (!this.offersPlacement || this.view.mode !== 'page' || this.view.position !== 'after') return;
    await this.setText(this.page.getByRole('spinbutton', { name: 'After page' }), text);
    this.view.afterPage = text;
  }

  /** The placement editor with the keyboard (Place, then Enter), and Save: the form gets the box. */
  private async place(event: PathEvent): Promise<void> {
    const placement = event.placement as { pageNumber: number } | null;
    if (!this.offersPlacement) return;
    if (placement?.pageNumber !== 1) throw new Error('the replay places on page 1 only');
    const signaturePage = `/app/sign/${this.documentId}/signature`;
    if (this.view.mode === 'inline') {
      await this.page.getByRole('link', { name: /^(Place|Move) your signature$/ }).click();
    } else {
      // The form links to the editor only while the box is placed by hand; with a signature page chosen
      // the editor's address is still the screen's, so it is opened inside the running app, as a link
      // would (an address typed into the browser would reload the app and start a new sign screen).
      await this.page.evaluate((path) => window.history.pushState(null, '', path), signaturePage);
    }
    await expect(this.page).toHaveURL(new RegExp(`${signaturePage}$`));
    const sheet = this.page.getByRole('group', { name: 'Page 1: click the page to place a signature' });
    await expect(sheet.locator('canvas').last()).toBeVisible();
    await this.page.getByRole('button', { name: 'Place', exact: true }).click();
    await expect(this.page.getByRole('button', { name: /^Move the signature 1: / })).toBeFocused();
    await this.page.keyboard.press('Enter');
    await expect(
      this.page.getByRole('status').filter({ hasText: /^Signature of .+ placed on page 1\.$/ }),
    ).toBeVisible();
    await this.page.getByRole('button', { name: 'Save the signatures' }).click();
    await expect(this.page).toHaveURL(new RegExp(`/app/sign/${this.documentId}$`));
    this.view.isPlaced = true;
  }

  /** The messages the form shows in this state, in page order: the fields', then the error bar. */
  private expectedAlerts(state: string): string[] {
    const alerts: string[] = [];
    const length = Array.from(this.view.location.trim()).length;
    // A failed lookup is said in the field, also on an empty field after Continue (it asks for the same);
    // a location too short is the field's own problem.
    if (state === 'editing.locateFailed' && (length === 0 || !this.view.isValidationShown)) {
      alerts.push(TEXT.locateFailed);
    } else if (this.view.isValidationShown && length === 0) alerts.push(TEXT.locationEmpty);
    else if (this.view.isValidationShown && length < 2) alerts.push(TEXT.locationShort);
    else if (state === 'editing.locateFailed') alerts.push(TEXT.locateFailed);
    const { mode, position, afterPage } = this.view;
    const isAfterPageValid =
      /^\s*\d+\s*$/.test(afterPage) && Number(afterPage) >= 1 && Number(afterPage) <= PAGES;
    if (this.view.isValidationShown && this.offersPlacement && mode === 'page' && position === 'after') {
      if (!isAfterPageValid) alerts.push(TEXT.afterPage);
    }
    if (state === 'editing.notPlaced') alerts.push(TEXT.notPlaced);
    if (state === 'editing.signFailed') alerts.push(this.view.signError);
    return alerts;
  }

  private entered(state: string, index: number, modelPath: ModelPath): number {
    return modelPath.steps[index - 1]?.state !== state ? 1 : 0;
  }

  async expectState(state: string, index: number, modelPath: ModelPath): Promise<void> {
    const page = this.page;
    const locate = page.getByRole('button', { name: /^(Locate me|Finding your location…)$/ });
    const submit = this.form.getByRole('button', { name: /^(Continue|Sending…)$/ });
    switch (state) {
      case 'loading':
        this.seen.loadSignScreen += this.entered(state, index, modelPath);
        await expect(page.getByRole('status').filter({ hasText: TEXT.loading })).toBeVisible();
        await expect.poll(() => this.held.count('loadSignScreen')).toBe(this.seen.loadSignScreen);
        return;
      case 'loadFailed':
        await expect(page.getByRole('alert')).toContainText(TEXT.loadFailed);
        await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
        await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
        return;
      case 'editing.idle':
      case 'editing.notPlaced':
      case 'editing.signFailed':
      case 'editing.locating':
      case 'editing.locateFailed': {
        // Back from the confirmation, its dialog has closed (while open, it hides the form from roles).
        if (modelPath.steps[index - 1]?.state === 'confirming') await expect(this.dialog).toBeHidden();
        await expect(this.form).toBeVisible();
        await expect(this.locationField).toHaveValue(this.view.location);
        await expect(this.form.getByRole('alert')).toHaveText(this.expectedAlerts(state));
        await expect(submit).toHaveText('Continue');
        if (state === 'editing.locating') {
          this.seen.locateMe += this.entered(state, index, modelPath);
          await expect(locate).toHaveText('Finding your location…');
          await expect(locate).toHaveAttribute('aria-disabled', 'true');
          await expect.poll(() => this.held.count('locateMe')).toBe(this.seen.locateMe);
        } else {
          await expect(locate).toHaveText('Locate me');
        }
        if (this.offersPlacement && this.view.mode === 'inline') {
          await expect(this.form).toContainText(this.view.isPlaced ? 'Placed on page 1.' : 'Not placed yet.');
        }
        return;
      }
      case 'submitting':
        this.seen.signDocument += this.entered(state, index, modelPath);
        await expect(submit).toHaveText('Sending…');
        await expect(submit).toHaveAttribute('aria-disabled', 'true');
        await expect(this.form.getByRole('button', { name: 'Cancel', exact: true })).toBeDisabled();
        await expect(this.form.getByRole('alert')).toHaveCount(0);
        await expect.poll(() => this.held.count('signDocument')).toBe(this.seen.signDocument);
        return;
      case 'confirming':
        await expect(this.dialog).toBeVisible();
        await expect(this.dialog.getByRole('link', { name: 'Open the identity app' })).toHaveAttribute(
          'href',
          /\/idp\/requests\/[0-9a-f-]{36}$/,
        );
        await expect(this.dialog.getByRole('status')).toHaveText('Waiting for your confirmation…');
        return;
      case 'left':
        await expect(page).toHaveURL(new RegExp(`/app/document/${this.documentId}$`));
        await expect(page.getByRole('heading', { name: 'Sign the document' })).toHaveCount(0);
        return;
      default:
        throw new Error(`no page assertion for signing state ${state}`);
    }
  }
}

function tokenOf(storageState: StorageState): string {
  const token = storageState.origins
    .flatMap((origin) => origin.localStorage)
    .find((item) => item.name === 'access_token')?.value;
  if (!token) throw new Error('no access token after sign-in');
  return token;
}

startPrivateServerForFile();

test.beforeAll(async ({ browser }) => {
  for (const email of [SIGNER, LIMITED_SIGNER]) {
    const page = await browser.newPage();
    await signIn(page, email);
    const storageState = await page.context().storageState();
    accounts.set(email, { email, storageState, token: tokenOf(storageState) });
    await page.context().close();
  }
});

test('the signing paths take every transition of the machine', () => {
  expect(SIGNING.unreached).toEqual([]);
  expect(coveredTransitions(SIGNING.paths).size).toBe(SIGNING.transitions);
});

for (const [index, modelPath] of SIGNING.paths.entries()) {
  test(pathTitle('signing', index, modelPath), async ({ browser }) => {
    const context = await browser.newContext({
      storageState: accountOf(signerOf(modelPath)).storageState,
      baseURL: process.env.PARAPH_URL,
      geolocation: POSITION,
      permissions: ['geolocation'],
    });
    const page = await context.newPage();
    const adapter = new SigningAdapter(browser, page, `s${index + 1}`, modelPath);
    await adapter.open(modelPath);
    await replay(adapter, modelPath);
    await context.close();
  });
}
