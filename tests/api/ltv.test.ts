// The long-term validation updates on their own, written by the sign engine's sandboxed child and read
// back by tools that share none of its code: pdfsig (every signature still valid, the document time-stamp
// covering the whole file), `openssl ts -verify` (the token in the file is over exactly the bytes it
// should cover), and pdf-lib for the DSS's structure. The time-stamp token comes from OpenSSL's own TSA.
import { execFile } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEngine } from '../../server/signing/engine.ts';
import { fillPlaceholder } from '../../server/signing/increment.ts';
import { createLocalSigner } from '../../server/signing/local-signer.ts';
import { readCadesSignature } from '../../server/signing/pki/cms.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { openStandalonePki, type StandalonePki } from './deployment-pki-support.ts';
import { parsePdfsigReport } from './pdf-signatures.ts';

const run = promisify(execFile);

let dir: string;
let signed: Buffer;
let pki: StandalonePki;

const TSA_CONFIG = `
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ./serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256
accuracy = secs:1
ess_cert_id_alg = sha256
ess_cert_id_chain = no
certs = ./tsa.pem
[ v3_tsa ]
extendedKeyUsage = critical,timeStamping
keyUsage = critical,digitalSignature,nonRepudiation
basicConstraints = CA:FALSE
`;

async function openssl(args: string[]): Promise<string> {
  const { stdout, stderr } = await run('openssl', args, { cwd: dir });
  return `${stdout}${stderr}`;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paraph-ltv-'));
  await writeFile(path.join(dir, 'tsa.cnf'), TSA_CONFIG);
  await writeFile(path.join(dir, 'serial'), '01\n');
  await openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'root.key',
    '-out',
    'root.pem',
    '-subj',
    '/CN=Test Root',
    '-days',
    '30',
  ]);
  await openssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.csr',
    '-subj',
    '/CN=Test TSA',
  ]);
  await openssl([
    'x509',
    '-req',
    '-in',
    'tsa.csr',
    '-CA',
    'root.pem',
    '-CAkey',
    'root.key',
    '-CAcreateserial',
    '-out',
    'tsa.pem',
    '-days',
    '30',
    '-extfile',
    'tsa.cnf',
    '-extensions',
    'v3_tsa',
  ]);
  pki = await openStandalonePki(path.join(dir, 'data'));
  const signer = createLocalSigner({ pki: pki.pki });
  const result = await signer.sign({
    pdf: await makePdf({ pages: 2 }),
    signer: { userId: 'user-ada', fullName: 'Ada Lovelace', email: 'ada@paraph.test' },
    smartCardType: 'personal_level3',
    locale: 'en',
    location: 'Brussels',
    reason: '',
    signedAt: new Date('2026-03-04T10:20:30Z'),
    placement: { kind: 'page', signPageNumber: 0 },
    signatureIndex: 0,
  });
  signed = Buffer.from(result.pdf);
}, 60_000);

afterAll(async () => {
  signEngine().stop();
  await pki.close();
  await rm(dir, { recursive: true, force: true });
});

async function pdfsig(pdf: Buffer): Promise<string> {
  const file = path.join(dir, `check-${createHash('sha256').update(pdf).digest('hex').slice(0, 8)}.pdf`);
  await writeFile(file, pdf);
  try {
    return (await run('pdfsig', [file])).stdout;
  } catch (error) {
    // pdfsig exits non-zero when a certificate is not trusted; its report is still complete.
    return (error as { stdout: string }).stdout;
  }
}

function contentsOf(pdf: Buffer): Buffer {
  const match = /\/Contents <([0-9A-F]+)>/.exec(pdf.toString('latin1'));
  if (match?.[1] === undefined) throw new Error('no signature');
  return Buffer.from(match[1], 'hex');
}

function streamsOf(doc: PDFDocument, array: unknown): Buffer[] {
  if (!(array instanceof PDFArray)) return [];
  return array.asArray().map((ref) => {
    const stream = ref instanceof PDFRef ? doc.context.lookup(ref) : undefined;
    if (!(stream instanceof PDFRawStream)) throw new Error('not a stream');
    return Buffer.from(decodePDFRawStream(stream).decode());
  });
}

describe('the DSS', () => {
  it('holds the validation data once each, names it per signature, and keeps the signature valid', async () => {
    const root = Buffer.from(
      (await readFile(path.join(dir, 'root.pem'), 'utf8')).replace(/-----[^-]+-----|\s/g, ''),
      'base64',
    );
    const tsa = Buffer.from(
      (await readFile(path.join(dir, 'tsa.pem'), 'utf8')).replace(/-----[^-]+-----|\s/g, ''),
      'base64',
    );
    const engine = signEngine();
    const signature = contentsOf(signed);
    const once = await engine.appendDss(signed, [
      {
        signatureContents: signature,
        data: { certificates: [root, tsa, root], ocspResponses: [], crls: [] },
      },
    ]);
    // A second update for the same signature with one known and no new certificate adds no stream.
    const twice = await engine.appendDss(once, [
      { signatureContents: signature, data: { certificates: [tsa], ocspResponses: [], crls: [] } },
    ]);

    expect(twice.subarray(0, signed.length).equals(signed)).toBe(true);
    const doc = await PDFDocument.load(twice, { updateMetadata: false });
    const dss = doc.catalog.lookup(PDFName.of('DSS'));
    expect(dss).toBeInstanceOf(PDFDict);
    const store = dss as PDFDict;
    // The signer's own DSS came first; the test's root and TSA certificates were added once each.
    const certs = streamsOf(doc, store.lookup(PDFName.of('Certs')));
    expect(certs.slice(-2)).toEqual([root, tsa]);
    expect(new Set(certs.map((der) => der.toString('hex'))).size).toBe(certs.length);
    const vri = store.lookup(PDFName.of('VRI'));
    expect(vri).toBeInstanceOf(PDFDict);
    const key = createHash('sha1').update(signature).digest('hex').toUpperCase();
    const entry = (vri as PDFDict).lookup(PDFName.of(key));
    expect(entry).toBeInstanceOf(PDFDict);
    expect(streamsOf(doc, (entry as PDFDict).lookup(PDFName.of('Cert')))).toEqual([tsa]);

    const report = parsePdfsigReport(await pdfsig(twice));
    expect(report).toEqual([{ isValid: true, isTotal: false, commonName: 'Ada Lovelace' }]);
  });
});

describe('the document time-stamp', () => {
  it('covers every byte but its own value, and verifies with OpenSSL and pdfsig', async () => {
    const engine = signEngine();
    const placeholder = await engine.placeDocumentTimeStamp(signed);
    const digest = placeholder.digest.toString('hex');
    await openssl(['ts', '-query', '-digest', digest, '-sha256', '-cert', '-no_nonce', '-out', 'q.tsq']);
    await openssl([
      'ts',
      '-reply',
      '-config',
      'tsa.cnf',
      '-queryfile',
      'q.tsq',
      '-signer',
      'tsa.pem',
      '-inkey',
      'tsa.key',
      '-token_out',
      '-out',
      'token.der',
    ]);
    const pdf = fillPlaceholder(placeholder, await readFile(path.join(dir, 'token.der')));

    // The digest the token covers is the one of the file's byte range, recomputed here from the file.
    const text = pdf.toString('latin1');
    const ranges = [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)].at(-1);
    const [a, b, c, d] = (ranges?.slice(1) ?? []).map(Number) as [number, number, number, number];
    expect(a).toBe(0);
    expect(c + d).toBe(pdf.length);
    const covered = createHash('sha256')
      .update(pdf.subarray(a, b))
      .update(pdf.subarray(c, c + d))
      .digest('hex');
    expect(covered).toBe(digest);
    const verified = await openssl([
      'ts',
      '-verify',
      '-digest',
      covered,
      '-in',
      'token.der',
      '-token_in',
      '-CAfile',
      'root.pem',
      '-untrusted',
      'tsa.pem',
    ]);
    expect(verified).toContain('Verification: OK');

    const report = await pdfsig(pdf);
    // Poppler lists a document time-stamp (it does not check RFC 3161 tokens: OpenSSL did, above) and finds
    // it covering the whole file, the earlier signature still valid.
    expect(report).toMatch(
      /Signature #2:\s+- Signature Field Name: DocumentTimeStamp\d[\s\S]*Total document signed/,
    );
    expect(parsePdfsigReport(report)[0]).toMatchObject({ isValid: true, commonName: 'Ada Lovelace' });
    expect(/\/Type \/DocTimeStamp/.test(text)).toBe(true);
  });
});

describe("a flow's last signature (PAdES B-LTA)", () => {
  it('carries a time-stamped signature, the DSS with verifiable OCSP answers, and a document time-stamp over all', async () => {
    const signer = createLocalSigner({ pki: pki.pki });
    const result = await signer.sign({
      pdf: signed,
      signer: { userId: 'user-bob', fullName: 'Bob Martin', email: 'bob@paraph.test' },
      smartCardType: 'personal_level3',
      locale: 'en',
      location: 'Ghent',
      reason: '',
      signedAt: new Date('2026-03-05T10:20:30Z'),
      placement: { kind: 'page', signPageNumber: 0 },
      signatureIndex: 1,
      completesFlow: true,
    });
    const pdf = Buffer.from(result.pdf);
    const caFile = path.join(dir, 'deployment-ca.pem');
    await writeFile(caFile, new X509Certificate(pki.pki.ca.certificate).toString());

    // pdfsig: both signatures valid; the document time-stamp last, covering the whole file.
    const report = await pdfsig(pdf);
    expect(
      parsePdfsigReport(report)
        .slice(0, 2)
        .map((entry) => entry.isValid),
    ).toEqual([true, true]);
    expect(report).toMatch(
      /Signature #3:\s+- Signature Field Name: DocumentTimeStamp\d[\s\S]*Total document signed/,
    );

    // Each signature's time-stamp token is over its signature value, and OpenSSL trusts it to the deployment's CA.
    const values = [...pdf.toString('latin1').matchAll(/\/Contents <([0-9A-F]+)>/g)].map((match) =>
      Buffer.from(match[1] ?? '', 'hex'),
    );
    expect(values).toHaveLength(3);
    for (const value of values.slice(0, 2)) {
      const cms = readCadesSignature(trimDer(value));
      expect(cms.timeStampToken).toBeDefined();
      await writeFile(path.join(dir, 'sig-token.der'), cms.timeStampToken ?? new Uint8Array());
      const imprint = createHash('sha256').update(cms.signatureValue).digest('hex');
      expect(
        await openssl([
          'ts',
          '-verify',
          '-digest',
          imprint,
          '-in',
          'sig-token.der',
          '-token_in',
          '-CAfile',
          caFile,
        ]),
      ).toContain('Verification: OK');
    }
    // The document time-stamp's token is over every byte but its own value.
    const ranges = [...pdf.toString('latin1').matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)].at(-1);
    const [a, b, c, d] = (ranges?.slice(1) ?? []).map(Number) as [number, number, number, number];
    expect(c + d).toBe(pdf.length);
    const covered = createHash('sha256')
      .update(pdf.subarray(a, b))
      .update(pdf.subarray(c, c + d))
      .digest('hex');
    await writeFile(path.join(dir, 'doc-token.der'), trimDer(values[2] ?? Buffer.alloc(0)));
    expect(
      await openssl([
        'ts',
        '-verify',
        '-digest',
        covered,
        '-in',
        'doc-token.der',
        '-token_in',
        '-CAfile',
        caFile,
      ]),
    ).toContain('Verification: OK');

    // The DSS: the chain's certificates and one OCSP answer per certificate the CA issued (both signers'
    // and the TSA's), each signed by the deployment's responder and saying "good".
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    const dss = doc.catalog.lookup(PDFName.of('DSS'));
    expect(dss).toBeInstanceOf(PDFDict);
    const certs = streamsOf(doc, (dss as PDFDict).lookup(PDFName.of('Certs')));
    expect(certs.some((der) => der.equals(Buffer.from(pki.pki.ca.certificate)))).toBe(true);
    const ocsps = streamsOf(doc, (dss as PDFDict).lookup(PDFName.of('OCSPs')));
    // Ada's, Bob's and the TSA's certificates each have an answer (the TSA's twice when the two answers
    // differ in time; the same bytes are stored once).
    const serials = new Set<string>();
    for (const [index, der] of ocsps.entries()) {
      const file = path.join(dir, `ocsp-${index}.der`);
      await writeFile(file, der);
      const text = await openssl(['ocsp', '-respin', file, '-CAfile', caFile, '-resp_text']);
      expect(text).toContain('Response verify OK');
      expect(text).toContain('Cert Status: good');
      for (const match of text.matchAll(/Serial Number: ([0-9A-F]+)/g)) serials.add(match[1] ?? '');
    }
    expect(serials.size).toBe(3);
  }, 60_000);
});

// A /Contents value is the DER followed by zero padding.
function trimDer(value: Buffer): Buffer {
  const second = value[1] ?? 0;
  const lengthBytes = second & 0x80 ? second & 0x7f : 0;
  let length = second & 0x80 ? 0 : second;
  for (let index = 0; index < lengthBytes; index += 1) length = length * 256 + (value[2 + index] ?? 0);
  return value.subarray(0, 2 + lengthBytes + length);
}
