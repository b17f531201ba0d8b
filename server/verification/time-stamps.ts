// RFC 3161 time-stamp tokens: a signature's time-stamp (over its signature value, ETSI EN 319 122-1
// signature-time-stamp) and a document time-stamp (over a PDF's byte ranges, PAdES B-LTA). A token is
// valid when its own CMS verifies and digests its TSTInfo; its imprint must match what it stamps; its
// authority is trusted when the TSA's certificate chains to the trust list and is certified for
// time-stamping.
import { AsnConvert } from '@peculiar/asn1-schema';
import { TSTInfo } from '@peculiar/asn1-tsp';
import { digest, digestName } from './algorithms.ts';
import { bytesOf, OID } from './asn1.ts';
import {
  buildChain,
  describeGeneralName,
  hasExtendedKeyUsage,
  type Chain,
  type ParsedCertificate,
} from './certificates.ts';
import { checkSignedData, UnreadableCmsError, type CmsCheck } from './cms.ts';

export type TimeStampCheck = {
  cms: CmsCheck | null;
  genTime: Date | null;
  /** The TSA's name as the token gives it, or its certificate's subject. */
  authority: string | null;
  /** The token's own signature verifies and digests its TSTInfo. */
  isValid: boolean;
  /** The token stamps exactly what it should. */
  imprintMatches: boolean;
  /** The TSA's certificate chains to the trust list and is certified for time-stamping. */
  isTrusted: boolean;
  chain: Chain | null;
  isUnsupported: boolean;
};

const UNREADABLE: TimeStampCheck = {
  cms: null,
  genTime: null,
  authority: null,
  isValid: false,
  imprintMatches: false,
  isTrusted: false,
  chain: null,
  isUnsupported: false,
};

/** Checks the token `der` against the bytes it should stamp (`imprinted`, hashed as the token says). */
export async function checkTimeStampToken(
  der: Uint8Array,
  imprinted: readonly Uint8Array[],
  anchors: readonly ParsedCertificate[],
  pool: readonly ParsedCertificate[],
): Promise<TimeStampCheck> {
  let cms: CmsCheck;
  try {
    cms = await checkSignedData(der, { kind: 'encapsulated' });
  } catch (error) {
    if (error instanceof UnreadableCmsError) return UNREADABLE;
    throw error;
  }
  if (cms.signedData.encapContentInfo.eContentType !== OID.tstInfo || cms.encapsulatedContent === null) {
    return { ...UNREADABLE, cms };
  }
  let info: TSTInfo;
  try {
    info = AsnConvert.parse(cms.encapsulatedContent, TSTInfo);
  } catch {
    return { ...UNREADABLE, cms };
  }
  const hash = digestName(info.messageImprint.hashAlgorithm.algorithm);
  const imprintMatches =
    hash !== null && digest(hash, ...imprinted).equals(bytesOf(info.messageImprint.hashedMessage.buffer));
  const chain = cms.signer === null ? null : buildChain(cms.signer, [...cms.certificates, ...pool], anchors);
  const authority =
    (info.tsa === undefined ? null : describeGeneralName(info.tsa)) ?? cms.signer?.subject ?? null;
  return {
    cms,
    genTime: info.genTime,
    authority,
    isValid: cms.signatureVerifies && cms.digestMatches && cms.signingCertificateMatches,
    imprintMatches,
    isTrusted:
      chain?.status === 'trusted' && cms.signer !== null && hasExtendedKeyUsage(cms.signer, OID.timeStamping),
    chain,
    isUnsupported: cms.isUnsupported || hash === null,
  };
}
