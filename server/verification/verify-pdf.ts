// A verification report for any PDF (docs/decisions.md, "Verifying signed PDFs"). Runs in the PDF sandbox: the file
// is a stranger's, so its parse, its inflation and its ASN.1 never run on the API's event loop.
//
// 1. pdf-lib reads the whole file; the signature fields give each signature dictionary (a viewer's view,
//    object streams and cross-reference streams included), the catalog gives the DSS.
// 2. Each /ByteRange is checked against the file: from byte 0, leaving out exactly its own /Contents,
//    ending at the end of a revision (%%EOF).
// 3. When signatures end before the file does, the file is parsed again in slices cut at those ends, so
//    that what each later revision redefined can be compared with what the signature covered.
// 4. Each CMS (or time-stamp token) is verified, its signer's chain built to the trust anchors, and the
//    revocation evidence of the DSS and the signatures consulted (signature-report.ts).
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';
import { classifyChanges, type ChangeKind } from './changes.ts';
import { parseCertificate, type ParsedCertificate } from './certificates.ts';
import { DocumentState, parseSlice, type Slice } from './pdf-objects.ts';
import { dssStreams, findSignatures, type SignatureDictionary } from './pdf-signatures.ts';
import {
  documentVerdict,
  type SignatureReport,
  type VerificationOutcome,
  type VerificationReport,
} from './report.ts';
import { RevocationEvidence } from './revocation.ts';
import { reportSignature, type RangeCheck, type SignatureContext } from './signature-report.ts';

export type VerifyOptions = {
  /** The trust list: the DER of each trusted certificate. */
  anchors: readonly Uint8Array[];
  /**
   * CRLs of the trust list's own CA as they stand now (DER): what the file carries says "good" at signing
   * time; these say whether the certificate was revoked since.
   */
  currentCrls?: readonly Uint8Array[];
  /** When the report is made (the clock of the server asking). */
  now: Date;
};

// Readers accept junk before the header (ISO 32000-1 §7.5.2 implementation note).
const HEADER_WINDOW = 1024;
// A DSS entry is a certificate, an OCSP response or a CRL: a few kilobytes, a large CRL a few megabytes.
const MAX_DSS_ENTRY_BYTES = 16 * 1024 * 1024;

// What readers tolerate after %%EOF: white space (ISO 32000-1 §7.2.2) and NUL padding.
const TRAILING = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const isWhitespace = (bytes: Uint8Array): boolean => bytes.every((byte) => TRAILING.has(byte));

function checkRange(bytes: Buffer, signature: SignatureDictionary): RangeCheck {
  const ranges = signature.byteRange ?? [];
  const broken: RangeCheck = {
    ranges,
    parts: [],
    end: 0,
    coversWholeRevision: false,
    coversWholeFile: false,
  };
  if (ranges.length !== 4) return broken;
  const [start, firstLength, gapEnd, secondLength] = ranges as [number, number, number, number];
  const end = gapEnd + secondLength;
  if (firstLength < 1 || gapEnd < start + firstLength + 2 || end > bytes.length)
    return { ...broken, end: Math.min(end, bytes.length) };
  const parts = [bytes.subarray(start, start + firstLength), bytes.subarray(gapEnd, end)];
  // The gap must be this signature's own /Contents, brackets included: anything else left out of the
  // range could be changed without breaking the signature.
  const gap = bytes.subarray(start + firstLength, gapEnd).toString('latin1');
  const hex = gap.slice(1, -1).replace(/\s+/g, '');
  const isGapContents =
    gap.startsWith('<') &&
    gap.endsWith('>') &&
    /^[0-9a-fA-F]*$/.test(hex) &&
    hex.length % 2 === 0 &&
    signature.contents !== null &&
    Buffer.from(hex, 'hex').equals(signature.contents);
  const tail = bytes.subarray(Math.max(0, end - 32), end).toString('latin1');
  const isRevisionEnd = /%%EOF[\r\n\s]*$/.test(tail);
  const coversWholeRevision = start === 0 && isGapContents && isRevisionEnd;
  return {
    ranges,
    parts,
    end,
    coversWholeRevision,
    coversWholeFile: coversWholeRevision && isWhitespace(bytes.subarray(end)),
  };
}

function decodedStream(object: PDFObject): Buffer | null {
  if (!(object instanceof PDFRawStream)) return null;
  const filter = object.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter === undefined ? [] : [filter];
  const names = filters.map((item) => (item instanceof PDFName ? item.decodeText() : '?'));
  try {
    if (names.length === 0) return Buffer.from(object.contents);
    if (names.length === 1 && names[0] === 'FlateDecode') {
      return inflateSync(object.contents, { maxOutputLength: MAX_DSS_ENTRY_BYTES });
    }
  } catch {
    return null;
  }
  return null;
}

type Dss = { certificates: ParsedCertificate[]; exists: boolean };

function readDss(state: DocumentState, evidence: RevocationEvidence): Dss {
  const streams = dssStreams(state);
  if (streams === null) return { certificates: [], exists: false };
  const certificates = streams.certs.flatMap((stream) => {
    const der = decodedStream(stream);
    const parsed = der === null ? null : parseCertificate(der);
    return parsed === null ? [] : [parsed];
  });
  for (const stream of streams.ocsps) {
    const der = decodedStream(stream);
    if (der !== null) evidence.addOcspResponse(der, 'dss');
  }
  for (const stream of streams.crls) {
    const der = decodedStream(stream);
    if (der !== null) evidence.addCrl(der, 'dss');
  }
  return { certificates, exists: true };
}

/** What changed after each revision end, from the file parsed again in slices cut at those ends. */
async function changesAfter(bytes: Buffer, ends: readonly number[]): Promise<Map<number, Set<ChangeKind>>> {
  const cuts = [...new Set(ends)].filter((end) => end > 0 && end < bytes.length).sort((a, b) => a - b);
  const result = new Map<number, Set<ChangeKind>>();
  if (cuts.length === 0) return result;
  const slices: Slice[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    slices.push(await parseSlice(bytes.subarray(from, cut), from === 0));
    from = cut;
  }
  const now = DocumentState.merge(slices);
  cuts.forEach((cut, index) => {
    const before = DocumentState.merge(slices.slice(0, index + 1));
    const redefined = new Set(slices.slice(index + 1).flatMap((slice) => [...slice.objects.keys()]));
    result.set(cut, classifyChanges(before, now, redefined));
  });
  return result;
}

function levelOf(
  signatures: readonly SignatureReport[],
  hasDss: boolean,
  lastIsDocumentTimeStamp: boolean,
): VerificationReport['level'] {
  const own = signatures.filter((signature) => signature.kind === 'signature');
  if (signatures.length === 0) return null;
  const isTimeStamped = own.length > 0 && own.every((signature) => signature.timeStamp !== null);
  if (!isTimeStamped) return 'B-B';
  if (!hasDss) return 'B-T';
  return lastIsDocumentTimeStamp ? 'B-LTA' : 'B-LT';
}

export async function verifyPdf(input: Uint8Array, options: VerifyOptions): Promise<VerificationOutcome> {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length === 0) return { ok: false, code: 'empty_file' };
  if (bytes.subarray(0, HEADER_WINDOW).indexOf('%PDF-', 0, 'latin1') === -1)
    return { ok: false, code: 'not_a_pdf' };
  let whole: Slice;
  try {
    whole = await parseSlice(bytes, true);
  } catch {
    return { ok: false, code: 'not_a_pdf' };
  }
  if (whole.isEncrypted) return { ok: false, code: 'encrypted_pdf' };
  const state = DocumentState.merge([whole]);
  if (state.catalog() === null) return { ok: false, code: 'not_a_pdf' };

  const anchors = options.anchors.flatMap((der) => parseCertificate(der) ?? []);
  const evidence = new RevocationEvidence();
  for (const crl of options.currentCrls ?? []) evidence.addCrl(crl, 'service');
  const dss = readDss(state, evidence);
  const found = findSignatures(state)
    .map((signature) => ({ signature, range: checkRange(bytes, signature) }))
    .sort((a, b) => a.range.end - b.range.end);

  const changes = await changesAfter(
    bytes,
    found
      .filter(({ range }) => range.coversWholeRevision && !range.coversWholeFile)
      .map(({ range }) => range.end),
  ).catch(() => new Map<number, Set<ChangeKind>>());

  const context: SignatureContext = { anchors, pool: dss.certificates, evidence, now: options.now };
  const signatures: SignatureReport[] = [];
  for (const [index, { signature, range }] of found.entries()) {
    // A range that does not end a revision cannot be compared revision by revision: whatever follows it
    // is unsigned, which its own problem (byte_range_invalid) already says.
    const after = range.coversWholeFile
      ? new Set<ChangeKind>()
      : (changes.get(range.end) ?? (range.coversWholeRevision ? new Set<ChangeKind>(['other']) : null));
    signatures.push(await reportSignature(signature, index + 1, range, after, context));
  }
  const last = signatures[signatures.length - 1];
  const lastIsDocumentTimeStamp = last?.kind === 'document_time_stamp' && last.byteRange.coversWholeFile;
  return {
    ok: true,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    report: {
      verdict: documentVerdict(signatures),
      checkedAt: options.now.toISOString(),
      fileSize: bytes.length,
      level: levelOf(signatures, dss.exists, lastIsDocumentTimeStamp),
      hasDss: dss.exists,
      lastRevisionIsDocumentTimeStamp: lastIsDocumentTimeStamp,
      changedAfterLastSignature: last !== undefined && !last.changesAfter.onlyAllowed,
      signatures,
    },
  };
}
