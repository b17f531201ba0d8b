// OCSP (RFC 6960): a responder for the certificates the deployment CA issued, signed by a delegated
// responder certificate (EKU id-kp-OCSPSigning, id-pkix-ocsp-nocheck, issued by that CA), and a client that
// asks the responder a certificate names, checks the answer, and keeps it in a cache until its nextUpdate.
// The responder's answers are written on the codec thread (codec.ts); its key signs here.
import { randomBytes, type KeyObject } from 'node:crypto';
import { OctetString } from '@peculiar/asn1-schema';
import {
  CertID,
  CertStatus,
  KeyHash,
  Nonce,
  OCSPRequest,
  OCSPResponse,
  OCSPResponseStatus,
  Request,
  ResponderID,
  ResponseBytes,
  ResponseData,
  RevokedInfo,
  SingleResponse,
  TBSRequest,
  id_kp_OCSPSigning,
  id_pkix_ocsp_basic,
  id_pkix_ocsp_nonce,
} from '@peculiar/asn1-ocsp';
import { AlgorithmIdentifier, Extension } from '@peculiar/asn1-x509';
import type { CertificateStatus } from './types.ts';
import {
  SignedOcspResponse,
  arrayBuffer,
  bytes,
  crlReason,
  decode,
  encode,
  integerHex,
  revocationReason,
  sameBytes,
} from './asn1.ts';
import {
  extendedKeyUsages,
  issuedBy,
  ocspUrls,
  readCertificate,
  validAt,
  type CertificateFacts,
} from './certificates.ts';
import { offThread } from './codec.ts';
import {
  OID,
  digest,
  digestName,
  rsaIdentifier,
  rsaSigning,
  verifySignature,
  type DigestName,
  type SignFunction,
} from './crypto.ts';
import { RevocationUnavailableError } from './errors.ts';
import { postDer, type Fetch } from './http.ts';

// A request names a handful of certificates in a few hundred bytes; longer ones are not parsed.
const MAX_REQUEST_BYTES = 64 * 1024;
const MAX_SINGLE_REQUESTS = 100;
/** How far a responder's clock may run ahead of ours, and how long a response without nextUpdate is current. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** A whole second: OCSP and CRL times are written without fractions of a second. */
const toSecond = (date: Date): Date => new Date(Math.floor(date.getTime() / 1000) * 1000);

/** The hashes of the issuer's name and key by which OCSP CertIDs name it. */
function issuerHashes(issuer: CertificateFacts) {
  const memo = new Map<DigestName, { name: Uint8Array; key: Uint8Array }>();
  return (hash: DigestName) => {
    let hashes = memo.get(hash);
    if (!hashes) {
      hashes = { name: digest(hash, issuer.subjectDer), key: digest(hash, issuer.publicKeyBits) };
      memo.set(hash, hashes);
    }
    return hashes;
  };
}

function certIdFor(certificate: CertificateFacts, issuer: CertificateFacts): CertID {
  // SHA-1 as RFC 5019 and every OCSP client expect: a CertID is looked up by its hash algorithm too, and
  // SHA-1 here names, it does not protect.
  const hashes = issuerHashes(issuer)('sha1');
  return new CertID({
    hashAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha1, parameters: null }),
    issuerNameHash: new OctetString(hashes.name),
    issuerKeyHash: new OctetString(hashes.key),
    serialNumber: certificate.serialNumber,
  });
}

function certStatus(status: CertificateStatus): CertStatus {
  switch (status.status) {
    case 'good':
      return new CertStatus({ good: null });
    case 'unknown':
      return new CertStatus({ unknown: null });
    case 'revoked':
      return new CertStatus({
        revoked: new RevokedInfo({
          revocationTime: toSecond(status.revokedAt),
          revocationReason: crlReason(status.reason),
        }),
      });
  }
}

const statusResponse = (status: OCSPResponseStatus): Uint8Array =>
  encode(new OCSPResponse({ responseStatus: status }));

export type OcspResponderOptions = {
  /** The CA whose certificates this responder answers for. */
  issuerCertificate: Uint8Array;
  /** Signs the responses: a delegated responder certificate the CA issued, or the CA's own. */
  responderCertificate: Uint8Array;
  responderKey: KeyObject;
  /** The status of one of the CA's certificates, by serial number (upper-case hex). */
  status: (serialNumber: string) => Promise<CertificateStatus>;
  clock: () => Date;
  /** How long a response stays current (nextUpdate - thisUpdate). */
  validityMs: number;
};

export type OcspResponder = {
  /**
   * A DER OCSPResponse for a DER OCSPRequest, as the /pki/ocsp endpoint answers it: a status for each
   * certificate asked about (unknown for another issuer's, or for a CertID hash other than SHA-1/2), the
   * request's nonce echoed; malformedRequest for anything unreadable; internalError while the responder's
   * certificate is not valid. Never throws for a bad request; a failing `status` lookup rejects (the route
   * can answer tryLater).
   */
  answer(requestDer: Uint8Array): Promise<Uint8Array>;
  /** A DER OCSPResponse for one of the CA's certificates, unasked (for a PDF's DSS). */
  responseFor(certificateDer: Uint8Array): Promise<Uint8Array>;
};

export function ocspResponder(options: OcspResponderOptions): OcspResponder {
  const issuer = readCertificate(options.issuerCertificate);
  const responder = readCertificate(options.responderCertificate);
  const sign = rsaSigning(options.responderKey, options.responderCertificate, 'OCSP responder');
  const delegated = !sameBytes(responder.der, issuer.der);
  if (delegated && !issuedBy(responder, issuer)) {
    throw new Error("The OCSP responder's certificate was not issued by the CA it answers for");
  }
  const context = (now: Date): ResponderInput => ({
    issuer: issuer.der,
    responder: responder.der,
    now,
    validityMs: options.validityMs,
  });
  const calls = { status: options.status, sign };

  return {
    async answer(requestDer) {
      const now = options.clock();
      // A request far too long to be one is not even copied to the codec thread.
      const request = requestDer.length > MAX_REQUEST_BYTES ? null : requestDer;
      return offThread('ocsp-answer', { ...context(now), request }, calls);
    },
    async responseFor(certificateDer) {
      return offThread('ocsp-response', { ...context(options.clock()), certificate: certificateDer }, calls);
    },
  };
}

/** What the codec thread needs of the responder to answer: its certificates, the time, the validity. */
type ResponderInput = { issuer: Uint8Array; responder: Uint8Array; now: Date; validityMs: number };

type ResponderCalls = {
  status: (serialNumber: string) => Promise<CertificateStatus>;
  sign: SignFunction;
};

function responderOf(
  { issuer: issuerDer, responder: responderDer, validityMs }: ResponderInput,
  calls: ResponderCalls,
) {
  const issuer = readCertificate(issuerDer);
  const responder = readCertificate(responderDer);
  const delegated = !sameBytes(responder.der, issuer.der);
  const hashesOf = issuerHashes(issuer);
  const responderId = new ResponderID({ byKey: new KeyHash(digest('sha1', responder.publicKeyBits)) });
  // The CA's certificate too, so that a verifier can build the responder's chain from the response alone.
  const certs = (delegated ? [responder.der, issuer.der] : [issuer.der]).map((der) => arrayBuffer(der));

  async function single(certId: CertID, now: Date): Promise<SingleResponse> {
    const hash = digestName(certId.hashAlgorithm.algorithm);
    const hashes = hash ? hashesOf(hash) : undefined;
    const ours =
      hashes !== undefined &&
      sameBytes(certId.issuerNameHash.buffer, hashes.name) &&
      sameBytes(certId.issuerKeyHash.buffer, hashes.key);
    const status: CertificateStatus = ours
      ? await calls.status(integerHex(certId.serialNumber))
      : { status: 'unknown' };
    const thisUpdate = toSecond(now);
    return new SingleResponse({
      certID: certId,
      certStatus: certStatus(status),
      thisUpdate,
      nextUpdate: new Date(thisUpdate.getTime() + validityMs),
    });
  }

  async function signed(responses: SingleResponse[], now: Date, nonce: Extension | undefined) {
    const tbs = encode(
      new ResponseData({
        responderID: responderId,
        producedAt: toSecond(now),
        responses,
        responseExtensions: nonce ? [nonce] : undefined,
      }),
    );
    const signature = await calls.sign(tbs);
    const basic = new SignedOcspResponse({
      tbsResponseData: arrayBuffer(tbs),
      signatureAlgorithm: rsaIdentifier(OID.sha256WithRSAEncryption),
      signature: arrayBuffer(signature),
      certs,
    });
    return encode(
      new OCSPResponse({
        responseStatus: OCSPResponseStatus.successful,
        responseBytes: new ResponseBytes({
          responseType: id_pkix_ocsp_basic,
          response: new OctetString(encode(basic)),
        }),
      }),
    );
  }

  return { issuer, responder, single, signed };
}

/** The responder's answer to a request (null: one too long to read), on the codec thread. */
export async function answerOcspRequest(
  input: ResponderInput & { request: Uint8Array | null },
  calls: ResponderCalls,
): Promise<Uint8Array> {
  if (input.request === null) return statusResponse(OCSPResponseStatus.malformedRequest);
  let request: OCSPRequest;
  try {
    request = decode(input.request, OCSPRequest);
  } catch {
    return statusResponse(OCSPResponseStatus.malformedRequest);
  }
  const list = request.tbsRequest.requestList;
  if (list.length === 0 || list.length > MAX_SINGLE_REQUESTS) {
    return statusResponse(OCSPResponseStatus.malformedRequest);
  }
  const { responder, single, signed } = responderOf(input, calls);
  const { now } = input;
  // Signed by a certificate out of its validity, the answer would not verify: say so instead.
  if (!validAt(responder, now)) return statusResponse(OCSPResponseStatus.internalError);
  const responses = await Promise.all(list.map((item) => single(item.reqCert, now)));
  const nonce = request.tbsRequest.requestExtensions?.find((item) => item.extnID === id_pkix_ocsp_nonce);
  return signed(responses, now, nonce);
}

/** The responder's unasked response for one of the CA's certificates, on the codec thread. */
export async function ocspResponseFor(
  input: ResponderInput & { certificate: Uint8Array },
  calls: ResponderCalls,
): Promise<Uint8Array> {
  const { issuer, responder, single, signed } = responderOf(input, calls);
  const certificate = readCertificate(input.certificate);
  if (!issuedBy(certificate, issuer)) {
    throw new Error(
      `The certificate ${certificate.serialHex} was not issued by the CA this responder answers for`,
    );
  }
  const { now } = input;
  if (!validAt(responder, now)) {
    throw new Error(`The OCSP responder's certificate is not valid on ${now.toISOString()}`);
  }
  return signed([await single(certIdFor(certificate, issuer), now)], now, undefined);
}

// --- Reading and checking -----------------------------------------------------------------------------

export type OcspSingleStatus = {
  /** Upper-case hex. */
  serialNumber: string;
  certId: { hashAlgorithm: string; issuerNameHash: Uint8Array; issuerKeyHash: Uint8Array };
  status: CertificateStatus;
  thisUpdate: Date;
  nextUpdate?: Date;
};

export type OcspResponseInfo =
  | { responseStatus: Exclude<keyof typeof OCSPResponseStatus, 'successful'> }
  | {
      responseStatus: 'successful';
      producedAt: Date;
      /** The responder, by the SHA-1 of its key (hex) or by its name (DER). */
      responderId: { keyHash: Uint8Array } | { name: Uint8Array };
      responses: OcspSingleStatus[];
      /** The certificates the response carries (the responder's, and maybe its chain). */
      certificates: Uint8Array[];
      /** The nonce extension's value, when the response echoes one. */
      nonce?: Uint8Array;
      signatureAlgorithm: string;
      signature: Uint8Array;
      /** The signed ResponseData. */
      tbsResponseData: Uint8Array;
    };

function singleStatus(status: CertStatus): CertificateStatus {
  if (status.revoked) {
    return {
      status: 'revoked',
      revokedAt: status.revoked.revocationTime,
      reason: revocationReason(status.revoked.revocationReason),
    };
  }
  if (status.good !== undefined) return { status: 'good' };
  return { status: 'unknown' };
}

/** Reads a DER OCSPResponse. Throws for anything else; checks no signature. */
export function readOcspResponse(der: Uint8Array): OcspResponseInfo {
  const response = decode(der, OCSPResponse);
  const statusName = OCSPResponseStatus[response.responseStatus] as
    keyof typeof OCSPResponseStatus | undefined;
  if (!statusName) throw new Error(`Unknown OCSP response status ${response.responseStatus}`);
  if (statusName !== 'successful') return { responseStatus: statusName };
  if (!response.responseBytes || response.responseBytes.responseType !== id_pkix_ocsp_basic) {
    throw new Error('Not a basic OCSP response');
  }
  const basicDer = bytes(response.responseBytes.response.buffer);
  const signed = decode(basicDer, SignedOcspResponse);
  const data = decode(bytes(signed.tbsResponseData), ResponseData);
  const responderId = data.responderID.byKey
    ? { keyHash: bytes(data.responderID.byKey.buffer) }
    : { name: data.responderID.byName ? encode(data.responderID.byName) : new Uint8Array() };
  const nonce = data.responseExtensions?.find((item) => item.extnID === id_pkix_ocsp_nonce);
  return {
    responseStatus: 'successful',
    producedAt: data.producedAt,
    responderId,
    responses: data.responses.map((item) => ({
      serialNumber: integerHex(item.certID.serialNumber),
      certId: {
        hashAlgorithm: item.certID.hashAlgorithm.algorithm,
        issuerNameHash: bytes(item.certID.issuerNameHash.buffer),
        issuerKeyHash: bytes(item.certID.issuerKeyHash.buffer),
      },
      status: singleStatus(item.certStatus),
      thisUpdate: item.thisUpdate,
      nextUpdate: item.nextUpdate,
    })),
    certificates: (signed.certs ?? []).map((item) => bytes(item)),
    nonce: nonce ? bytes(nonce.extnValue.buffer) : undefined,
    signatureAlgorithm: signed.signatureAlgorithm.algorithm,
    signature: bytes(signed.signature),
    tbsResponseData: bytes(signed.tbsResponseData),
  };
}

export type OcspCheckOptions = {
  /** The certificate the response must be about, and its issuer. */
  certificate: Uint8Array;
  issuer: Uint8Array;
  now: Date;
  /** The nonce extension value sent: a response that echoes another one is refused. */
  nonce?: Uint8Array;
};

export type CheckedOcspResponse = OcspSingleStatus & { producedAt: Date; responder: Uint8Array };

/**
 * Checks an OCSPResponse for one certificate: successful, signed by the issuer or by a responder the
 * issuer delegated (EKU id-kp-OCSPSigning, valid now), about this certificate, and current (thisUpdate not
 * ahead of our clock beyond 5 minutes, now before nextUpdate, or without nextUpdate, produced in the last
 * 5 minutes). Answers the certificate's status; throws an Error saying what is wrong.
 */
export async function checkOcspResponse(
  der: Uint8Array,
  options: OcspCheckOptions,
): Promise<CheckedOcspResponse> {
  const certificate = readCertificate(options.certificate);
  const issuer = readCertificate(options.issuer);
  let info: OcspResponseInfo;
  try {
    info = readOcspResponse(der);
  } catch (error) {
    throw new Error('the answer is not an OCSP response', { cause: error });
  }
  if (info.responseStatus !== 'successful') throw new Error(`the responder answered ${info.responseStatus}`);

  const hashesOf = issuerHashes(issuer);
  const mine = info.responses.find((item) => {
    const hash = digestName(item.certId.hashAlgorithm);
    if (!hash || item.serialNumber !== certificate.serialHex) return false;
    const hashes = hashesOf(hash);
    return (
      sameBytes(item.certId.issuerNameHash, hashes.name) && sameBytes(item.certId.issuerKeyHash, hashes.key)
    );
  });
  if (!mine) throw new Error('the response is not about this certificate');
  if (options.nonce && info.nonce && !sameBytes(info.nonce, options.nonce)) {
    throw new Error('the response answers another request (nonce)');
  }

  const candidates = [
    issuer,
    ...info.certificates.flatMap((item) => {
      try {
        return [readCertificate(item)];
      } catch {
        return [];
      }
    }),
  ];
  const { responderId } = info;
  const signer = candidates.find((candidate) =>
    'keyHash' in responderId
      ? sameBytes(digest('sha1', candidate.publicKeyBits), responderId.keyHash)
      : sameBytes(candidate.subjectDer, responderId.name),
  );
  if (!signer) throw new Error("the responder's certificate is not in the response");
  if (!sameBytes(signer.publicKeyBits, issuer.publicKeyBits)) {
    if (!issuedBy(signer, issuer)) throw new Error('the responder is not one the issuer delegated');
    if (!extendedKeyUsages(signer).includes(id_kp_OCSPSigning)) {
      throw new Error("the responder's certificate is not for OCSP signing");
    }
    if (!validAt(signer, options.now)) throw new Error("the responder's certificate is not valid now");
  }
  const valid = await verifySignature(
    info.signatureAlgorithm,
    info.tbsResponseData,
    signer.x509.publicKey,
    info.signature,
  ).catch((error: unknown) => {
    throw new Error('the response signature cannot be checked', { cause: error });
  });
  if (!valid) throw new Error('the response signature does not verify');

  const now = options.now.getTime();
  if (mine.thisUpdate.getTime() > now + CLOCK_SKEW_MS) throw new Error('the response is dated in the future');
  if (mine.nextUpdate ? now > mine.nextUpdate.getTime() : mine.thisUpdate.getTime() < now - CLOCK_SKEW_MS) {
    throw new Error('the response is out of date');
  }
  return { ...mine, producedAt: info.producedAt, responder: signer.der };
}

// --- The client ------------------------------------------------------------------------------------------

export type OcspCache = {
  get(key: string): Promise<Uint8Array | null>;
  set(key: string, der: Uint8Array, until: Date): Promise<void>;
};

export type FetchOcspOptions = {
  certificate: Uint8Array;
  issuer: Uint8Array;
  /** For the whole exchange with the responder. */
  timeoutMs: number;
  fetch?: Fetch;
  /** Responses kept until their nextUpdate, by issuer and serial number. */
  cache?: OcspCache;
  clock?: () => Date;
};

export type FetchedOcspResponse = CheckedOcspResponse & {
  /** The DER OCSPResponse, as a PDF's DSS keeps it. */
  der: Uint8Array;
};

/**
 * A checked, current OCSP response for `certificate`, from the cache or from the responder its authority
 * information access names (HTTP POST, RFC 6960 A.1, with a nonce). Every failure to get one (no responder
 * named, no answer in time, an error status, an answer that does not check out) is a
 * RevocationUnavailableError. A revoked certificate is an answer, not a failure: read `status`.
 */
export async function fetchOcspResponse({
  certificate,
  issuer,
  timeoutMs,
  fetch,
  cache,
  clock = () => new Date(),
}: FetchOcspOptions): Promise<FetchedOcspResponse> {
  const subject = readCertificate(certificate);
  const issuerFacts = readCertificate(issuer);
  if (!issuedBy(subject, issuerFacts))
    throw new Error(`The certificate ${subject.serialHex} is not the issuer's`);
  const hashes = issuerHashes(issuerFacts)('sha256');
  const cacheKey = `${Buffer.from(hashes.name).toString('hex')}${Buffer.from(hashes.key).toString('hex')}:${subject.serialHex}`;

  const cached = cache ? await cache.get(cacheKey) : null;
  if (cached) {
    // The cache says until when; the response itself says so too, and is the one to believe.
    const checked = await checkOcspResponse(cached, { certificate, issuer, now: clock() }).catch(() => null);
    if (checked) return { ...checked, der: cached };
  }

  const [url] = ocspUrls(subject);
  if (!url)
    throw new RevocationUnavailableError(`the certificate ${subject.serialHex} names no OCSP responder`);
  const nonce = encode(new Nonce(randomBytes(32)));
  const request = encode(
    new OCSPRequest({
      tbsRequest: new TBSRequest({
        requestList: [new Request({ reqCert: certIdFor(subject, issuerFacts) })],
        requestExtensions: [new Extension({ extnID: id_pkix_ocsp_nonce, extnValue: new OctetString(nonce) })],
      }),
    }),
  );
  let der: Uint8Array;
  let checked: CheckedOcspResponse;
  try {
    der = await postDer({
      url,
      body: request,
      contentType: 'application/ocsp-request',
      accept: 'application/ocsp-response',
      timeoutMs,
      fetch,
    });
    checked = await checkOcspResponse(der, { certificate, issuer, now: clock(), nonce });
  } catch (error) {
    throw new RevocationUnavailableError(error instanceof Error ? error.message : String(error), {
      service: url,
      cause: error,
    });
  }
  if (cache && checked.nextUpdate) await cache.set(cacheKey, der, checked.nextUpdate);
  return { ...checked, der };
}
