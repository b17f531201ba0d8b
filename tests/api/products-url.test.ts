import fs from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCTS_URL, loadConfig } from '../../server/config.ts';
import { DEFAULT_PRODUCTS_URL as APP_DEFAULT, isProductsUrl } from '../../src/services/products.ts';
import { buildTestApp, makeFakeAppDir, type TestApp } from './helpers.ts';

describe("the no-product notice's products page (PARAPH_PRODUCTS_URL)", () => {
  let t: TestApp | null = null;
  let appDir: string | null = null;

  afterEach(async () => {
    await t?.close();
    if (appDir !== null) await fs.rm(appDir, { recursive: true, force: true });
    t = null;
    appDir = null;
  });

  it('defaults to the same address as the app, which uses it when the page has none', () => {
    expect(loadConfig({}).productsUrl).toBe(DEFAULT_PRODUCTS_URL);
    expect(APP_DEFAULT).toBe(DEFAULT_PRODUCTS_URL);
    expect(loadConfig({ PARAPH_PRODUCTS_URL: '  ' }).productsUrl).toBe(DEFAULT_PRODUCTS_URL);
  });

  it('takes a configured http(s) address, trimmed', () => {
    expect(loadConfig({ PARAPH_PRODUCTS_URL: ' https://shop.example.com/plans?lang=en ' }).productsUrl).toBe(
      'https://shop.example.com/plans?lang=en',
    );
    expect(loadConfig({ PARAPH_PRODUCTS_URL: 'http://intranet.example/paraph' }).productsUrl).toBe(
      'http://intranet.example/paraph',
    );
  });

  it.each(['javascript:alert(1)', 'data:text/html,hi', 'ftp://files.example/products', '/products', 'shop'])(
    'refuses "%s" at start-up, on the server as in the app',
    (value) => {
      expect(() => loadConfig({ PARAPH_PRODUCTS_URL: value })).toThrow(
        /PARAPH_PRODUCTS_URL must be an http\(s\) URL/,
      );
      expect(isProductsUrl(value)).toBe(false);
    },
  );

  it("writes the address into the app's page, escaped, however the page is asked for", async () => {
    appDir = await makeFakeAppDir();
    t = await buildTestApp({
      appDir,
      env: { PARAPH_PRODUCTS_URL: 'https://shop.example.com/plans?from=paraph&a="b"' },
    });
    for (const url of ['/app/', '/app/login/no-product', '/app/index.html']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain(
        '<meta name="paraph:products-url" content="https://shop.example.com/plans?from=paraph&amp;a=%22b%22" />',
      );
    }
  });

  it('writes the default when nothing is configured', async () => {
    appDir = await makeFakeAppDir();
    t = await buildTestApp({ appDir });
    const page = await t.app.inject({ url: '/app/login/no-product' });
    expect(page.body).toContain(`<meta name="paraph:products-url" content="${DEFAULT_PRODUCTS_URL}" />`);
  });
});
