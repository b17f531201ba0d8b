// Nothing in server/signing/pki makes an RSA signature on the event loop: every crypto.sign call passes a
// callback, so the private-key operation (milliseconds, tens of them for larger keys) runs in libuv's
// thread pool while the server keeps answering requests.
import * as crypto from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildCadesSignature } from '../../server/signing/pki/cms.ts';
import { buildCrl } from '../../server/signing/pki/crl.ts';
import { ocspResponder } from '../../server/signing/pki/ocsp.ts';
import { embeddedTsa, timeStampSignature } from '../../server/signing/pki/tsa.ts';
import { makeTestPki, run, type TestPki } from './pki-support.ts';

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, sign: vi.fn(real.sign) };
});

let dir: string;
let pki: TestPki;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-pki-async-'));
  pki = await makeTestPki(dir, { ocspUrl: 'http://127.0.0.1:9/pki/ocsp' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sign = vi.mocked(crypto.sign);

async function signCalls(work: () => Promise<unknown>): Promise<{ calls: number; synchronous: number }> {
  sign.mockClear();
  await work();
  const synchronous = sign.mock.calls.filter((call) => typeof call[3] !== 'function').length;
  return { calls: sign.mock.calls.length, synchronous };
}

describe('RSA signatures', () => {
  it('are all made in the thread pool: the CMS, the time-stamp token, OCSP responses and CRLs', async () => {
    const digest = crypto.createHash('sha256').update('content').digest();
    const tsa = embeddedTsa({ ...pki.tsa, clock: () => new Date() });
    const responder = ocspResponder({
      issuerCertificate: pki.ca.certificate,
      responderCertificate: pki.ocsp.certificate,
      responderKey: pki.ocsp.privateKey,
      status: async () => ({ status: 'good' }),
      clock: () => new Date(),
      validityMs: 60_000,
    });
    const tsq = path.join(dir, 'q.tsq');
    await run('openssl', [
      'ts',
      '-query',
      '-digest',
      digest.toString('hex'),
      '-sha256',
      '-cert',
      '-out',
      tsq,
    ]);
    const ocspRequest = path.join(dir, 'o.der');
    await run('openssl', ['ocsp', '-issuer', pki.ca.file, '-cert', pki.signer.file, '-reqout', ocspRequest]);

    // B-T: the signer's signature and the TSA's.
    expect(
      await signCalls(() =>
        buildCadesSignature({
          contentDigest: digest,
          signer: pki.signer,
          timeStamp: timeStampSignature(tsa),
        }),
      ),
    ).toEqual({ calls: 2, synchronous: 0 });
    expect(await signCalls(async () => tsa.answer(await readFile(tsq)))).toEqual({
      calls: 1,
      synchronous: 0,
    });
    expect(await signCalls(async () => responder.answer(await readFile(ocspRequest)))).toEqual({
      calls: 1,
      synchronous: 0,
    });
    expect(await signCalls(() => responder.responseFor(pki.signer.certificate))).toEqual({
      calls: 1,
      synchronous: 0,
    });
    expect(
      await signCalls(() =>
        buildCrl({
          issuerCertificate: pki.ca.certificate,
          issuerKey: pki.ca.privateKey,
          revoked: [{ serialNumber: '0ABC1234', revokedAt: new Date(), reason: 'superseded' }],
          thisUpdate: new Date(),
          nextUpdate: new Date(Date.now() + 60_000),
          crlNumber: 1n,
        }),
      ),
    ).toEqual({ calls: 1, synchronous: 0 });
  });
});
