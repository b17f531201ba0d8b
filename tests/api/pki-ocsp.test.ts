// OCSP (server/signing/pki/ocsp.ts): the responder answering what `openssl ocsp -reqout` asks, checked with
// `openssl ocsp -respin`; the client fetching from the URL in a certificate's authority information access
// (a local HTTP server), with its cache, and failing cleanly on timeouts and answers that do not check out.
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RevocationUnavailableError } from '../../server/signing/pki/errors.ts';
import {
  fetchOcspResponse,
  ocspResponder,
  readOcspResponse,
  type OcspCache,
  type OcspResponder,
} from '../../server/signing/pki/ocsp.ts';
import type { CertificateStatus } from '../../server/signing/pki/types.ts';
import { makeTestPki, run, startServer, type TestPki, type TestServer } from './pki-support.ts';

let dir: string;
let pki: TestPki;
let server: TestServer;
let fileCounter = 0;
// What the local server at the signer's OCSP URL does with a request; each test sets it.
let handle: (body: Buffer) => Promise<{ status?: number; body: Uint8Array } | 'hang'>;

const REVOKED_AT = new Date('2026-02-03T04:05:06Z');
const statuses = new Map<string, CertificateStatus>();
let now = new Date();
const clock = () => now;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-pki-ocsp-'));
  server = await startServer(async (body, _request, response) => {
    const outcome = await handle(body);
    if (outcome === 'hang') return;
    response.writeHead(outcome.status ?? 200, { 'content-type': 'application/ocsp-response' });
    response.end(outcome.body);
  });
  pki = await makeTestPki(dir, { ocspUrl: `${server.url}/pki/ocsp` });
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const serialOf = (certificate: { certificate: Uint8Array }) =>
  new X509Certificate(certificate.certificate).serialNumber;

function responder(overrides: Partial<Parameters<typeof ocspResponder>[0]> = {}): OcspResponder {
  return ocspResponder({
    issuerCertificate: pki.ca.certificate,
    responderCertificate: pki.ocsp.certificate,
    responderKey: pki.ocsp.privateKey,
    status: async (serialNumber) => statuses.get(serialNumber) ?? { status: 'good' },
    clock,
    validityMs: HOUR,
    ...overrides,
  });
}

beforeEach(() => {
  now = new Date();
  statuses.clear();
  statuses.set(serialOf(pki.signer), { status: 'revoked', revokedAt: REVOKED_AT, reason: 'keyCompromise' });
  const answering = responder();
  handle = async (body) => ({ body: await answering.answer(body) });
});

async function write(name: string, bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-${name}`);
  await writeFile(file, bytes);
  return file;
}

async function opensslRequest(
  issuer: string,
  ...certificates: string[]
): Promise<{ file: string; der: Buffer }> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-req.der`);
  await run('openssl', [
    'ocsp',
    '-issuer',
    issuer,
    ...certificates.flatMap((item) => ['-cert', item]),
    '-reqout',
    file,
  ]);
  return { file, der: await readFile(file) };
}

/** openssl's reading of a response: its statuses for `certificates`, and whether it verified (stderr). */
async function opensslStatus(response: Uint8Array, issuer: string, ...certificates: string[]) {
  const args = ['ocsp', '-respin', await write('resp.der', response), '-issuer', issuer, '-no_nonce'];
  try {
    const { stdout, stderr } = await run('openssl', [
      ...args,
      ...certificates.flatMap((item) => ['-cert', item]),
      ...['-CAfile', pki.root.file],
    ]);
    return { stdout, verified: /Response verify OK/.test(stderr), stderr };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { stdout: failed.stdout ?? '', verified: false, stderr: failed.stderr ?? String(error) };
  }
}

describe('the OCSP responder', () => {
  it('answers `openssl ocsp -reqout` for several certificates: revoked with time and reason, good; signed, verifying', async () => {
    const request = await opensslRequest(pki.ca.file, pki.signer.file, pki.tsa.file);
    const response = await responder().answer(request.der);
    const read = await opensslStatus(response, pki.ca.file, pki.signer.file, pki.tsa.file);

    expect(read.verified).toBe(true);
    expect(read.stdout).toMatch(
      new RegExp(
        `${pki.signer.file}: revoked\\n.*This Update: .*\\n.*Next Update: .*\\n.*Reason: keyCompromise\\n.*Revocation Time: Feb {2}3 04:05:06 2026 GMT`,
      ),
    );
    expect(read.stdout).toContain(`${pki.tsa.file}: good`);
  });

  it('echoes the request’s nonce, which openssl checks against the request', async () => {
    const request = await opensslRequest(pki.ca.file, pki.tsa.file);
    const response = await write('resp.der', await responder().answer(request.der));
    const { stderr } = await run('openssl', [
      'ocsp',
      '-respin',
      response,
      '-reqin',
      request.file,
      '-CAfile',
      pki.root.file,
    ]);
    expect(stderr).toMatch(/Response verify OK/);

    const nonceOf = async (args: string[]) =>
      /OCSP Nonce: *\n\s*([0-9A-F]+)/.exec(
        (await run('openssl', ['ocsp', ...args, '-noverify'])).stdout,
      )?.[1];
    const sent = await nonceOf(['-reqin', request.file, '-req_text']);
    expect(sent).toMatch(/^0410[0-9A-F]{32}$/);
    expect(await nonceOf(['-respin', response, '-resp_text'])).toBe(sent);
  });

  it('answers unknown for a certificate another CA issued', async () => {
    const request = await opensslRequest(pki.root.file, pki.ca.file);
    const read = await opensslStatus(await responder().answer(request.der), pki.root.file, pki.ca.file);
    expect(read.stdout).toContain(`${pki.ca.file}: unknown`);
  });

  it('answers malformedRequest to what is not an OCSP request, and does not throw', async () => {
    for (const garbage of [
      Buffer.from('not der'),
      Buffer.alloc(0),
      Buffer.from([0x30, 0x03, 0x30, 0x01, 0x00]),
    ]) {
      const response = await responder().answer(garbage);
      expect(readOcspResponse(response)).toEqual({ responseStatus: 'malformedRequest' });
      const { stdout } = await run('openssl', [
        'ocsp',
        '-respin',
        await write('m.der', response),
        '-resp_text',
      ]).catch((error: { stdout: string }) => error);
      expect(stdout).toMatch(/Responder Error: malformedrequest \(1\)/);
    }
  });

  it('makes a response for one of its certificates unasked (for the DSS), current for validityMs', async () => {
    const response = await responder().responseFor(pki.tsa.certificate);
    const read = await opensslStatus(response, pki.ca.file, pki.tsa.file);
    expect(read.verified).toBe(true);
    expect(read.stdout).toContain(`${pki.tsa.file}: good`);

    const info = readOcspResponse(response);
    if (info.responseStatus !== 'successful') throw new Error('expected a successful response');
    expect(info.responses).toHaveLength(1);
    expect(info.responses[0]?.serialNumber).toBe(serialOf(pki.tsa));
    expect(info.responses[0]?.thisUpdate).toEqual(new Date(Math.floor(now.getTime() / 1000) * 1000));
    expect(info.responses[0]?.nextUpdate).toEqual(new Date(Math.floor(now.getTime() / 1000) * 1000 + HOUR));
    expect(info.producedAt).toEqual(info.responses[0]?.thisUpdate);
    expect(info.certificates[0]).toEqual(pki.ocsp.certificate);

    await expect(responder().responseFor(pki.ca.certificate)).rejects.toThrow(/not issued by the CA/);
  });

  it('answers internalError rather than sign with a responder certificate that has expired', async () => {
    const late = responder({ clock: () => new Date('2040-01-01T00:00:00Z') });
    const request = await opensslRequest(pki.ca.file, pki.tsa.file);
    const response = await late.answer(request.der);
    expect(readOcspResponse(response)).toEqual({ responseStatus: 'internalError' });
    const { stdout } = await run('openssl', [
      'ocsp',
      '-respin',
      await write('late.der', response),
      '-resp_text',
    ]).catch((error: { stdout: string }) => error);
    expect(stdout).toMatch(/Responder Error: internalerror \(2\)/);
    await expect(late.responseFor(pki.tsa.certificate)).rejects.toThrow(/not valid on 2040-01-01/);
  });

  it('refuses to start with a responder certificate another CA issued', () => {
    expect(() =>
      ocspResponder({
        issuerCertificate: pki.ca.certificate,
        responderCertificate: pki.root.certificate,
        responderKey: pki.root.privateKey,
        status: async () => ({ status: 'good' }),
        clock,
        validityMs: HOUR,
      }),
    ).toThrow(/not issued by the CA/);
  });
});

describe('fetching an OCSP response', () => {
  const fetchFor = (certificate: Uint8Array, extra: { cache?: OcspCache; timeoutMs?: number } = {}) =>
    fetchOcspResponse({
      certificate,
      issuer: pki.ca.certificate,
      timeoutMs: extra.timeoutMs ?? 3000,
      clock,
      ...extra,
    });

  it('asks the responder the certificate names (AIA) and answers the status with the DER openssl verifies', async () => {
    const requests: Buffer[] = [];
    const answering = responder();
    handle = async (body) => {
      requests.push(body);
      return { body: await answering.answer(body) };
    };
    const fetched = await fetchFor(pki.signer.certificate);

    expect(requests).toHaveLength(1);
    expect(fetched.status).toEqual({ status: 'revoked', revokedAt: REVOKED_AT, reason: 'keyCompromise' });
    expect(fetched.serialNumber).toBe(serialOf(pki.signer));
    expect(fetched.responder).toEqual(pki.ocsp.certificate);
    const read = await opensslStatus(fetched.der, pki.ca.file, pki.signer.file);
    expect(read.verified).toBe(true);
    expect(read.stdout).toContain(`${pki.signer.file}: revoked`);
    // The request openssl reads: one certificate, with a nonce.
    const text = (
      await run('openssl', [
        'ocsp',
        '-reqin',
        await write('q.der', requests[0] ?? Buffer.alloc(0)),
        '-req_text',
      ])
    ).stdout;
    expect(text).toMatch(new RegExp(`Serial Number: ${serialOf(pki.signer)}`));
    expect(text).toMatch(/OCSP Nonce/);
  });

  it('keeps the response in the cache until its nextUpdate, and asks again after', async () => {
    const entries = new Map<string, { der: Uint8Array; until: Date }>();
    // A cache that forgets nothing by itself: the response's own nextUpdate has to be minded too.
    const cache: OcspCache = {
      get: async (key) => entries.get(key)?.der ?? null,
      set: async (key, der, until) => {
        entries.set(key, { der, until });
      },
    };
    let requests = 0;
    const answering = responder();
    handle = async (body) => {
      requests += 1;
      return { body: await answering.answer(body) };
    };

    const first = await fetchFor(pki.signer.certificate, { cache });
    expect(requests).toBe(1);
    expect([...entries.values()].map((entry) => entry.until)).toEqual([first.nextUpdate]);
    expect(first.nextUpdate?.getTime()).toBe(Math.floor(now.getTime() / 1000) * 1000 + HOUR);

    now = new Date(now.getTime() + HOUR - 60_000);
    const second = await fetchFor(pki.signer.certificate, { cache });
    expect(requests).toBe(1);
    expect(second.der).toEqual(first.der);

    now = new Date(now.getTime() + 2 * 60_000);
    const third = await fetchFor(pki.signer.certificate, { cache });
    expect(requests).toBe(2);
    expect(third.thisUpdate.getTime()).toBeGreaterThan(first.thisUpdate.getTime());
  });

  it('fails with RevocationUnavailableError when the responder does not answer in time', async () => {
    handle = async () => 'hang';
    const started = Date.now();
    const attempt = fetchFor(pki.signer.certificate, { timeoutMs: 200 });
    await expect(attempt).rejects.toThrow(RevocationUnavailableError);
    await expect(attempt).rejects.toThrow(/no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([
    ['garbage', async () => ({ body: Buffer.from('<html>502 Bad Gateway</html>') }), /not an OCSP response/],
    ['an HTTP error', async () => ({ status: 503, body: Buffer.from('down') }), /HTTP 503/],
    [
      'an error status',
      async (body: Buffer) => ({ body: await responder().answer(body.subarray(1)) }),
      /malformedRequest/,
    ],
    [
      'a response about another certificate',
      async () => ({ body: await responder().responseFor(pki.tsa.certificate) }),
      /not about this certificate/,
    ],
    [
      'a response signed by a certificate the CA did not make a responder',
      async (body: Buffer) => ({
        body: await responder({
          responderCertificate: pki.tsa.certificate,
          responderKey: pki.tsa.privateKey,
        }).answer(body),
      }),
      /not for OCSP signing/,
    ],
  ])('fails with RevocationUnavailableError for %s', async (_name, answer, reason) => {
    handle = answer;
    const attempt = fetchFor(pki.signer.certificate);
    await expect(attempt).rejects.toThrow(RevocationUnavailableError);
    await expect(attempt).rejects.toThrow(reason);
  });

  it('fails with RevocationUnavailableError for an out-of-date answer', async () => {
    // The responder's clock is two hours behind ours: its answers (current for an hour) are stale here.
    const responderNow = now;
    const stale = responder({ clock: () => responderNow });
    handle = async (body) => ({ body: await stale.answer(body) });
    now = new Date(now.getTime() + 2 * HOUR);
    const attempt = fetchFor(pki.signer.certificate);
    await expect(attempt).rejects.toThrow(RevocationUnavailableError);
    await expect(attempt).rejects.toThrow(/out of date/);
  });

  it('fails with RevocationUnavailableError for a certificate that names no responder', async () => {
    await expect(fetchFor(pki.tsa.certificate)).rejects.toThrow(/names no OCSP responder/);
  });
});
