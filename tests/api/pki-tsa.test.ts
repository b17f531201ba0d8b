// RFC 3161 (server/signing/pki/tsa.ts): the embedded TSA answering what `openssl ts -query` sends, checked
// with `openssl ts -reply` and `openssl ts -verify`; and the remote-TSA client against it behind a local
// HTTP server, and against servers that time out, fail, reject or answer for other data.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TimeStampUnavailableError } from '../../server/signing/pki/errors.ts';
import {
  PARAPH_TSA_POLICY,
  embeddedTsa,
  readTimeStampToken,
  remoteTsa,
  type EmbeddedTsa,
} from '../../server/signing/pki/tsa.ts';
import { answerWith, makeTestPki, run, startServer, type TestPki, type TestServer } from './pki-support.ts';

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

let dir: string;
let pki: TestPki;
let tsa: EmbeddedTsa;
let fileCounter = 0;
const servers: TestServer[] = [];
const data = Buffer.from('The data a time-stamp is asked for\n');
// The TSA's clock: its tokens say this time (to the millisecond), whatever the machine's clock says. An
// hour ahead, within the validity of the certificates made for the test.
const TSA_TIME = new Date(Math.floor(Date.now() / 1000) * 1000 + 60 * 60 * 1000 + 250);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** TSA_TIME as openssl prints a genTime: "Mar  4 10:20:30.25 2026 GMT". */
const opensslTime = (time: Date) =>
  `${MONTHS[time.getUTCMonth()]} ${String(time.getUTCDate()).padStart(2, ' ')} ` +
  `${time.toISOString().slice(11, 19)}.25 ${time.getUTCFullYear()} GMT`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-pki-tsa-'));
  pki = await makeTestPki(dir, { ocspUrl: 'http://127.0.0.1:9/pki/ocsp' });
  tsa = embeddedTsa({ ...pki.tsa, clock: () => TSA_TIME });
  await writeFile(path.join(dir, 'data.bin'), data);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function query(...options: string[]): Promise<{ file: string; der: Buffer }> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-q.tsq`);
  await run('openssl', ['ts', '-query', '-data', path.join(dir, 'data.bin'), ...options, '-out', file]);
  return { file, der: await readFile(file) };
}

async function reply(response: Uint8Array): Promise<{ file: string; text: string }> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-r.tsr`);
  await writeFile(file, response);
  const { stdout } = await run('openssl', ['ts', '-reply', '-in', file, '-text']);
  return { file, text: stdout };
}

/**
 * `openssl ts -verify` with the root as the only trust anchor and the TSA's certificate as an untrusted
 * helper (with the issuing CA's, for a token that carries no certificates).
 */
async function verify(...args: string[]): Promise<boolean> {
  const untrusted = path.join(dir, 'tsa-and-ca.pem');
  await writeFile(untrusted, pki.tsa.pem + pki.ca.pem);
  try {
    const { stdout } = await run('openssl', [
      'ts',
      '-verify',
      ...args,
      '-CAfile',
      pki.root.file,
      '-untrusted',
      untrusted,
    ]);
    return /Verification: OK/.test(stdout);
  } catch {
    return false;
  }
}

describe('the embedded TSA answering RFC 3161 requests', () => {
  it('grants what `openssl ts -query -cert` asks, and openssl verifies the reply against the query and the data', async () => {
    const request = await query('-sha256', '-cert');
    const response = await reply(await tsa.answer(request.der));

    expect(response.text).toMatch(/Status: Granted\./);
    expect(response.text).toContain(`Policy OID: ${PARAPH_TSA_POLICY}`);
    expect(response.text).toMatch(/Hash Algorithm: sha256/);
    expect(response.text).toContain(`Time stamp: ${opensslTime(TSA_TIME)}`);
    expect(response.text).toMatch(/Accuracy: 0x01 seconds/);
    // The query's nonce, echoed (openssl ts -verify -queryfile compares them too).
    const nonce = /Nonce: (0x[0-9A-F]+)/.exec(response.text)?.[1];
    const queryText = (await run('openssl', ['ts', '-query', '-in', request.file, '-text'])).stdout;
    expect(nonce).toBeDefined();
    expect(queryText).toContain(`Nonce: ${nonce}`);

    expect(await verify('-queryfile', request.file, '-in', response.file)).toBe(true);
    expect(await verify('-data', path.join(dir, 'data.bin'), '-in', response.file)).toBe(true);
    expect(
      await verify('-digest', sha256(Buffer.from('other data')).toString('hex'), '-in', response.file),
    ).toBe(false);
  });

  it('puts its certificate in the token only when the request asks (certReq)', async () => {
    const withCertificate = readTimeStampToken(
      await tokenOf(await tsa.answer((await query('-sha256', '-cert')).der)),
    );
    const without = readTimeStampToken(await tokenOf(await tsa.answer((await query('-sha256')).der)));

    expect(Buffer.from(withCertificate.certificates[0] ?? []).equals(Buffer.from(pki.tsa.certificate))).toBe(
      true,
    );
    expect(withCertificate.signerCertificate).toEqual(pki.tsa.certificate);
    expect(without.certificates).toEqual([]);
    // openssl then takes the TSA's certificate (and the CA's) from -untrusted.
    const request = await query('-sha256');
    expect(
      await verify('-queryfile', request.file, '-in', (await reply(await tsa.answer(request.der))).file),
    ).toBe(true);
  });

  it('gives every token its own serial number, and its time from the clock', async () => {
    const serials = new Set<string>();
    for (let index = 0; index < 5; index += 1) {
      const token = readTimeStampToken(await tsa.timeStamp(sha256(Buffer.from(`data ${index}`))));
      serials.add(token.serialNumber);
      expect(token.genTime).toEqual(TSA_TIME);
      expect(token.policy).toBe(PARAPH_TSA_POLICY);
      expect(token.nonce).toBeUndefined();
    }
    expect(serials.size).toBe(5);
  });

  it.each([
    ['an unsupported digest (MD5)', ['-md5'], /unrecognized or unsupported algorithm identifier/],
    ['a SHA-1 imprint', ['-sha1'], /unrecognized or unsupported algorithm identifier/],
    ['another policy', ['-sha256', '-tspolicy', '1.2.3.4.5'], /requested TSA policy is not supported/],
  ])('rejects %s with a failure info, and does not throw', async (_name, options, failure) => {
    const response = await reply(await tsa.answer((await query(...options)).der));
    expect(response.text).toMatch(/Status: Rejected\./);
    expect(response.text).toMatch(failure);
    expect(response.text).toMatch(/Status description: .+/);
  });

  it('rejects bytes that are no TimeStampReq as a bad data format', async () => {
    for (const garbage of [
      Buffer.from('GET / HTTP/1.1\r\n\r\n'),
      Buffer.alloc(0),
      Buffer.from([0x30, 0x80, 0x00]),
    ]) {
      const response = await reply(await tsa.answer(garbage));
      expect(response.text).toMatch(/Status: Rejected\./);
      expect(response.text).toMatch(/the data submitted has the wrong format/);
    }
  });

  it('makes no token once its certificate has expired: a rejection for requests, an error for the signer', async () => {
    const late = embeddedTsa({ ...pki.tsa, clock: () => new Date('2040-01-01T00:00:00Z') });
    const response = await reply(await late.answer((await query('-sha256', '-cert')).der));
    expect(response.text).toMatch(/Status: Rejected\./);
    expect(response.text).toMatch(/the request cannot be handled due to system failure/);
    await expect(late.timeStamp(sha256(data))).rejects.toThrow(TimeStampUnavailableError);
    await expect(late.timeStamp(sha256(data))).rejects.toThrow(/TSA certificate is not valid on 2040-01-01/);
  });

  it('accepts a request naming its own policy', async () => {
    const request = await query('-sha512', '-cert', '-tspolicy', PARAPH_TSA_POLICY);
    const response = await reply(await tsa.answer(request.der));
    expect(response.text).toMatch(/Status: Granted\./);
    expect(response.text).toMatch(/Hash Algorithm: sha512/);
    expect(await verify('-queryfile', request.file, '-in', response.file)).toBe(true);
  });
});

/** The token of a granted TimeStampResp, cut out by openssl. */
async function tokenOf(response: Uint8Array): Promise<Uint8Array> {
  fileCounter += 1;
  const input = path.join(dir, `${fileCounter}-t.tsr`);
  const output = path.join(dir, `${fileCounter}-t.der`);
  await writeFile(input, response);
  await run('openssl', ['ts', '-reply', '-in', input, '-token_out', '-out', output]);
  return new Uint8Array(await readFile(output));
}

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

const reply200 = (answer: (body: Buffer) => Promise<Uint8Array> | Uint8Array) =>
  answerWith('application/timestamp-reply', answer);

describe('the remote TSA client', () => {
  it('gets a token from an RFC 3161 server over HTTP, which openssl verifies for the digest', async () => {
    const contentTypes: string[] = [];
    const server = await serve(async (body, request, response) => {
      contentTypes.push(String(request.headers['content-type']));
      const answer = await tsa.answer(body);
      response.writeHead(200, { 'content-type': 'application/timestamp-reply' });
      response.end(answer);
    });
    const digest = sha256(data);
    const token = await remoteTsa({ url: `${server.url}/pki/tsa`, timeoutMs: 5000 }).timeStamp(digest);

    expect(contentTypes).toEqual(['application/timestamp-query']);
    expect(await verify('-digest', digest.toString('hex'), '-in', await tokenFile(token), '-token_in')).toBe(
      true,
    );
    const info = readTimeStampToken(token);
    expect(info.nonce).toMatch(/^[0-9A-F]{16}$/);
    expect(info.certificates.length).toBeGreaterThan(0);
  });

  it('fails with TimeStampUnavailableError when the server does not answer in time', async () => {
    const server = await serve(() => new Promise<void>(() => undefined));
    const started = Date.now();
    const attempt = remoteTsa({ url: server.url, timeoutMs: 200 }).timeStamp(sha256(data));
    await expect(attempt).rejects.toThrow(TimeStampUnavailableError);
    await expect(attempt).rejects.toThrow(/no answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('fails with TimeStampUnavailableError on an HTTP error', async () => {
    const server = await serve(answerWith('text/plain', () => Buffer.from('Internal Server Error'), 500));
    await expect(remoteTsa({ url: server.url, timeoutMs: 2000 }).timeStamp(sha256(data))).rejects.toThrow(
      /\(http:\/\/127\.0\.0\.1:\d+\): HTTP 500/,
    );
  });

  it('fails with TimeStampUnavailableError when the TSA rejects the request', async () => {
    // The server hands the request over with its imprint spoiled: the TSA rejects it.
    const server = await serve(
      reply200((body) => tsa.answer(Buffer.concat([body.subarray(0, body.length - 1)]))),
    );
    const attempt = remoteTsa({ url: server.url, timeoutMs: 2000 }).timeStamp(sha256(data));
    await expect(attempt).rejects.toThrow(TimeStampUnavailableError);
    await expect(attempt).rejects.toThrow(/rejected, status rejection \(badDataFormat\): The request is not/);
  });

  it('fails with TimeStampUnavailableError when the token is over other data', async () => {
    const other = await query('-sha256', '-cert');
    const server = await serve(reply200(() => tsa.answer(other.der)));
    const attempt = remoteTsa({ url: server.url, timeoutMs: 2000 }).timeStamp(sha256(Buffer.from('mine')));
    await expect(attempt).rejects.toThrow(TimeStampUnavailableError);
    await expect(attempt).rejects.toThrow(/message imprint differs/);
  });

  it('fails with TimeStampUnavailableError for a replayed answer to another request, and for garbage', async () => {
    let captured: Uint8Array | undefined;
    const recorder = await serve(
      reply200(async (body) => {
        captured = await tsa.answer(body);
        return captured;
      }),
    );
    const digest = sha256(data);
    await remoteTsa({ url: recorder.url, timeoutMs: 2000 }).timeStamp(digest);
    const replay = await serve(reply200(() => captured ?? new Uint8Array()));
    await expect(remoteTsa({ url: replay.url, timeoutMs: 2000 }).timeStamp(digest)).rejects.toThrow(/nonce/);

    const garbage = await serve(reply200(() => Buffer.from('<html>not a TSA</html>')));
    await expect(remoteTsa({ url: garbage.url, timeoutMs: 2000 }).timeStamp(digest)).rejects.toThrow(
      TimeStampUnavailableError,
    );
  });
});

async function tokenFile(token: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-token.der`);
  await writeFile(file, token);
  return file;
}
