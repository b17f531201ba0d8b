import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SUPPORT_EMAIL_NL, DEFAULT_SUPPORT_EMAIL_UK, loadConfig } from '../../server/config.ts';
import {
  DEFAULT_SUPPORT_EMAIL_NL as APP_DEFAULT_NL,
  DEFAULT_SUPPORT_EMAIL_UK as APP_DEFAULT_UK,
  isSupportEmailAddress,
} from '../../src/services/help.ts';
import { buildTestApp, makeFakeAppDir, type TestApp } from './helpers.ts';

describe("the sidebar's support addresses (PARAPH_SUPPORT_EMAIL_UK / _NL)", () => {
  let t: TestApp | null = null;
  let appDir: string | null = null;

  afterEach(async () => {
    await t?.close();
    if (appDir !== null) await fs.rm(appDir, { recursive: true, force: true });
    t = null;
    appDir = null;
  });

  it('defaults to the same addresses as the app, which reads them when the page has none', () => {
    const config = loadConfig({});
    expect(config.supportEmailUk).toBe(DEFAULT_SUPPORT_EMAIL_UK);
    expect(config.supportEmailNl).toBe(DEFAULT_SUPPORT_EMAIL_NL);
    expect([APP_DEFAULT_UK, APP_DEFAULT_NL]).toEqual([DEFAULT_SUPPORT_EMAIL_UK, DEFAULT_SUPPORT_EMAIL_NL]);
  });

  it('takes configured addresses, trimmed', () => {
    const config = loadConfig({
      PARAPH_SUPPORT_EMAIL_UK: ' help@paraph.co.uk ',
      PARAPH_SUPPORT_EMAIL_NL: 'klantenservice@paraph.nl',
    });
    expect(config.supportEmailUk).toBe('help@paraph.co.uk');
    expect(config.supportEmailNl).toBe('klantenservice@paraph.nl');
  });

  it.each([
    'not-an-address',
    'help@localhost',
    'a@b.nl?cc=someone@else.example',
    'a@b.nl,c@d.nl',
    'Help <help@paraph.nl>',
    'a b@paraph.nl',
  ])('refuses "%s" at start-up, on the server as in the app', (value) => {
    expect(() => loadConfig({ PARAPH_SUPPORT_EMAIL_NL: value })).toThrow(
      /PARAPH_SUPPORT_EMAIL_NL must be an e-mail address/,
    );
    expect(() => loadConfig({ PARAPH_SUPPORT_EMAIL_UK: value })).toThrow(/PARAPH_SUPPORT_EMAIL_UK/);
    expect(isSupportEmailAddress(value)).toBe(false);
  });

  it("writes both addresses into the app's page, however the page is asked for", async () => {
    appDir = await makeFakeAppDir();
    t = await buildTestApp({
      appDir,
      env: {
        PARAPH_SUPPORT_EMAIL_UK: 'help@paraph.co.uk',
        PARAPH_SUPPORT_EMAIL_NL: 'klantenservice@paraph.nl',
      },
    });
    for (const url of ['/app/', '/app/faq', '/app/index.html']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<meta name="paraph:support-email-uk" content="help@paraph.co.uk" />');
      expect(page.body, url).toContain(
        '<meta name="paraph:support-email-nl" content="klantenservice@paraph.nl" />',
      );
    }
  });

  it('serves a built guide as a PDF under /app/help/', async () => {
    appDir = await makeFakeAppDir();
    await fs.mkdir(`${appDir}/help`);
    await fs.writeFile(`${appDir}/help/quick-guide-es.pdf`, '%PDF-1.7\n%%EOF\n');
    t = await buildTestApp({ appDir });
    const guide = await t.app.inject({ url: '/app/help/quick-guide-es.pdf' });
    expect(guide.statusCode).toBe(200);
    expect(guide.headers['content-type']).toBe('application/pdf');
    expect(guide.body.startsWith('%PDF-')).toBe(true);
  });
});
