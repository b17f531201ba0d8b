// Every screen a person reaches, in English, Spanish and French, at phone and desktop width: the page says
// its language, no message id leaks where a translation is missing, Spanish and French really differ from
// English, and the list's dates follow spec 000 §9 for the language. The pictures land in
// test-results/screens/<lang>/<screen>-<width>.png, to be looked at.
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { makePdf } from '../fixtures/pdfs.ts';
import {
  accessToken,
  animationsAtRest,
  baseUrl,
  documentNamed,
  resizeTo,
  signIn,
  uploadViaApi,
} from './support.ts';

const LANGUAGES = ['en', 'es', 'fr'] as const;
type Language = (typeof LANGUAGES)[number];
const SHOT_WIDTHS = [375, 1280] as const;

type Catalog = Record<string, string>;
const CATALOGS = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, JSON.parse(readFileSync(`src/i18n/${lang}.json`, 'utf8')) as Catalog]),
) as Record<Language, Catalog>;

/** The tab's title a screen sets, in that language: how the spec knows the screen has drawn itself. */
function pageTitle(lang: Language, key: string): string {
  const catalog = CATALOGS[lang];
  const title = catalog[key];
  const pattern = catalog['app.pageTitle'];
  if (title === undefined || pattern === undefined) throw new Error(`no ${key} in ${lang}.json`);
  return pattern.replace('{title}', title);
}

// react-intl shows a missing message's id: "documents.status.signed" on screen is a missing translation.
const MESSAGE_ID = /\b[a-z]+(\.[a-zA-Z]+){2,}\b/;

const BOB = 'bob@paraph.test';
const UPLOADED_NAME = 'Languages check.pdf';
const DEMO_DOCUMENT = 'Non-disclosure agreement';

type Setup = {
  storage: Awaited<ReturnType<BrowserContext['storageState']>>;
  uploadedId: string;
  demoId: string;
};
let setup: Setup | null = null;
/** The English text of each screen at 1280 px, which Spanish and French must not repeat. */
const englishText = new Map<string, string>();

test.describe.configure({ mode: 'serial' });

/** Bob signs in once (in English, as support's signIn reads the English labels) and owns a fresh upload. */
async function signedInBob(browser: Browser): Promise<Setup> {
  if (setup) return setup;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, BOB);
  const token = await accessToken(page);
  if (!token) throw new Error('no access token after signing in');
  const uploadedId = await uploadViaApi(page, token, UPLOADED_NAME, await makePdf({ pages: 2 }));
  const demoId = await documentNamed(page, DEMO_DOCUMENT);
  setup = { storage: await context.storageState(), uploadedId, demoId };
  await context.close();
  return setup;
}

/** A browser whose stored language is `lang` before the app's first script runs (spec 001 §1). */
async function contextIn(
  browser: Browser,
  lang: Language,
  storage?: Setup['storage'],
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...(storage ? { storageState: storage } : {}),
  });
  await context.addInitScript((locale) => window.localStorage.setItem('locale', locale), lang);
  return context;
}

/** Lets layout and entrance animations come to rest (endless spinners are part of the picture). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await animationsAtRest(page);
}

async function shoot(page: Page, lang: Language, screen: string): Promise<void> {
  mkdirSync(`test-results/screens/${lang}`, { recursive: true });
  for (const width of SHOT_WIDTHS) {
    await resizeTo(page, width);
    await settle(page);
    await page.screenshot({ path: `test-results/screens/${lang}/${screen}-${width}.png`, fullPage: true });
  }
}

/** The checks every screen passes, then its pictures. The page is at 1280 px when called. */
async function checkScreen(page: Page, lang: Language, screen: string): Promise<void> {
  await settle(page);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  const text = await page.locator('body').innerText();
  expect(text.match(MESSAGE_ID)?.[0] ?? null, `a message id on ${screen} (${lang})`).toBeNull();
  if (lang === 'en') {
    englishText.set(screen, text);
  } else {
    const english = englishText.get(screen);
    expect(english, `the English ${screen} screen was checked first`).toBeDefined();
    expect(text, `${screen} in ${lang} reads like English`).not.toBe(english);
  }
  await shoot(page, lang, screen);
}

/** Spec 000 §9: en 'MMM d yyyy, HH:mm', es and fr 'd MMM yyyy, HH:mm', months in the language. */
async function expectedDate(page: Page, lang: Language, iso: string): Promise<string> {
  const parts = await page.evaluate(
    ([locale, value]) =>
      Object.fromEntries(
        new Intl.DateTimeFormat(locale, {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        })
          .formatToParts(new Date(value))
          .map((part) => [part.type, part.value]),
      ),
    [lang, iso] as const,
  );
  const time = `${parts.hour}:${parts.minute}`;
  return lang === 'en'
    ? `${parts.month} ${parts.day} ${parts.year}, ${time}`
    : `${parts.day} ${parts.month} ${parts.year}, ${time}`;
}

async function createdAt(page: Page, id: string): Promise<string> {
  const token = await accessToken(page);
  const response = await page.request.get(`${baseUrl()}/api/documents/${id}`, {
    headers: { Authorization: `Bearer ${token ?? ''}` },
  });
  return ((await response.json()) as { data: { attributes: { createdAt: string } } }).data.attributes
    .createdAt;
}

for (const lang of LANGUAGES) {
  test(`every screen in ${lang}`, async ({ browser }) => {
    test.setTimeout(240_000);
    const { storage, uploadedId, demoId } = await signedInBob(browser);

    // Signed out: the login page.
    const signedOut = await contextIn(browser, lang);
    const visitor = await signedOut.newPage();
    await visitor.goto(`${baseUrl()}/app/login`);
    await expect(visitor).toHaveTitle(pageTitle(lang, 'login.pageTitle'));
    await checkScreen(visitor, lang, 'login');
    await signedOut.close();

    const context = await contextIn(browser, lang, storage);
    const page = await context.newPage();
    const visit = async (path: string, screen: string, title: string | RegExp): Promise<void> => {
      await page.goto(`${baseUrl()}/app${path}`);
      await expect(page).toHaveTitle(title);
      await checkScreen(page, lang, screen);
    };

    await page.goto(`${baseUrl()}/app/documents`);
    await expect(page).toHaveTitle(pageTitle(lang, 'documents.pageTitle.active'));
    const row = page.getByRole('row').filter({ hasText: UPLOADED_NAME });
    await expect(row).toBeVisible();
    // The uploaded date is the row's fourth cell (after the checkbox, the name and the status).
    await expect(row.getByRole('gridcell').nth(3)).toHaveText(
      await expectedDate(page, lang, await createdAt(page, uploadedId)),
    );
    await checkScreen(page, lang, 'documents');

    await visit(`/document/${demoId}`, 'document', new RegExp(`^${DEMO_DOCUMENT}`));
    await visit(`/document/details/${demoId}`, 'details', new RegExp(`^${DEMO_DOCUMENT}`));
    await visit('/archive', 'archive', pageTitle(lang, 'documents.pageTitle.archived'));
    await visit(`/signflow/new/${uploadedId}`, 'signflow', pageTitle(lang, 'signflow.new.title'));
    // No demo document waits for Bob's signature; his own upload, signed alone, is the sign screen.
    await visit(`/sign/${uploadedId}`, 'sign', pageTitle(lang, 'documents.sign.title'));
    await visit('/settings', 'settings', pageTitle(lang, 'settings.title'));
    await visit('/connections/users', 'connections', pageTitle(lang, 'connections.pageTitle'));
    await visit('/connections/groups', 'sign-groups', pageTitle(lang, 'connections.pageTitle'));
    await visit('/releases', 'releases', pageTitle(lang, 'releases.title'));
    await visit('/faq', 'faq', pageTitle(lang, 'help.faq.title'));
    // An unknown route lands on the documents list.
    await visit('/no-such-screen', 'unknown-route', pageTitle(lang, 'documents.pageTitle.active'));
    await expect(page).toHaveURL(/\/app\/documents$/);
    await context.close();
  });
}
