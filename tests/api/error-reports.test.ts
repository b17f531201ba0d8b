import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_REPORT_LIMIT, USER_AGENT_MAX_LENGTH } from '../../server/handlers/error-reports.ts';
import { pruneErrorReports } from '../../server/jobs/autodeletion.ts';
import { DAY_MS } from '../../server/config.ts';
import { bearer, buildTestApp, expectMatchesContract, type TestApp } from './helpers.ts';

const REPORT = {
  message: 'Cannot read properties of undefined (reading "id")',
  stack: 'TypeError: Cannot read properties of undefined\n    at DocumentPage (/app/assets/index-abc.js:1:2)',
  url: '/app/documents',
  version: 'v2.34.1',
};

describe('POST /api/error_reports', () => {
  let t: TestApp;
  let now: Date;

  beforeEach(async () => {
    now = new Date('2025-03-01T10:00:00.000Z');
    t = await buildTestApp({ clock: () => now });
  });
  afterEach(async () => {
    await t.close();
  });

  function send(
    payload: unknown,
    options: { headers?: Record<string, string>; remoteAddress?: string } = {},
  ) {
    return t.app.inject({
      method: 'POST',
      url: '/api/error_reports',
      payload: payload as Record<string, unknown>,
      headers: { 'user-agent': 'Mozilla/5.0 (Test)', ...options.headers },
      ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
    });
  }

  const reports = () => t.deps.db.selectFrom('error_reports').selectAll().orderBy('created_at').execute();

  it('takes a report without a token: 202, no body, stored without a user', async () => {
    const response = await send(REPORT);
    expect(response.statusCode, response.body).toBe(202);
    expect(response.body).toBe('');
    expectMatchesContract('createErrorReport', 202, response.body);
    const [row, ...others] = await reports();
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      user_id: null,
      message: REPORT.message,
      stack: REPORT.stack,
      route: '/app/documents',
      version: 'v2.34.1',
      user_agent: 'Mozilla/5.0 (Test)',
      ip: '127.0.0.1',
      created_at: now.toISOString(),
    });
    expect(row?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('ties the report to the user of a valid token, and takes it anonymously with an invalid one', async () => {
    const ada = await t.createUser({ email: 'ada@example.test' });
    const token = await t.signIn(ada.email);
    expect((await send(REPORT, { headers: bearer(token) })).statusCode).toBe(202);
    const invalid = await send({ ...REPORT, url: '/app/settings' }, { headers: bearer('not-a-token') });
    expect(invalid.statusCode, invalid.body).toBe(202);
    const rows = await reports();
    expect(rows.map((row) => [row.route, row.user_id])).toEqual([
      ['/app/documents', ada.id],
      ['/app/settings', null],
    ]);
  });

  it('needs only the message and the route', async () => {
    const response = await send({ message: 'boom', url: '/app/' }, { headers: { 'user-agent': '' } });
    expect(response.statusCode, response.body).toBe(202);
    const [row] = await reports();
    expect(row).toMatchObject({
      message: 'boom',
      stack: null,
      version: null,
      user_agent: null,
      route: '/app/',
    });
  });

  it('refuses a missing, blank or oversized field, an unknown field and a route that is not a path with 400', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['message', { url: '/app/documents' }],
      ['message', { ...REPORT, message: '' }],
      ['message', { ...REPORT, message: '   ' }],
      ['message', { ...REPORT, message: 'x'.repeat(1001) }],
      ['stack', { ...REPORT, stack: 'x'.repeat(20_001) }],
      ['url', { message: 'boom' }],
      ['url', { ...REPORT, url: `/app/${'x'.repeat(508)}` }],
      ['url', { ...REPORT, url: 'documents' }],
      ['url', { ...REPORT, url: 'javascript:alert(1)' }],
      ['version', { ...REPORT, version: 'v'.repeat(33) }],
      ['token', { ...REPORT, token: 'secret-token' }],
    ];
    for (const [field, payload] of cases) {
      const response = await send(payload);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expectMatchesContract('createErrorReport', 400, response.json());
      expect(response.json<{ field?: string }>().field, JSON.stringify(payload).slice(0, 80)).toBe(field);
    }
    expect(await reports()).toEqual([]);
    // The limits themselves are allowed.
    const longest = {
      message: 'x'.repeat(1000),
      stack: 's'.repeat(20_000),
      url: `/${'r'.repeat(511)}`,
      version: 'v'.repeat(32),
    };
    expect((await send(longest)).statusCode).toBe(202);
  });

  it('never stores a query string or a fragment, and keeps only the path of an absolute URL', async () => {
    const urls = [
      '/app/documents?search=confidential&access_token=secret-token',
      '/app/auth#access_token=secret-token',
      'https://paraph.example/app/sign/d1?return_to=%2Fapp%2Fsecret',
    ];
    for (const url of urls) expect((await send({ ...REPORT, url })).statusCode).toBe(202);
    const rows = await reports();
    expect(rows.map((row) => row.route)).toEqual(['/app/documents', '/app/auth', '/app/sign/d1']);
    expect(JSON.stringify(rows)).not.toMatch(/secret|confidential/);
  });

  it('shortens a long User-Agent header', async () => {
    const response = await send(REPORT, { headers: { 'user-agent': 'A'.repeat(2000) } });
    expect(response.statusCode).toBe(202);
    const [row] = await reports();
    expect(row?.user_agent).toBe('A'.repeat(USER_AGENT_MAX_LENGTH));
  });

  it('logs the report id and route, never the message, the stack or the token', async () => {
    const ada = await t.createUser();
    const token = await t.signIn(ada.email);
    await send(
      { ...REPORT, message: 'secret-message-text', stack: 'secret-stack-frame' },
      { headers: bearer(token) },
    );
    const [row] = await reports();
    const logs = t.logs();
    expect(logs).toContain(String(row?.id));
    expect(logs).not.toContain('secret-message-text');
    expect(logs).not.toContain('secret-stack-frame');
    expect(logs).not.toContain(token);
  });

  it(`answers 429 after ${ERROR_REPORT_LIMIT.max} reports a minute from one address, and takes them again later`, async () => {
    for (let count = 0; count < ERROR_REPORT_LIMIT.max; count += 1) {
      expect((await send(REPORT, { remoteAddress: '10.0.0.1' })).statusCode).toBe(202);
      now = new Date(now.getTime() + 1000);
    }
    const limited = await send(REPORT, { remoteAddress: '10.0.0.1' });
    expect(limited.statusCode).toBe(429);
    expectMatchesContract('createErrorReport', 429, limited.json());
    expect(limited.json<{ code: string }>().code).toBe('too_many_requests');
    // The first report leaves the window 60 s after it came, 50 s from now.
    expect(limited.headers['retry-after']).toBe('50');
    expect(await reports()).toHaveLength(ERROR_REPORT_LIMIT.max);

    expect((await send(REPORT, { remoteAddress: '10.0.0.2' })).statusCode).toBe(202);

    now = new Date(now.getTime() + 50_000);
    expect((await send(REPORT, { remoteAddress: '10.0.0.1' })).statusCode).toBe(202);
  });

  it('removes reports older than the retention period (90 days by default) and keeps younger ones', async () => {
    expect(t.deps.config.errorReportRetentionDays).toBe(90);
    const sentAt = now;
    expect((await send({ ...REPORT, url: '/app/old' })).statusCode).toBe(202);
    now = new Date(sentAt.getTime() + 89 * DAY_MS);
    expect((await send({ ...REPORT, url: '/app/young' })).statusCode).toBe(202);
    expect(await pruneErrorReports(t.deps)).toBe(0);

    now = new Date(sentAt.getTime() + 90 * DAY_MS + 1);
    expect(await pruneErrorReports(t.deps)).toBe(1);
    expect((await reports()).map((row) => row.route)).toEqual(['/app/young']);
    expect(await pruneErrorReports(t.deps)).toBe(0);
  });
});
