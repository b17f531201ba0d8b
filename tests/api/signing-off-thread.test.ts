// What would hold the API's event loop while signing happens elsewhere, checked by where the work is done
// rather than by how long it takes (this machine's timings say little): the ASN.1 of CMS signatures,
// time-stamp tokens and OCSP responses on the codec thread (server/signing/pki/codec.ts), never on this
// one; a large PDF goes to the sign engine and back through files, never through its message channel,
// which copies bytes on the event loop; the SHA-256 of a large file is taken a slice per turn of the loop.
// How long the loop is held, step by step, is measured by bench/sign-engine.ts.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AsnParser, AsnSerializer } from '@peculiar/asn1-schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PdfSandbox } from '../../server/pdf/sandbox.ts';
import { INLINE_PDF_BYTES } from '../../server/signing/engine-protocol.ts';
import { createLocalSigner, sha256OfFile } from '../../server/signing/local-signer.ts';
import { stopCodecThread } from '../../server/signing/pki/codec.ts';
import { buildCadesSignature, readCadesSignature } from '../../server/signing/pki/cms.ts';
import { ocspResponder, readOcspResponse } from '../../server/signing/pki/ocsp.ts';
import {
  embeddedTsa,
  readTimeStampToken,
  readTimeStampTokenOffThread,
  timeStampSignature,
} from '../../server/signing/pki/tsa.ts';
import { makeImagePdf } from '../fixtures/pdfs.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';
import { makeTestPki, run, type TestPki } from './pki-support.ts';

let dir: string;
let pki: TestPki;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-off-thread-'));
  pki = await makeTestPki(dir, { ocspUrl: 'http://127.0.0.1:9/pki/ocsp' });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const content = Buffer.from('%PDF-1.7 the byte ranges a signature covers\n');

describe('the codec thread', () => {
  it('writes and reads the CMS, time-stamp tokens and OCSP responses of ten signatures: none on this thread', async () => {
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
      sha256(content).toString('hex'),
      '-sha256',
      '-out',
      tsq,
    ]);
    const ocspRequest = path.join(dir, 'o.der');
    await run('openssl', ['ocsp', '-issuer', pki.ca.file, '-cert', pki.signer.file, '-reqout', ocspRequest]);
    const [tsaRequest, ocspRequestDer] = [await readFile(tsq), await readFile(ocspRequest)];

    const serialize = vi.spyOn(AsnSerializer, 'serialize');
    const parse = vi.spyOn(AsnParser, 'parse');
    let outcome;
    try {
      outcome = await Promise.all(
        Array.from({ length: 10 }, async () => {
          let token: Uint8Array | undefined;
          const cms = await buildCadesSignature({
            contentDigest: sha256(content),
            signer: pki.signer,
            timeStamp: async (value) => (token = await timeStampSignature(tsa)(value)),
          });
          return {
            cms,
            tokenInfo: await readTimeStampTokenOffThread(token ?? new Uint8Array()),
            documentToken: await tsa.timeStamp(sha256(cms)),
            tsaAnswer: await tsa.answer(tsaRequest),
            ocspAnswer: await responder.answer(ocspRequestDer),
            ocspResponse: await responder.responseFor(pki.signer.certificate),
          };
        }),
      );
      expect(serialize).not.toHaveBeenCalled();
      expect(parse).not.toHaveBeenCalled();
    } finally {
      serialize.mockRestore();
      parse.mockRestore();
    }

    // What came back is what was asked for (read here, now that nothing is counted).
    for (const made of outcome) {
      const cades = readCadesSignature(made.cms);
      expect(cades.signerCertificate).toEqual(pki.signer.certificate);
      expect(readTimeStampToken(cades.timeStampToken ?? new Uint8Array())).toEqual(made.tokenInfo);
      expect(made.tokenInfo.messageImprint.digest).toEqual(new Uint8Array(sha256(cades.signatureValue)));
      expect(readTimeStampToken(made.documentToken).messageImprint.digest).toEqual(
        new Uint8Array(sha256(made.cms)),
      );
      const { stdout } = await run('openssl', [
        'ts',
        '-reply',
        '-in',
        await writeTemp('reply.tsr', made.tsaAnswer),
        '-text',
      ]);
      expect(stdout).toMatch(/Status: Granted\./);
      expect(readOcspResponse(made.ocspAnswer)).toMatchObject({ responseStatus: 'successful' });
      expect(readOcspResponse(made.ocspResponse)).toMatchObject({
        responseStatus: 'successful',
        responses: [{ status: { status: 'good' } }],
      });
    }
  });

  it('fails the calls in flight when it stops, and the next call starts another', async () => {
    let asked: () => void = () => undefined;
    const timeStampAsked = new Promise<void>((resolve) => (asked = resolve));
    const hanging = buildCadesSignature({
      contentDigest: sha256(content),
      signer: pki.signer,
      timeStamp: () => {
        asked();
        return new Promise<Uint8Array>(() => undefined);
      },
    });
    await timeStampAsked;
    await stopCodecThread();
    await expect(hanging).rejects.toThrow(/codec thread stopped/);

    const cms = await buildCadesSignature({ contentDigest: sha256(content), signer: pki.signer });
    expect(readCadesSignature(cms).messageDigest).toEqual(new Uint8Array(sha256(content)));
  });
});

let fileCounter = 0;

async function writeTemp(name: string, bytes: Uint8Array): Promise<string> {
  fileCounter += 1;
  const file = path.join(dir, `${fileCounter}-${name}`);
  await writeFile(file, bytes);
  return file;
}

describe('a large PDF', () => {
  let standalone: StandalonePki;

  beforeAll(async () => {
    standalone = await openStandalonePki(path.join(dir, 'data'));
  });

  afterAll(async () => {
    await standalone.close();
  });

  it('goes to the sign engine and back through files, left behind nowhere, and signs', async () => {
    const pdf = await makeImagePdf({ pages: 2, side: 300 });
    expect(pdf.length).toBeGreaterThan(INLINE_PDF_BYTES);

    const messages: unknown[] = [];
    const send = PdfSandbox.prototype.request;
    const request = vi.spyOn(PdfSandbox.prototype, 'request').mockImplementation(async function (
      this: PdfSandbox,
      ...args
    ) {
      messages.push(args[0]);
      const reply = await send.apply(this, args);
      messages.push(reply);
      return reply;
    });
    let result;
    try {
      result = await createLocalSigner({ pki: standalone.pki }).sign({
        pdf,
        signer: { userId: 'user-ada', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
        smartCardType: 'personal_level3',
        locale: 'en',
        location: 'Brussels',
        reason: 'Large',
        signedAt: new Date(),
        placement: { kind: 'inline', pageNumber: 1, top: 0.1, left: 0.1 },
        signatureIndex: 0,
        completesFlow: true,
      });
    } finally {
      request.mockRestore();
    }

    // The three steps (placement, DSS, document time-stamp), each a request and its answer.
    expect(messages).toHaveLength(6);
    expect(Math.max(...messages.map(largestBytes))).toBeLessThanOrEqual(INLINE_PDF_BYTES);
    const files = messages.flatMap(filesNamed);
    expect(files.length).toBeGreaterThanOrEqual(6);
    // Each step's folder went with the step, and its files with it.
    expect(new Set(files.map((file) => path.dirname(file))).size).toBe(3);
    expect(files.map((file) => path.dirname(file)).filter((folder) => existsSync(folder))).toEqual([]);

    expect(result.sha256Before).toBe(sha256(pdf).toString('hex'));
    expect(result.sha256After).toBe(sha256(result.pdf).toString('hex'));
    expect(result.pdf.length).toBeGreaterThan(pdf.length);
    const report = await run('pdfsig', [await writeTemp('large.pdf', result.pdf)]).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    expect(parsePdfsigReport(report)).toEqual([
      { isValid: true, isTotal: false, commonName: 'Ada Lovelace' },
    ]);
  });
});

/** The largest byte array anywhere in a message. */
function largestBytes(value: unknown): number {
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return Math.max(0, ...value.map(largestBytes));
  if (typeof value === 'object' && value !== null) {
    return Math.max(0, ...Object.values(value).map(largestBytes));
  }
  return 0;
}

/** The files a message names (its input, where the engine writes its answer, the answer's file). */
function filesNamed(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return [];
  const own = Object.entries(value).flatMap(([key, item]) =>
    (key === 'file' || key === 'output') && typeof item === 'string' ? [item] : [],
  );
  return [...own, ...Object.values(value).flatMap(filesNamed)];
}

describe('hashing a signed file', () => {
  it('lets the event loop turn between slices, and gives each of several files at once its SHA-256', async () => {
    const files = [5, 3, 4].map((megabytes, index) => Buffer.alloc(megabytes * 1024 * 1024, index + 1));
    let turns = 0;
    let hashing = true;
    const count = (): void => {
      turns += 1;
      if (hashing) setImmediate(count);
    };
    setImmediate(count);
    const digests = await Promise.all(files.map((file) => sha256OfFile(file)));
    hashing = false;

    expect(digests).toEqual(files.map((file) => sha256(file).toString('hex')));
    // A slice is 512 KB, one per turn for all files together: 24 slices, 24 turns at least.
    expect(turns).toBeGreaterThanOrEqual(24);
  });
});
