import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { apiOperations, loadContract } from '../../server/http/contract.ts';
import { contentSecurityPolicy } from '../../server/http/security-headers.ts';
import { inlineScriptHashes } from '../../server/pages/spa.ts';
import { bearer, buildTestApp, expectMatchesContract, makeFakeAppDir, type TestApp } from './helpers.ts';

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers).toMatchObject(SECURITY_HEADERS);
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
}

describe('the platform: routing, errors, headers, the app and the log', () => {
  let t: TestApp;
  let appDir: string;

  beforeAll(async () => {
    appDir = await makeFakeAppDir();
  });
  afterAll(async () => {
    await fs.rm(appDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    t = await buildTestApp({ appDir });
  });
  afterEach(async () => {
    await t.close();
  });

  it('has a handler for every /api operation of the contract, so none answers 501 not_implemented', () => {
    // The server answers 501 for an operation without a handler; since [6/6] every one is built.
    const unbuilt = apiOperations(loadContract())
      .map((operation) => operation.operationId)
      .filter((operationId) => HANDLERS[operationId] === undefined);
    expect(unbuilt).toEqual([]);
  });

  it('answers a JSON error with a code for unknown routes and malformed JSON, never a stack trace', async () => {
    const user = await t.createUser();
    const token = await t.signIn(user.email);
    const unknown = await t.app.inject({ url: '/api/nothing/here', headers: bearer(token) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });

    const broken = await t.app.inject({
      method: 'PATCH',
      url: '/api/profiles/update_settings',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"settings": ',
    });
    expect(broken.statusCode).toBe(400);
    expectMatchesContract('updateProfileSettings', 400, broken.json());
    expect(broken.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('turns an unexpected failure into 500 internal_error without details, and logs it', async () => {
    await t.close();
    t = await buildTestApp({
      handlers: {
        listSmartCards: async () => {
          throw new Error('database exploded at /secret/path.ts:12');
        },
      },
    });
    const user = await t.createUser();
    const token = await t.signIn(user.email);
    const response = await t.app.inject({ url: '/api/smart_cards', headers: bearer(token) });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: 'internal_error',
      message: 'Something went wrong on the server.',
    });
    expect(t.logs()).toContain('database exploded');
  });

  it('sends the security headers on /api (with no-store), /sign_in, /app/ and errors', async () => {
    const api = await t.app.inject({ url: '/api/profiles' });
    expectSecurityHeaders(api.headers);
    expect(api.headers['cache-control']).toBe('no-store');

    const signIn = await t.app.inject({ url: '/sign_in' });
    expectSecurityHeaders(signIn.headers);

    const app = await t.app.inject({ url: '/app/' });
    expect(app.statusCode).toBe(200);
    expectSecurityHeaders(app.headers);

    const missing = await t.app.inject({ url: '/nowhere' });
    expectSecurityHeaders(missing.headers);
  });

  it('adds the S3 endpoint origin to img-src, connect-src and frame-src when S3 is configured', () => {
    const config = loadConfig({ S3_BUCKET: 'paraph', S3_ENDPOINT: 'https://minio.example:9000/base' });
    const csp = contentSecurityPolicy(config);
    expect(csp).toContain("img-src 'self' data: blob: https://minio.example:9000;");
    expect(csp).toContain(
      "connect-src 'self' https://minio.example:9000 https://nominatim.openstreetmap.org;",
    );
    expect(csp).toContain("frame-src 'self' https://minio.example:9000;");
    expect(csp).toContain("script-src 'self';");
    expect(contentSecurityPolicy(loadConfig({}))).not.toContain('minio');
  });

  it("lets the sign screen's geocoder through the CSP, and refuses a geocoder that is not http(s)", () => {
    expect(contentSecurityPolicy(loadConfig({}))).toContain(
      "connect-src 'self' https://nominatim.openstreetmap.org;",
    );
    const local = loadConfig({ PARAPH_GEOCODER_URL: 'http://127.0.0.1:9123/reverse?lat={lat}&lon={lon}' });
    expect(contentSecurityPolicy(local)).toContain("connect-src 'self' http://127.0.0.1:9123;");
    expect(() => loadConfig({ PARAPH_GEOCODER_URL: 'javascript:alert(1)' })).toThrow(/PARAPH_GEOCODER_URL/);
  });

  it("writes the geocoder's address into the app's page, escaped, however the page is asked for", async () => {
    await t.close();
    t = await buildTestApp({
      appDir: await makeFakeAppDir(),
      env: { PARAPH_GEOCODER_URL: 'https://geo.example/r?a="b"&lat={lat}&lon={lon}' },
    });
    for (const url of ['/app/', '/app/sign/abc', '/app/index.html']) {
      const page = await t.app.inject({ url });
      expect(page.body, url).toContain(
        '<meta name="paraph:geocoder-url" content="https://geo.example/r?a=&quot;b&quot;&amp;lat={lat}&amp;lon={lon}" />',
      );
    }
  });

  it('serves the built app: / and /app redirect to /app/, assets cached long, every other path gets index.html uncached', async () => {
    const root = await t.app.inject({ url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/app/');
    expect((await t.app.inject({ url: '/app' })).headers.location).toBe('/app/');

    const index = await t.app.inject({ url: '/app/' });
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['cache-control']).toBe('no-store');
    expect(index.body).toContain('<div id="root">');

    const deep = await t.app.inject({ url: '/app/documents/to-do?x=1' });
    expect(deep.statusCode).toBe(200);
    expect(deep.headers['cache-control']).toBe('no-store');
    expect(deep.body).toContain('<div id="root">');

    const asset = await t.app.inject({ url: '/app/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toContain('paraph');

    const escape = await t.app.inject({ url: '/app/..%2F..%2Fetc%2Fpasswd' });
    expect(escape.body).not.toContain('root:');
  });

  it("allows the page's own inline start-up script by its hash, and no other inline script anywhere", async () => {
    const script = '(function(){document.documentElement.dataset.started="yes"})();';
    await fs.writeFile(
      path.join(appDir, 'index.html'),
      `<!doctype html><html><head><title>Paraph</title><script>${script}</script><script type="module" src="/app/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`,
    );
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    const scriptSources = (csp: unknown) =>
      String(csp)
        .split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('script-src'));
    for (const url of ['/app/', '/app/sign/abc']) {
      const page = await t.app.inject({ url });
      expect(page.body).toContain(`<script>${script}</script>`);
      expect(scriptSources(page.headers['content-security-policy']), url).toBe(
        `script-src 'self' 'sha256-${hash}'`,
      );
    }
    for (const url of ['/app/assets/index-abc123.js', '/api/profiles', '/sign_in']) {
      const other = await t.app.inject({ url });
      expect(scriptSources(other.headers['content-security-policy']), url).toBe("script-src 'self'");
    }
    expect(inlineScriptHashes('<script>a</script><script type="module" src="/x.js"></script>')).toEqual([
      `sha256-${createHash('sha256').update('a').digest('base64')}`,
    ]);
  });

  it('sends a hashed text asset brotli- or gzip-compressed as the browser takes it, and the same bytes', async () => {
    const original = 'export const words = "' + 'paraph signs documents. '.repeat(200) + '";\n';
    await fs.writeFile(path.join(appDir, 'assets', 'words-def456.js'), original);
    const asked = (acceptEncoding?: string) =>
      t.app.inject({
        url: '/app/assets/words-def456.js',
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });

    const br = await asked('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.length).toBeLessThan(original.length / 10);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(original);

    const gzip = await asked('gzip;q=1.0, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(original);

    const plain = await asked();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(original);

    // A file too small to gain anything goes as it is.
    const tiny = await t.app.inject({
      url: '/app/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toContain('paraph');
  });

  it('answers /app/ with 503 "Run npm run build first" when the app is not built', async () => {
    await t.close();
    t = await buildTestApp();
    const response = await t.app.inject({ url: '/app/documents' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toBe('Run npm run build first');
    expectSecurityHeaders(response.headers);
  });

  it('never logs the Authorization header, a token, the session cookie or query strings', async () => {
    const user = await t.createUser({ email: 'logged@example.test' });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: user.email, password: user.password }).toString(),
    });
    const cookie = signIn.cookies.find((entry) => entry.name === 'paraph_session')?.value ?? '';
    expect(cookie).not.toBe('');
    const token = (await t.app.inject({ url: '/api/tokens', cookies: { paraph_session: cookie } })).json<{
      access_token: string;
    }>().access_token;
    await t.app.inject({ url: '/api/profiles', headers: bearer(token) });
    await t.app.inject({ url: '/api/documents/active?search=confidential-term', headers: bearer(token) });
    await t.app.inject({ url: '/storage/paraph/documents/x/original.pdf?X-Amz-Signature=deadbeefsecret' });
    await t.app.inject({
      url: '/api/log_out?return_to=%2Fapp%2Flogin%3Fsecret-return',
      headers: bearer(token),
      cookies: { paraph_session: cookie },
    });

    const logs = t.logs();
    expect(logs).toContain('/api/profiles');
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(cookie);
    expect(logs).not.toMatch(/authorization/i);
    expect(logs).not.toMatch(/bearer/i);
    expect(logs).not.toContain('deadbeefsecret');
    expect(logs).not.toContain('secret-return');
    expect(logs).not.toContain('confidential-term');
    expect(logs).not.toContain(user.password);
  });
});
