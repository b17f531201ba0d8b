// Test-only builders for the verification tests, sharing no code with the verifier or the signing engine:
// - a PKI made with openssl: CAs, signers' and a TSA's certificates, time-stamp tokens (`openssl ts`) and
//   OCSP responses (`openssl ocsp`);
// - a CMS SignedData assembled with node:crypto and the asn1 packages, so that a signature can carry a
//   signature time-stamp token or revocation information (each checked with `openssl cms -verify`);
// - incremental updates appended to a PDF the way a signer appends them: a signature or a document
//   time-stamp (field, widget, signature dictionary, byte range), a DSS, a change to a page.
import { execFile } from 'node:child_process';
import { createHash, createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  AsnArray,
  AsnConvert,
  AsnProp,
  AsnPropTypes,
  AsnType,
  AsnTypeTypes,
  OctetString,
} from '@peculiar/asn1-schema';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  OtherRevocationInfoFormat,
  RevocationInfoChoice,
  RevocationInfoChoices,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
} from '@peculiar/asn1-cms';
import { AlgorithmIdentifier, Certificate, Time } from '@peculiar/asn1-x509';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFString,
  StandardFonts,
  type PDFObject,
} from 'pdf-lib';

import type { TestApp } from './helpers.ts';

const run = promisify(execFile);

const OIDS = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  ocspRevocationInfo: '1.3.6.1.5.5.7.16.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
};

// ------------------------------------------------------------------ PKI

export type Issued = { certPath: string; keyPath: string; der: Buffer; key: KeyObject; serial: string };

const EXTENSIONS = {
  ca: 'basicConstraints=critical,CA:true\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n',
  signer:
    'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature,nonRepudiation\n' +
    'subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
  tsa:
    'basicConstraints=critical,CA:false\nkeyUsage=critical,digitalSignature\n' +
    'extendedKeyUsage=critical,timeStamping\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n',
} as const;

const TS_CONFIG = `[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
serial = ./tsaserial
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.2
digests = sha256
ess_cert_id_alg = sha256
accuracy = secs:1
ordering = no
tsa_name = yes
ess_cert_id_chain = no
crypto_device = builtin
`;

/** "2030-01-02T03:04:05Z" as OpenSSL's index.txt wants it: YYMMDDHHMMSSZ. */
function indexTime(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`;
}

export class TestPki {
  readonly dir: string;
  #serial = 0x1000;

  private constructor(dir: string) {
    this.dir = dir;
  }

  static async create(): Promise<TestPki> {
    return new TestPki(await mkdtemp(path.join(os.tmpdir(), 'paraph-verify-pki-')));
  }

  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  #file(name: string): string {
    return path.join(this.dir, name);
  }

  async #load(certPath: string, keyPath: string, serial: string): Promise<Issued> {
    const [pem, keyPem] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    return { certPath, keyPath, der: new X509Certificate(pem).raw, key: createPrivateKey(keyPem), serial };
  }

  /** An existing pair (the app's data-folder CA, say). */
  async use(certPath: string, keyPath: string): Promise<Issued> {
    return this.#load(certPath, keyPath, new X509Certificate(await readFile(certPath)).serialNumber);
  }

  /** A self-signed CA. */
  async newCa(name: string): Promise<Issued> {
    const base = this.#file(`ca-${(this.#serial += 1)}`);
    await writeFile(`${base}.ext`, EXTENSIONS.ca);
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '3650',
      '-subj',
      `/CN=${name}/O=Elsewhere`,
      '-keyout',
      `${base}.key`,
      '-out',
      `${base}.pem`,
      '-extensions',
      'v3',
      '-config',
      await this.#reqConfig(EXTENSIONS.ca),
    ]);
    return this.#load(`${base}.pem`, `${base}.key`, '');
  }

  async #reqConfig(extensions: string): Promise<string> {
    const file = this.#file(`req-${(this.#serial += 1)}.cnf`);
    await writeFile(file, `[req]\ndistinguished_name=dn\n[dn]\n[v3]\n${extensions}`);
    return file;
  }

  /** A certificate issued by `ca` for `subject` ("/CN=.../emailAddress=..."), valid for `days` from now. */
  async issue(ca: Issued, subject: string, kind: 'signer' | 'tsa', days = 365): Promise<Issued> {
    const serial = (this.#serial += 1).toString(16).toUpperCase();
    const base = this.#file(`cert-${serial}`);
    await writeFile(`${base}.ext`, EXTENSIONS[kind]);
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      subject,
      '-keyout',
      `${base}.key`,
      '-out',
      `${base}.csr`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      `${base}.csr`,
      '-CA',
      ca.certPath,
      '-CAkey',
      ca.keyPath,
      '-sha256',
      '-set_serial',
      `0x${serial}`,
      '-days',
      String(days),
      '-extfile',
      `${base}.ext`,
      '-out',
      `${base}.pem`,
    ]);
    return this.#load(`${base}.pem`, `${base}.key`, serial);
  }

  /** An RFC 3161 TimeStampToken over `data` (SHA-256), from `tsa`, with `chain` included. */
  async timeStampToken(data: Uint8Array, tsa: Issued, chain: Issued): Promise<Buffer> {
    const id = (this.#serial += 1).toString(16);
    await writeFile(this.#file('tsaserial'), '01\n');
    await writeFile(this.#file('ts.cnf'), TS_CONFIG);
    await writeFile(this.#file(`${id}.data`), data);
    await run('openssl', [
      'ts',
      '-query',
      '-data',
      this.#file(`${id}.data`),
      '-sha256',
      '-cert',
      '-out',
      this.#file(`${id}.tsq`),
    ]);
    await run(
      'openssl',
      [
        'ts',
        '-reply',
        '-config',
        this.#file('ts.cnf'),
        '-queryfile',
        this.#file(`${id}.tsq`),
        '-signer',
        tsa.certPath,
        '-inkey',
        tsa.keyPath,
        '-chain',
        chain.certPath,
        '-token_out',
        '-out',
        this.#file(`${id}.tsr`),
      ],
      { cwd: this.dir },
    );
    return readFile(this.#file(`${id}.tsr`));
  }

  /** An OCSP response from `ca` itself about `certificate`: good, or revoked at a time with a reason. */
  async ocspResponse(
    ca: Issued,
    certificate: Issued,
    status: { revokedAt: Date; reason: string } | 'good',
  ): Promise<Buffer> {
    const id = (this.#serial += 1).toString(16);
    const subject = new X509Certificate(certificate.der).subject.replaceAll('\n', '/');
    const revoked = status === 'good' ? '' : `${indexTime(status.revokedAt)},${status.reason}`;
    await writeFile(
      this.#file(`${id}.index`),
      `${status === 'good' ? 'V' : 'R'}\t301231235959Z\t${revoked}\t${certificate.serial}\tunknown\t/${subject}\n`,
    );
    await run('openssl', [
      'ocsp',
      '-index',
      this.#file(`${id}.index`),
      '-rsigner',
      ca.certPath,
      '-rkey',
      ca.keyPath,
      '-CA',
      ca.certPath,
      '-issuer',
      ca.certPath,
      '-cert',
      certificate.certPath,
      '-respout',
      this.#file(`${id}.ocsp`),
      '-ndays',
      '7',
    ]);
    return readFile(this.#file(`${id}.ocsp`));
  }

  /** A CRL from `ca` listing `revoked` (DER). */
  async crl(
    ca: Issued,
    revoked: readonly { certificate: Issued; revokedAt: Date; reason: string }[],
  ): Promise<Buffer> {
    const id = (this.#serial += 1).toString(16);
    const lines = revoked.map(({ certificate, revokedAt, reason }) => {
      const subject = new X509Certificate(certificate.der).subject.replaceAll('\n', '/');
      return `R\t301231235959Z\t${indexTime(revokedAt)},${reason}\t${certificate.serial}\tunknown\t/${subject}\n`;
    });
    await writeFile(this.#file(`${id}.index`), lines.join(''));
    await writeFile(this.#file(`${id}.crlnumber`), '01\n');
    await writeFile(
      this.#file(`${id}.cnf`),
      `[ca]\ndefault_ca = crl\n[crl]\ndatabase = ${this.#file(`${id}.index`)}\n` +
        `crlnumber = ${this.#file(`${id}.crlnumber`)}\ndefault_md = sha256\ndefault_crl_days = 7\n`,
    );
    await run('openssl', [
      'ca',
      '-gencrl',
      '-config',
      this.#file(`${id}.cnf`),
      '-keyfile',
      ca.keyPath,
      '-cert',
      ca.certPath,
      '-out',
      this.#file(`${id}.crl.pem`),
    ]);
    await run('openssl', [
      'crl',
      '-in',
      this.#file(`${id}.crl.pem`),
      '-outform',
      'DER',
      '-out',
      this.#file(`${id}.crl`),
    ]);
    return readFile(this.#file(`${id}.crl`));
  }

  /** A detached CMS made by `openssl cms -sign` over `content` (SHA-256, its default attributes). */
  async opensslCms(content: Buffer, signer: Issued, chain: readonly Issued[] = []): Promise<Buffer> {
    const id = (this.#serial += 1).toString(16);
    await writeFile(this.#file(`${id}.content`), content);
    await writeFile(
      this.#file(`${id}.chain`),
      chain.map((item) => new X509Certificate(item.der).toString()).join(''),
    );
    await run('openssl', [
      'cms',
      '-sign',
      '-binary',
      '-md',
      'sha256',
      '-in',
      this.#file(`${id}.content`),
      '-signer',
      signer.certPath,
      '-inkey',
      signer.keyPath,
      ...(chain.length > 0 ? ['-certfile', this.#file(`${id}.chain`)] : []),
      '-outform',
      'DER',
      '-out',
      this.#file(`${id}.p7s`),
    ]);
    return readFile(this.#file(`${id}.p7s`));
  }

  /** What `openssl cms -verify` says of a detached CMS over `content`, trusting `ca`. */
  async opensslVerifies(cms: Buffer, content: Buffer, ca: Issued): Promise<boolean> {
    const id = (this.#serial += 1).toString(16);
    await writeFile(this.#file(`${id}.p7s`), cms);
    await writeFile(this.#file(`${id}.content`), content);
    try {
      await run('openssl', [
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        this.#file(`${id}.p7s`),
        '-content',
        this.#file(`${id}.content`),
        '-CAfile',
        ca.certPath,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ]);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * The deployment's CA, as files openssl can sign with: the trust list of the app's verifications, whose
 * key then issues a test's signers and time-stamping authority.
 */
export async function appCertificateAuthority(t: TestApp, pki: TestPki): Promise<Issued> {
  const { ca } = await t.deps.pki();
  const dir = path.join(t.config.dataDir, 'deployment-ca-files');
  await mkdir(dir, { recursive: true });
  const certificate = path.join(dir, 'ca-cert.pem');
  const key = path.join(dir, 'ca-key.pem');
  await writeFile(certificate, new X509Certificate(ca.certificate).toString());
  await writeFile(key, ca.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return pki.use(certificate, key);
}

// ------------------------------------------------------------------ CMS

class AttributeList extends AsnArray<Attribute> {
  constructor(items?: Attribute[]) {
    super(items);
    Object.setPrototypeOf(this, AttributeList.prototype);
  }
}
AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })(AttributeList);

// An OBJECT IDENTIFIER on its own (a CHOICE of one serialises as its element).
class ObjectIdentifierValue {
  value: string;

  constructor(value = '') {
    this.value = value;
  }
}
AsnProp({ type: AsnPropTypes.ObjectIdentifier })(ObjectIdentifierValue.prototype, 'value');
AsnType({ type: AsnTypeTypes.Choice })(ObjectIdentifierValue);

const attribute = (type: string, value: ArrayBuffer): Attribute =>
  new Attribute({ attrType: type, attrValues: [value] });

export type CmsOptions = {
  signer: Issued;
  /** Certificates carried beside the signer's (its CA, say). */
  chain?: readonly Issued[];
  signingTime?: Date;
  /** Makes the signature time-stamp token over the signature value. */
  timeStamp?: (signatureValue: Buffer) => Promise<Buffer>;
  /** OCSP responses carried as the CMS's revocation information. */
  ocspResponses?: readonly Buffer[];
};

/** A detached CAdES-style SignedData over `parts` (SHA-256, RSA PKCS #1 v1.5). */
export async function buildCms(parts: readonly Uint8Array[], options: CmsOptions): Promise<Buffer> {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  const signed = [
    attribute(OIDS.contentType, AsnConvert.serialize(new ObjectIdentifierValue(OIDS.data))),
    attribute(OIDS.messageDigest, AsnConvert.serialize(new OctetString(hash.digest()))),
    ...(options.signingTime === undefined
      ? []
      : [attribute(OIDS.signingTime, AsnConvert.serialize(new Time({ utcTime: options.signingTime })))]),
  ];
  const signatureValue = sign(
    'sha256',
    Buffer.from(AsnConvert.serialize(new AttributeList(signed))),
    options.signer.key,
  );
  const certificate = AsnConvert.parse(options.signer.der, Certificate);
  const signerInfo = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: certificate.tbsCertificate.issuer,
        serialNumber: certificate.tbsCertificate.serialNumber,
      }),
    }),
    digestAlgorithm: new AlgorithmIdentifier({ algorithm: OIDS.sha256 }),
    signedAttrs: signed,
    signatureAlgorithm: new AlgorithmIdentifier({ algorithm: OIDS.rsaEncryption, parameters: null }),
    signature: new OctetString(signatureValue),
    ...(options.timeStamp === undefined
      ? {}
      : {
          unsignedAttrs: [
            attribute(OIDS.timeStampToken, new Uint8Array(await options.timeStamp(signatureValue)).buffer),
          ],
        }),
  });
  const certificates = [options.signer, ...(options.chain ?? [])].map(
    (item) => new CertificateChoices({ certificate: AsnConvert.parse(item.der, Certificate) }),
  );
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([new AlgorithmIdentifier({ algorithm: OIDS.sha256 })]),
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OIDS.data }),
    certificates: new CertificateSet(certificates),
    ...(options.ocspResponses === undefined
      ? {}
      : {
          crls: new RevocationInfoChoices(
            options.ocspResponses.map(
              (response) =>
                new RevocationInfoChoice({
                  other: new OtherRevocationInfoFormat({
                    otherRevInfoFormat: OIDS.ocspRevocationInfo,
                    otherRevInfo: new Uint8Array(response).buffer,
                  }),
                }),
            ),
          ),
        }),
    signerInfos: new SignerInfos([signerInfo]),
  });
  return Buffer.from(
    AsnConvert.serialize(
      new ContentInfo({ contentType: OIDS.signedData, content: AsnConvert.serialize(signedData) }),
    ),
  );
}

// ------------------------------------------------------------------ PDF incremental updates

type RawObject = { ref: PDFRef; text: string };

function tailSection(bytes: Buffer): { startxref: number; size: number } {
  const tail = bytes.subarray(Math.max(0, bytes.length - 65_536)).toString('latin1');
  const startxref = Number([...tail.matchAll(/startxref\s+(\d+)/g)].at(-1)?.[1]);
  const size = Number([...tail.matchAll(/\/Size\s+(\d+)/g)].at(-1)?.[1]);
  if (!Number.isFinite(startxref) || !Number.isFinite(size)) throw new Error('no trailer found');
  return { startxref, size };
}

function print(object: PDFObject): string {
  return object instanceof PDFRawStream
    ? `stream ${object.dict.toString()} ${object.contents.length}`
    : object.toString();
}

function serialise(ref: PDFRef, object: PDFObject): Buffer {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return Buffer.concat([
    Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1'),
    body,
    Buffer.from('\nendobj\n', 'latin1'),
  ]);
}

/**
 * Appends an incremental update: whatever `change` does to the document (and the raw objects it
 * returns) is written after the file's last byte, with its own xref section and a trailer whose /Prev
 * points to the previous one. Answers the new file and where each written object starts.
 */
export async function appendUpdate(
  pdf: Buffer,
  change: (doc: PDFDocument) => Promise<RawObject[]> | RawObject[],
): Promise<{ pdf: Buffer; offsets: Map<string, number> }> {
  const previous = tailSection(pdf);
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const { context } = doc;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, previous.size - 1);
  const before = new Map(
    context.enumerateIndirectObjects().map(([ref, object]) => [ref.tag, { object, print: print(object) }]),
  );
  const raw = await change(doc);
  await doc.flush();
  const written: { ref: PDFRef; bytes: Buffer }[] = context
    .enumerateIndirectObjects()
    .filter(([ref, object]) => {
      const old = before.get(ref.tag);
      return old === undefined || old.object !== object || old.print !== print(object);
    })
    .map(([ref, object]) => ({ ref, bytes: serialise(ref, object) }));
  for (const object of raw) {
    written.push({
      ref: object.ref,
      bytes: Buffer.from(`${object.ref.objectNumber} 0 obj\n${object.text}\nendobj\n`, 'latin1'),
    });
  }
  const parts: Buffer[] = [pdf];
  let offset = pdf.length;
  if (pdf[pdf.length - 1] !== 0x0a) {
    parts.push(Buffer.from('\n'));
    offset += 1;
  }
  const offsets = new Map<string, number>();
  // One subsection per object: valid, if not the most compact.
  const entries: string[] = [];
  for (const object of written) {
    offsets.set(object.ref.tag, offset);
    entries.push(`${object.ref.objectNumber} 1\n${String(offset).padStart(10, '0')} 00000 n\r\n`);
    parts.push(object.bytes);
    offset += object.bytes.length;
  }
  const xref = `xref\n${entries.join('')}`;
  const trailer = context.obj({
    Size: context.largestObjectNumber + 1,
    Root: context.trailerInfo.Root,
    ...(context.trailerInfo.Info === undefined ? {} : { Info: context.trailerInfo.Info }),
    Prev: previous.startxref,
  });
  parts.push(Buffer.from(`${xref}trailer\n${trailer.toString()}\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return { pdf: Buffer.concat(parts), offsets };
}

export type SignatureOptions = {
  type?: 'Sig' | 'DocTimeStamp';
  subFilter?: string;
  name?: string;
  signedAt?: Date;
  /** Leaves this many bytes before /Contents out of the byte range too (what no honest signer does). */
  widenGap?: number;
  /** The /Contents for the byte range's two parts (a CMS, or a time-stamp token). */
  contents: (parts: [Buffer, Buffer]) => Promise<Buffer>;
};

const CONTENTS_BYTES = 16_384;
const PLACEHOLDER = '[0 0000000000 0000000000 0000000000]';

/** Appends a signature (or a document time-stamp) as an incremental update: an invisible field on page 1. */
export async function appendSignature(pdf: Buffer, options: SignatureOptions): Promise<Buffer> {
  const type = options.type ?? 'Sig';
  const subFilter = options.subFilter ?? (type === 'Sig' ? 'ETSI.CAdES.detached' : 'ETSI.RFC3161');
  let signatureRef: PDFRef | null = null;
  const { pdf: updated, offsets } = await appendUpdate(pdf, (doc) => {
    const { context, catalog } = doc;
    signatureRef = context.nextRef();
    const page = doc.getPage(0);
    let form = catalog.lookup(PDFName.of('AcroForm'));
    if (!(form instanceof PDFDict)) {
      form = context.obj({ Fields: [] });
      catalog.set(PDFName.of('AcroForm'), context.register(form as PDFDict));
    }
    const acroForm = form as PDFDict;
    let fields = acroForm.lookup(PDFName.of('Fields'));
    if (!(fields instanceof PDFArray)) {
      fields = context.obj([]);
      acroForm.set(PDFName.of('Fields'), fields);
    }
    const widget = context.register(
      context.obj({
        Type: 'Annot',
        Subtype: 'Widget',
        FT: 'Sig',
        T: PDFString.of(`${type === 'Sig' ? 'Signature' : 'TimeStamp'}${(fields as PDFArray).size() + 1}`),
        V: signatureRef,
        Rect: [0, 0, 0, 0],
        F: 132,
        P: page.ref,
      }),
    );
    (fields as PDFArray).push(widget);
    acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
    const annots = page.node.lookup(PDFName.of('Annots'));
    if (annots instanceof PDFArray) annots.push(widget);
    else page.node.set(PDFName.of('Annots'), context.obj([widget]));
    const entries = [
      `/Type /${type}`,
      '/Filter /Adobe.PPKLite',
      `/SubFilter /${subFilter}`,
      `/ByteRange ${PLACEHOLDER}`,
      `/Contents <${'0'.repeat(CONTENTS_BYTES * 2)}>`,
      ...(options.signedAt === undefined ? [] : [`/M ${PDFString.fromDate(options.signedAt).toString()}`]),
      ...(options.name === undefined ? [] : [`/Name ${PDFString.of(options.name).toString()}`]),
    ];
    return [{ ref: signatureRef, text: `<<\n${entries.join('\n')}\n>>` }];
  });
  const ref = signatureRef as PDFRef | null;
  if (ref === null) throw new Error('no signature object');
  const objectStart = offsets.get(ref.tag) ?? 0;
  const text = updated.toString('latin1');
  const contentsStart = text.indexOf('/Contents <', objectStart) + '/Contents '.length;
  const contentsEnd = contentsStart + CONTENTS_BYTES * 2 + 2;
  const gapStart = contentsStart - (options.widenGap ?? 0);
  const byteRange = [0, gapStart, contentsEnd, updated.length - contentsEnd];
  updated.write(
    `[${byteRange.join(' ')}]`.padEnd(PLACEHOLDER.length, ' '),
    text.indexOf(PLACEHOLDER, objectStart),
    'latin1',
  );
  const parts: [Buffer, Buffer] = [updated.subarray(0, gapStart), updated.subarray(contentsEnd)];
  const contents = await options.contents(parts);
  if (contents.length > CONTENTS_BYTES) throw new Error('the contents do not fit');
  updated.write(contents.toString('hex').toUpperCase(), contentsStart + 1, 'latin1');
  return updated;
}

/** Appends a DSS holding these certificates, OCSP responses and CRLs. */
export async function appendDss(
  pdf: Buffer,
  entries: { certs?: readonly Buffer[]; ocsps?: readonly Buffer[]; crls?: readonly Buffer[] },
): Promise<Buffer> {
  const { pdf: updated } = await appendUpdate(pdf, (doc) => {
    const { context } = doc;
    const streams = (items: readonly Buffer[] | undefined) =>
      (items ?? []).map((item) => context.register(context.flateStream(item)));
    const dss = context.obj({
      Certs: streams(entries.certs),
      OCSPs: streams(entries.ocsps),
      CRLs: streams(entries.crls),
    });
    doc.catalog.set(PDFName.of('DSS'), context.register(dss));
    return [];
  });
  return updated;
}

/** Appends a change to the first page's content: what no signature allows after it. */
export async function appendPageChange(pdf: Buffer): Promise<Buffer> {
  const { pdf: updated } = await appendUpdate(pdf, async (doc) => {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.getPage(0).drawText('Amount due: 1,000,000', { x: 72, y: 400, size: 18, font });
    return [];
  });
  return updated;
}

/** The signature value a CMS carries (what a signature time-stamp stamps), read back for tests. */
export function signatureValueOf(cms: Buffer): Buffer {
  const info = AsnConvert.parse(cms, ContentInfo);
  const signedData = AsnConvert.parse(info.content, SignedData);
  const first = signedData.signerInfos[0];
  if (first === undefined) throw new Error('no signer');
  return Buffer.from(first.signature.buffer);
}
