// The deployment PKI's public routes (server/http/pki-routes.ts), asked over HTTP by the app listening on a
// port and judged by openssl, as a relying party would: the CA certificate (`openssl x509`), the CRL
// (`openssl crl -verify`, before and after a revocation), OCSP by POST (`openssl ocsp -url`) and by GET
// (RFC 6960 A.1, the answer checked with `openssl ocsp -respin`), and time-stamps (`openssl ts -query`,
// then `openssl ts -verify`). Then what a relying party may send wrong, and the database being away.
import { execFile } from 'node:child_process';
import { randomUUID, X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError } from '../../server/db/connection-errors.ts';
import type { DeploymentPki } from '../../server/signing/ca/index.ts';
import { certificatePem } from './deployment-pki-support.ts';
import { buildTestApp, type TestApp } from './helpers.ts';

const run = promisify(execFile);

let t: TestApp;
let base: string;
let dir: string;
let pki: DeploymentPki;
let caFile: string;
let fileCounter = 0;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = t.config.dataDir;
  pki = await t.deps.pki();
  caFile = await write('ca.pem', certificatePem(pki.ca.certificate));
}, 120_000);

afterAll(async () => {
  await t.close();
});

async function write(name: string, content: Uint8Array | string): Promise<string> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-${name}`);
  await writeFile(file, content);
  return file;
}

/** openssl's stdout and stderr together, and whether it exited 0 (a failing check is an answer too). */
async function openssl(args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run('openssl', args, { cwd: dir });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** A person's signing certificate from the deployment's CA, as a PEM file, and its serial. */
async function issueSigner(name: string): Promise<{ file: string; serial: string }> {
  const key = await pki.signerKey(
    { userId: randomUUID(), fullName: name, email: `${randomUUID().slice(0, 8)}@example.test` },
    new Date(),
  );
  return {
    file: await write('signer.pem', certificatePem(key.certificate)),
    serial: new X509Certificate(key.certificate).serialNumber,
  };
}

async function get(url: string): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(`${base}${url}`);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

async function post(
  url: string,
  contentType: string | null,
  payload: Uint8Array | string,
): Promise<{ response: Response; body: Buffer }> {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: contentType === null ? {} : { 'content-type': contentType },
    // A copy over an ArrayBuffer of its own, as fetch's types want (a Buffer may share Node's pool).
    body: typeof payload === 'string' ? payload : new Uint8Array(payload),
  });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

const ocspByPost = (signerFile: string) =>
  openssl(['ocsp', '-issuer', caFile, '-cert', signerFile, '-url', `${base}/pki/ocsp`, '-CAfile', caFile]);

/** `openssl ocsp -respin` on an answer already fetched: its verdict on the signature, and the status. */
async function readOcspAnswer(answer: Uint8Array, signerFile: string) {
  return openssl([
    'ocsp',
    '-respin',
    await write('answer.der', answer),
    '-issuer',
    caFile,
    '-cert',
    signerFile,
    // The request is not at hand here: without this, openssl would compare a nonce of its own making.
    '-no_nonce',
    '-CAfile',
    caFile,
  ]);
}

/** `openssl ocsp -respin -reqin`: the answer verifies and is for that request (its nonce echoed). */
async function answersRequest(answer: Uint8Array, requestFile: string) {
  return openssl([
    'ocsp',
    '-respin',
    await write('answer.der', answer),
    '-reqin',
    requestFile,
    '-CAfile',
    caFile,
  ]);
}

async function crlText(der: Uint8Array) {
  return openssl([
    'crl',
    '-inform',
    'DER',
    '-in',
    await write('crl.der', der),
    '-CAfile',
    caFile,
    '-noout',
    '-text',
  ]);
}

const databaseAway = () =>
  new DatabaseUnavailableError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));

describe('GET /pki/ca.crt', () => {
  it('is the deployment CA in DER, as openssl reads it, cacheable for a day', async () => {
    const { response, body } = await get('/pki/ca.crt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pkix-cert');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    const read = await openssl([
      'x509',
      '-inform',
      'DER',
      '-in',
      await write('ca.der', body),
      '-outform',
      'PEM',
    ]);
    expect(read.ok).toBe(true);
    expect(read.output.trim()).toBe(certificatePem(pki.ca.certificate).trim());
  });
});

describe('GET /pki/crl', () => {
  it("is the CA's CRL, verified by openssl against the CA, listing a certificate once it is revoked", async () => {
    const signer = await issueSigner('Crl Person');
    const before = await get('/pki/crl');
    expect(before.response.status).toBe(200);
    expect(before.response.headers.get('content-type')).toBe('application/pkix-crl');
    expect(before.response.headers.get('cache-control')).toBe('public, max-age=3600, no-transform');
    const beforeText = await crlText(before.body);
    expect(beforeText.output).toContain('verify OK');
    expect(beforeText.output.toUpperCase()).not.toContain(signer.serial);

    await pki.revoke(signer.serial, 'keyCompromise', new Date());

    const after = await get('/pki/crl');
    const afterText = await crlText(after.body);
    expect(afterText.ok).toBe(true);
    expect(afterText.output).toContain('verify OK');
    expect(afterText.output.toUpperCase()).toContain(`SERIAL NUMBER: ${signer.serial}`);
    expect(afterText.output).toContain('Key Compromise');
  });
});

describe('OCSP', () => {
  it('POST /pki/ocsp answers `openssl ocsp -url`: good, then revoked once the CA revokes the certificate', async () => {
    const signer = await issueSigner('Ocsp Person');
    const good = await ocspByPost(signer.file);
    expect(good.ok).toBe(true);
    expect(good.output).toContain('Response verify OK');
    expect(good.output).toContain(`${signer.file}: good`);

    await pki.revoke(signer.serial, 'keyCompromise', new Date());

    const revoked = await ocspByPost(signer.file);
    expect(revoked.output).toContain('Response verify OK');
    expect(revoked.output).toContain(`${signer.file}: revoked`);
    expect(revoked.output).toContain('Reason: keyCompromise');
  });

  it('a POST answer is not for caches', async () => {
    const signer = await issueSigner('Post Person');
    const request = await write('request.der', '');
    await openssl(['ocsp', '-issuer', caFile, '-cert', signer.file, '-reqout', request]);
    const { response } = await post('/pki/ocsp', 'application/ocsp-request', await readFile(request));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ocsp-response');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it("GET /pki/ocsp/<base64> answers the request in the URL, with '/', '+' and '=' encoded or not, or base64url", async () => {
    const signer = await issueSigner('Get Person');
    // openssl puts a random nonce in each request: made until its base64 holds a '/' and a '+'.
    let nonced = '';
    let encoded = '';
    for (let attempt = 0; attempt < 200 && !/(?=.*\/)(?=.*\+)/.test(encoded); attempt += 1) {
      nonced = await write('request.der', '');
      const made = await openssl(['ocsp', '-issuer', caFile, '-cert', signer.file, '-reqout', nonced]);
      expect(made.ok).toBe(true);
      encoded = (await readFile(nonced)).toString('base64');
    }
    expect(encoded).toMatch(/(?=.*\/)(?=.*\+)/);
    // Without a nonce the request is 83 bytes (a 16-byte serial), so its base64 ends in padding.
    const plain = await write('request.der', '');
    await openssl(['ocsp', '-issuer', caFile, '-cert', signer.file, '-no_nonce', '-reqout', plain]);
    const padded = (await readFile(plain)).toString('base64');
    expect(padded).toMatch(/=$/);

    const forms: [string, string, string][] = [
      ['URL-encoded base64', encodeURIComponent(encoded), nonced],
      ['base64 as it is', encoded, nonced],
      ['base64url', Buffer.from(encoded, 'base64').toString('base64url'), nonced],
      ['URL-encoded padding', encodeURIComponent(padded), plain],
      ['padding as it is', padded, plain],
    ];
    for (const [form, text, requestFile] of forms) {
      const { response, body } = await get(`/pki/ocsp/${text}`);
      expect({ form, status: response.status }).toEqual({ form, status: 200 });
      expect(response.headers.get('content-type')).toBe('application/ocsp-response');
      // RFC 5019's cacheable form: well inside the answer's own 24 hours.
      expect(response.headers.get('cache-control')).toBe(
        'public, max-age=300, no-transform, must-revalidate',
      );
      const forRequest = await answersRequest(body, requestFile);
      expect({ form, ok: forRequest.ok, output: forRequest.output }).toEqual({
        form,
        ok: true,
        output: expect.stringContaining('Response verify OK'),
      });
      expect(forRequest.output).not.toMatch(/nonce/i);
      const read = await readOcspAnswer(body, signer.file);
      expect(read.output).toContain('Response verify OK');
      expect(read.output).toContain(`${signer.file}: good`);
    }
  });

  it('answers malformedRequest, not for caches, to what is not an OCSP request, by POST or GET', async () => {
    const signer = await issueSigner('Garbage Person');
    const answers = [
      await post('/pki/ocsp', 'application/ocsp-request', 'this is not DER'),
      await post('/pki/ocsp', 'application/ocsp-request', Buffer.from([0x30, 0x82, 0xff, 0xff, 0x00])),
      await post('/pki/ocsp', 'application/ocsp-request', ''),
      await get('/pki/ocsp/bm90IGFuIE9DU1AgcmVxdWVzdA%3D%3D'),
      await get('/pki/ocsp/not!base64'),
      await get('/pki/ocsp/'),
    ];
    for (const { response, body } of answers) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/ocsp-response');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const read = await readOcspAnswer(body, signer.file);
      expect(read.output).toContain('Responder Error: malformedrequest (1)');
    }
  });
});

describe('POST /pki/tsa', () => {
  it('grants a token for `openssl ts -query` that `openssl ts -verify` accepts against the CA', async () => {
    const data = await write('data.txt', 'a document worth a time-stamp\n');
    const query = await write('request.tsq', '');
    expect((await openssl(['ts', '-query', '-data', data, '-sha256', '-cert', '-out', query])).ok).toBe(true);
    const { response, body } = await post('/pki/tsa', 'application/timestamp-query', await readFile(query));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/timestamp-reply');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const reply = await write('reply.tsr', body);

    const byData = await openssl(['ts', '-verify', '-data', data, '-in', reply, '-CAfile', caFile]);
    expect(byData.output).toContain('Verification: OK');
    // Against the query too: the same imprint, and the nonce openssl put in it.
    const byQuery = await openssl(['ts', '-verify', '-queryfile', query, '-in', reply, '-CAfile', caFile]);
    expect(byQuery.output).toContain('Verification: OK');
  });

  it('rejects what is not a time-stamp request with badDataFormat', async () => {
    const { response, body } = await post('/pki/tsa', 'application/timestamp-query', 'this is not DER');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/timestamp-reply');
    const read = await openssl(['ts', '-reply', '-in', await write('reply.tsr', body), '-text']);
    expect(read.output).toContain('Status: Rejected');
    expect(read.output).toContain('Failure info: the data submitted has the wrong format');
  });

  it('is not there when PARAPH_TSA_URL names another TSA, whatever is sent', async () => {
    const remote = await buildTestApp({ env: { PARAPH_TSA_URL: 'http://127.0.0.1:9/tsa' } });
    try {
      const query = await write('request.tsq', '');
      await openssl(['ts', '-query', '-data', caFile, '-sha256', '-cert', '-out', query]);
      for (const contentType of ['application/timestamp-query', 'application/json']) {
        const response = await remote.app.inject({
          method: 'POST',
          url: '/pki/tsa',
          headers: { 'content-type': contentType },
          payload: await readFile(query),
        });
        expect({ contentType, status: response.statusCode }).toEqual({ contentType, status: 404 });
        expect(response.json()).toMatchObject({ code: 'not_found' });
      }
      // The rest of /pki/ is still there.
      expect((await remote.app.inject({ method: 'GET', url: '/pki/ca.crt' })).statusCode).toBe(200);
    } finally {
      await remote.close();
    }
  });
});

describe('what a relying party may send wrong', () => {
  it('another media type is a 415, a longer body a 413, never a server error; other routes read neither type', async () => {
    const cases: { url: string; contentType: string | null; payload: string | Buffer; status: number }[] = [
      { url: '/pki/ocsp', contentType: 'application/json', payload: '{"a":1}', status: 415 },
      { url: '/pki/ocsp', contentType: 'text/plain', payload: 'hello', status: 415 },
      { url: '/pki/ocsp', contentType: 'application/timestamp-query', payload: 'x', status: 415 },
      // Bytes: fetch would label a string text/plain.
      { url: '/pki/ocsp', contentType: null, payload: Buffer.from('x'), status: 415 },
      { url: '/pki/tsa', contentType: 'application/ocsp-request', payload: 'x', status: 415 },
      { url: '/pki/tsa', contentType: 'application/x-www-form-urlencoded', payload: 'a=b', status: 415 },
      {
        url: '/pki/ocsp',
        contentType: 'application/ocsp-request',
        payload: Buffer.alloc(65 * 1024),
        status: 413,
      },
      {
        url: '/pki/tsa',
        contentType: 'application/timestamp-query',
        payload: Buffer.alloc(17 * 1024),
        status: 413,
      },
    ];
    for (const { url, contentType, payload, status } of cases) {
      const { response, body } = await post(url, contentType, payload);
      expect({ url, contentType, status: response.status }).toEqual({ url, contentType, status });
      expect(JSON.parse(body.toString('utf8'))).toMatchObject({
        code: status === 415 ? 'unsupported_media_type' : 'payload_too_large',
      });
    }
    // The DER media types are read under /pki/ only: elsewhere they are still unknown.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/sign_in',
      headers: { 'content-type': 'application/ocsp-request' },
      payload: Buffer.from([0x30, 0x00]),
    });
    expect(signIn.statusCode).toBe(415);
  });
});

describe('the database away', () => {
  it('OCSP answers 503 with Retry-After and tryLater; the CRL 503 with Retry-After like the API', async () => {
    const signer = await issueSigner('Outage Person');
    const request = await write('request.der', '');
    await openssl(['ocsp', '-issuer', caFile, '-cert', signer.file, '-reqout', request]);
    const { certificateStatus, revokedCertificates } = pki;
    pki.certificateStatus = async () => {
      throw databaseAway();
    };
    pki.revokedCertificates = async () => {
      throw databaseAway();
    };
    try {
      const ocsp = await post('/pki/ocsp', 'application/ocsp-request', await readFile(request));
      expect(ocsp.response.status).toBe(503);
      expect(ocsp.response.headers.get('retry-after')).toBe('5');
      expect(ocsp.response.headers.get('cache-control')).toBe('no-store');
      expect((await readOcspAnswer(ocsp.body, signer.file)).output).toContain(
        'Responder Error: trylater (3)',
      );

      const crl = await get('/pki/crl');
      expect(crl.response.status).toBe(503);
      expect(crl.response.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(crl.body.toString('utf8'))).toMatchObject({ code: 'database_unavailable' });
    } finally {
      pki.certificateStatus = certificateStatus;
      pki.revokedCertificates = revokedCertificates;
    }
    expect((await ocspByPost(signer.file)).output).toContain(`${signer.file}: good`);
  });

  it('before the PKI could be loaded, every route answers 503 with Retry-After', async () => {
    const { pki: loadPki, signingServices } = t.deps;
    t.deps.pki = () => Promise.reject(databaseAway());
    t.deps.signingServices = () => Promise.reject(databaseAway());
    try {
      const query = await write('request.tsq', '');
      await openssl(['ts', '-query', '-data', caFile, '-sha256', '-cert', '-out', query]);
      const answers = [
        await get('/pki/ca.crt'),
        await get('/pki/crl'),
        await post('/pki/ocsp', 'application/ocsp-request', Buffer.from([0x30, 0x00])),
        await post('/pki/tsa', 'application/timestamp-query', await readFile(query)),
      ];
      for (const { response } of answers) {
        expect({ url: response.url, status: response.status }).toEqual({ url: response.url, status: 503 });
        expect(response.headers.get('retry-after')).toBe('5');
      }
    } finally {
      t.deps.pki = loadPki;
      t.deps.signingServices = signingServices;
    }
  });
});
