// RFC 3161 time-stamping: an embedded time-stamping authority that makes tokens with the deployment's TSA
// key (and answers RFC 3161 requests for the /pki/tsa endpoint), a client for a remote one, and reading a
// token back. A token is a SignedData over a TSTInfo, signed with signing-certificate-v2 (RFC 5816). The
// embedded TSA's tokens and answers are written on the codec thread (codec.ts); its key signs here.
import { randomBytes } from 'node:crypto';
import { OctetString } from '@peculiar/asn1-schema';
import {
  Accuracy,
  MessageImprint,
  PKIFailureInfo,
  PKIFreeText,
  PKIStatus,
  PKIStatusInfo,
  TSTInfo,
  TimeStampReq,
  id_ct_tstInfo,
} from '@peculiar/asn1-tsp';
import { AlgorithmIdentifier, id_kp_timeStamping } from '@peculiar/asn1-x509';
import type { CertifiedKey } from './types.ts';
import { offThread } from './codec.ts';
import {
  RawTimeStampResp,
  TimeStampRespWithToken,
  arrayBuffer,
  bytes,
  decode,
  dottedOid,
  encode,
  integerHex,
  yieldToEventLoop,
} from './asn1.ts';
import { extendedKeyUsages, readCertificate, validAt } from './certificates.ts';
import {
  DIGEST_LENGTHS,
  OID,
  digest,
  digestName,
  rsaSigning,
  sha256Identifier,
  type SignFunction,
} from './crypto.ts';
import { TimeStampUnavailableError } from './errors.ts';
import { postDer, type Fetch } from './http.ts';
import { checkSignedData, readSignedData, signData, type SignedDataView } from './signed-data.ts';

export type TimeStamper = {
  /** A TimeStampToken (ContentInfo DER) over `digest`, the SHA-256 of the data to time-stamp. */
  timeStamp(digest: Uint8Array): Promise<Uint8Array>;
};

/**
 * The embedded TSA's policy, under the UUID arc 2.25 (ITU-T X.667), which anyone may take an OID from
 * without registering: 2.25.<a random UUID Paraph took once, as an integer>.1. It names "Paraph's embedded
 * time-stamping: the deployment's clock, to the second, signed with the deployment CA's TSA key".
 */
export const PARAPH_TSA_POLICY = '2.25.162630712878521897670434800890414978438.1';

/** For buildCadesSignature's timeStamp: a token from `stamper` over the SHA-256 of the signature value. */
export const timeStampSignature =
  (stamper: TimeStamper) =>
  (signatureValue: Uint8Array): Promise<Uint8Array> =>
    stamper.timeStamp(digest('sha256', signatureValue));

// Requests are a hundred bytes or so; anything much longer is not worth parsing on the event loop.
const MAX_REQUEST_BYTES = 16 * 1024;

/** A positive INTEGER of `length` random octets, its first octet never 0 (DER's shortest form). */
function randomInteger(length: number): ArrayBuffer {
  const value = randomBytes(length);
  value[0] = ((value[0] ?? 0) & 0x7f) | 0x40;
  return arrayBuffer(value);
}

export type EmbeddedTsaOptions = CertifiedKey & {
  clock: () => Date;
  /** The TSA policy OID of the tokens (PARAPH_TSA_POLICY unless given). */
  policy?: string;
};

export type EmbeddedTsa = TimeStamper & {
  readonly policy: string;
  /**
   * A DER TimeStampResp for a DER TimeStampReq, as the /pki/tsa endpoint answers it: granted with a token,
   * or a rejection saying why (failInfo badAlg, badDataFormat, unacceptedPolicy, unacceptedExtension).
   * A bad request is answered, never thrown.
   */
  answer(requestDer: Uint8Array): Promise<Uint8Array>;
};

/**
 * RFC 3161 2.4.2's PKIFailureInfo bits. asn1-tsp's PKIFailureInfoFlags puts all but badAlg one bit too
 * low (badDataFormat on bit 4, unacceptedPolicy on timeNotAvailable's bit 14): its names are not used.
 */
const FAILURE_BITS = {
  badAlg: 0,
  badRequest: 2,
  badDataFormat: 5,
  timeNotAvailable: 14,
  unacceptedPolicy: 15,
  unacceptedExtension: 16,
  addInfoNotAvailable: 17,
  systemFailure: 25,
} as const;

type Failure = keyof typeof FAILURE_BITS;

function failureNames(info: PKIFailureInfo): Failure[] {
  const flags = info.toNumber();
  return (Object.keys(FAILURE_BITS) as Failure[]).filter((name) => (flags >> FAILURE_BITS[name]) & 1);
}

const rejection = (failure: Failure, text: string): Uint8Array =>
  encode(
    new RawTimeStampResp({
      status: new PKIStatusInfo({
        status: PKIStatus.rejection,
        statusString: new PKIFreeText([text]),
        failInfo: new PKIFailureInfo(2 ** FAILURE_BITS[failure]),
      }),
    }),
  );

export function embeddedTsa({
  certificate,
  privateKey,
  chain,
  clock,
  policy = PARAPH_TSA_POLICY,
}: EmbeddedTsaOptions): EmbeddedTsa {
  const sign = rsaSigning(privateKey, certificate, 'time-stamping');
  const tsaCertificate = readCertificate(certificate);
  // A token signed outside the certificate's validity is one no verifier accepts: better none.
  const unusableAt = (time: Date): string | undefined =>
    validAt(tsaCertificate, time)
      ? undefined
      : `the TSA certificate is not valid on ${time.toISOString()} (valid from ` +
        `${tsaCertificate.notBefore.toISOString()} to ${tsaCertificate.notAfter.toISOString()})`;
  const authority = { policy, certificate, chain };

  return {
    policy,
    async timeStamp(hashed) {
      if (hashed.length !== DIGEST_LENGTHS.sha256) throw new Error('Time-stamp a SHA-256 digest');
      const now = clock();
      const unusable = unusableAt(now);
      if (unusable) throw new TimeStampUnavailableError(unusable, { service: 'embedded TSA' });
      return offThread('time-stamp-token', { ...authority, hashed, genTime: now }, { sign });
    },
    async answer(requestDer) {
      const now = clock();
      // A request far too long to be one is not even copied to the codec thread.
      const request = requestDer.length > MAX_REQUEST_BYTES ? null : requestDer;
      return offThread(
        'time-stamp-answer',
        { ...authority, request, genTime: now, usable: unusableAt(now) === undefined },
        { sign },
      );
    },
  };
}

/** What the codec thread needs of the embedded TSA to make its tokens. */
type Authority = { policy: string; certificate: Uint8Array; chain: readonly Uint8Array[] };

async function issue(
  { policy, certificate, chain }: Authority,
  sign: SignFunction,
  imprint: MessageImprint,
  nonce: ArrayBuffer | undefined,
  withCertificates: boolean,
  genTime: Date,
) {
  const tstInfo = encode(
    new TSTInfo({
      version: 1,
      policy,
      messageImprint: imprint,
      // Unique without a counter shared between instances: 126 random bits.
      serialNumber: randomInteger(16),
      genTime,
      accuracy: new Accuracy({ seconds: 1 }),
      nonce,
    }),
  );
  return signData({
    contentType: id_ct_tstInfo,
    content: tstInfo,
    contentDigest: digest('sha256', tstInfo),
    signer: { certificate, sign },
    // RFC 3161 2.4.1: the certificates only when the request asks for them (certReq).
    certificates: withCertificates ? [certificate, ...chain] : [],
  });
}

/** The embedded TSA's timeStamp, on the codec thread: a token over the SHA-256 digest `hashed`. */
export async function issueTimeStampToken(
  input: Authority & { hashed: Uint8Array; genTime: Date },
  { sign }: { sign: SignFunction },
): Promise<Uint8Array> {
  const imprint = new MessageImprint({
    hashAlgorithm: sha256Identifier(),
    hashedMessage: new OctetString(input.hashed),
  });
  const token = await issue(input, sign, imprint, undefined, true, input.genTime);
  await yieldToEventLoop();
  return encode(token);
}

/**
 * The embedded TSA's answer, on the codec thread. `request` is null for one too long to read; `usable`
 * says that the TSA's certificate is valid at `genTime`.
 */
export async function answerTimeStampRequest(
  input: Authority & { request: Uint8Array | null; genTime: Date; usable: boolean },
  { sign }: { sign: SignFunction },
): Promise<Uint8Array> {
  const { request: requestDer, policy } = input;
  if (requestDer === null) return rejection('badDataFormat', 'The request is too long');
  let request: TimeStampReq;
  try {
    request = decode(requestDer, TimeStampReq);
  } catch {
    return rejection('badDataFormat', 'The request is not an RFC 3161 TimeStampReq');
  }
  if (request.version !== 1) return rejection('badDataFormat', 'Only version 1 requests are supported');
  const hash = digestName(request.messageImprint.hashAlgorithm.algorithm);
  // SHA-1 no longer protects against collisions: a token over one would vouch for two documents.
  if (!hash || hash === 'sha1') {
    return rejection('badAlg', 'The message imprint must be a SHA-256, SHA-384 or SHA-512 digest');
  }
  if (request.messageImprint.hashedMessage.byteLength !== DIGEST_LENGTHS[hash]) {
    return rejection('badDataFormat', `The message imprint is not a ${hash} digest`);
  }
  if (request.reqPolicy !== undefined && dottedOid(request.reqPolicy) !== policy) {
    return rejection('unacceptedPolicy', `This TSA time-stamps under policy ${policy} only`);
  }
  if ((request.extensions?.length ?? 0) > 0) {
    return rejection('unacceptedExtension', 'This TSA supports no request extensions');
  }
  if (!input.usable) return rejection('systemFailure', 'The TSA cannot time-stamp now');
  const token = await issue(
    input,
    sign,
    request.messageImprint,
    request.nonce,
    request.certReq,
    input.genTime,
  );
  await yieldToEventLoop();
  return encode(
    new TimeStampRespWithToken({
      status: new PKIStatusInfo({ status: PKIStatus.granted }),
      timeStampToken: token,
    }),
  );
}

export type TimeStampTokenInfo = {
  genTime: Date;
  /** Upper-case hex. */
  serialNumber: string;
  policy: string;
  messageImprint: { hashAlgorithm: string; digest: Uint8Array };
  accuracy?: { seconds?: number; millis?: number; micros?: number };
  /** Upper-case hex, when the request had one. */
  nonce?: string;
  /** The certificates the token carries (the TSA's first, when it was asked for). */
  certificates: Uint8Array[];
  /** The TSA's certificate, found among them by the SignerInfo's identifier. */
  signerCertificate?: Uint8Array;
};

/** Reads a TimeStampToken (ContentInfo DER). Throws for anything else; checks no signature. */
export function readTimeStampToken(der: Uint8Array): TimeStampTokenInfo {
  return tokenInfo(readSignedData(der));
}

/** readTimeStampToken on the codec thread (codec.ts), for the signing path. */
export function readTimeStampTokenOffThread(der: Uint8Array): Promise<TimeStampTokenInfo> {
  return offThread('read-time-stamp-token', der, undefined);
}

/** readTimeStampToken as a codec operation. */
export async function readTimeStampTokenOperation(der: Uint8Array): Promise<TimeStampTokenInfo> {
  return readTimeStampToken(der);
}

function tokenInfo(view: SignedDataView): TimeStampTokenInfo {
  if (view.contentType !== id_ct_tstInfo || !view.content) throw new Error('Not a time-stamp token');
  const info = decode(view.content, TSTInfo);
  return {
    genTime: info.genTime,
    serialNumber: integerHex(info.serialNumber),
    policy: dottedOid(info.policy),
    messageImprint: {
      hashAlgorithm: info.messageImprint.hashAlgorithm.algorithm,
      digest: bytes(info.messageImprint.hashedMessage.buffer),
    },
    accuracy: info.accuracy
      ? { seconds: info.accuracy.seconds, millis: info.accuracy.millis, micros: info.accuracy.micros }
      : undefined,
    nonce: info.nonce ? integerHex(info.nonce) : undefined,
    certificates: view.certificates,
    signerCertificate: view.signers[0]?.certificate,
  };
}

/**
 * Checks that a token is one: its signature verifies with the TSA certificate it carries, that certificate
 * is for time-stamping, and the token is over `expectedDigest` (SHA-256). Whether the TSA is to be trusted
 * is the caller's chain check. Answers the token's contents; throws an Error saying what is wrong.
 */
export async function checkTimeStampToken(
  der: Uint8Array,
  expectedDigest: Uint8Array,
): Promise<TimeStampTokenInfo> {
  const view = readSignedData(der);
  const info = tokenInfo(view);
  if (info.messageImprint.hashAlgorithm !== OID.sha256)
    throw new Error('the token is not over a SHA-256 digest');
  if (!Buffer.from(info.messageImprint.digest).equals(Buffer.from(expectedDigest))) {
    throw new Error('the token is over other data (its message imprint differs)');
  }
  const check = await checkSignedData(view);
  if (!check.valid) throw new Error(`the token's signature does not check out: ${check.reason}`);
  if (!extendedKeyUsages(readCertificate(check.signerCertificate)).includes(id_kp_timeStamping)) {
    throw new Error("the token's signer is not a time-stamping certificate");
  }
  return info;
}

export type RemoteTsaOptions = {
  /** The TSA's RFC 3161 HTTP URL (PARAPH_TSA_URL). */
  url: string;
  /** For the whole exchange. */
  timeoutMs: number;
  fetch?: Fetch;
};

/**
 * A TimeStamper asking a remote TSA over HTTP (RFC 3161 3.4), with a nonce and certReq. Every failure (no
 * answer in time, an HTTP error, a rejection, a token that is not for this request or does not verify) is
 * a TimeStampUnavailableError.
 */
export function remoteTsa({ url, timeoutMs, fetch }: RemoteTsaOptions): TimeStamper {
  return {
    async timeStamp(hashed) {
      if (hashed.length !== DIGEST_LENGTHS.sha256) throw new Error('Time-stamp a SHA-256 digest');
      const nonce = randomInteger(8);
      const request = encode(
        new TimeStampReq({
          version: 1,
          messageImprint: new MessageImprint({
            hashAlgorithm: new AlgorithmIdentifier({ algorithm: OID.sha256 }),
            hashedMessage: new OctetString(hashed),
          }),
          nonce,
          certReq: true,
        }),
      );
      const unavailable = (detail: string, cause?: unknown) =>
        new TimeStampUnavailableError(detail, { service: url, cause });

      let answer: Uint8Array;
      try {
        answer = await postDer({
          url,
          body: request,
          contentType: 'application/timestamp-query',
          accept: 'application/timestamp-reply',
          timeoutMs,
          fetch,
        });
      } catch (error) {
        throw unavailable(error instanceof Error ? error.message : String(error), error);
      }
      let response: RawTimeStampResp;
      try {
        response = decode(answer, RawTimeStampResp);
      } catch (error) {
        throw unavailable('the answer is not an RFC 3161 TimeStampResp', error);
      }
      const { status, statusString, failInfo } = response.status;
      if (status !== PKIStatus.granted && status !== PKIStatus.grantedWithMods) {
        const why = [...(statusString ?? [])].join('; ');
        const failure = failInfo ? ` (${failureNames(failInfo).join(', ') || 'no failure named'})` : '';
        throw unavailable(
          `the request was rejected, status ${PKIStatus[status] ?? status}${failure}${why ? `: ${why}` : ''}`,
        );
      }
      if (!response.timeStampToken) throw unavailable('the answer grants a token but carries none');
      const token = bytes(response.timeStampToken);
      let info: TimeStampTokenInfo;
      try {
        info = await checkTimeStampToken(token, hashed);
      } catch (error) {
        throw unavailable(error instanceof Error ? error.message : 'the token is unreadable', error);
      }
      if (info.nonce !== integerHex(nonce))
        throw unavailable('the token does not answer this request (nonce)');
      return token;
    },
  };
}
