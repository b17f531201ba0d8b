// X.509 v2 CRLs (RFC 5280 5): the deployment CA's list of revoked certificates, served at /pki/crl and kept
// in PDFs' DSS; and reading one back.
import { OctetString } from '@peculiar/asn1-schema';
import {
  AuthorityKeyIdentifier,
  CRLReason,
  CertificateList,
  Extension,
  KeyIdentifier,
  RevokedCertificate as CrlEntry,
  TBSCertList,
  Time,
  Version,
  id_ce_authorityKeyIdentifier,
  id_ce_cRLNumber,
  id_ce_cRLReasons,
} from '@peculiar/asn1-x509';
import type { KeyObject } from 'node:crypto';
import type { RevocationReason, RevokedCertificate } from './types.ts';
import {
  CrlNumber,
  SignedCertificateList,
  arrayBuffer,
  bytes,
  crlReason,
  decode,
  encode,
  hexInteger,
  integerHex,
  revocationReason,
  yieldToEventLoop,
} from './asn1.ts';
import { keyIdentifier, readCertificate } from './certificates.ts';
import { OID, assertKeyMatches, rsaIdentifier, signSha256Rsa } from './crypto.ts';

export type CrlOptions = {
  issuerCertificate: Uint8Array;
  issuerKey: KeyObject;
  revoked: readonly RevokedCertificate[];
  thisUpdate: Date;
  nextUpdate: Date;
  /** Increases with every CRL the CA issues (RFC 5280 5.2.3). */
  crlNumber: bigint;
};

const extension = (extnID: string, value: Uint8Array): Extension =>
  new Extension({ extnID, extnValue: new OctetString(value) });

function reasonExtension(reason: RevocationReason): Extension | undefined {
  const code = crlReason(reason);
  return code ? extension(id_ce_cRLReasons, encode(code)) : undefined;
}

/**
 * A DER CRL, v2, signed by the issuer (RSA PKCS #1 v1.5, SHA-256), with CRL number and authority key identifier,
 * and each entry's reason code (none for 'unspecified', RFC 5280 5.3.1).
 *
 * Writing it is synchronous work in proportion to the number of entries (asn1-schema): a few milliseconds
 * for tens of entries, tenths of a second for a thousand. Build it when revocations change, not per request.
 */
export async function buildCrl(options: CrlOptions): Promise<Uint8Array> {
  const { issuerCertificate, issuerKey, revoked, crlNumber } = options;
  if (crlNumber < 0n) throw new Error('A CRL number is not negative');
  if (options.nextUpdate <= options.thisUpdate)
    throw new Error("A CRL's nextUpdate comes after its thisUpdate");
  assertKeyMatches(issuerKey, issuerCertificate, 'CRL issuer');
  const issuer = readCertificate(issuerCertificate);
  const entries = revoked.map((entry) => {
    // RFC 5280 5.3.1: removeFromCRL only appears in delta CRLs; a full CRL leaves the certificate out.
    if (entry.reason === 'removeFromCRL') {
      throw new Error(`Certificate ${entry.serialNumber}: removeFromCRL belongs in delta CRLs, leave it out`);
    }
    const reason = reasonExtension(entry.reason);
    return new CrlEntry({
      userCertificate: hexInteger(entry.serialNumber),
      revocationDate: new Time(entry.revokedAt),
      crlEntryExtensions: reason ? [reason] : undefined,
    });
  });
  const tbs = new TBSCertList({
    version: Version.v2,
    signature: rsaIdentifier(OID.sha256WithRSAEncryption),
    issuer: issuer.subject,
    thisUpdate: new Time(options.thisUpdate),
    nextUpdate: new Time(options.nextUpdate),
    // RFC 5280 5.1.2.6: no revoked certificates, no (empty) list.
    revokedCertificates: entries.length > 0 ? entries : undefined,
    crlExtensions: [
      extension(
        id_ce_authorityKeyIdentifier,
        encode(new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(keyIdentifier(issuer)) })),
      ),
      extension(id_ce_cRLNumber, encode(new CrlNumber(crlNumber))),
    ],
  });
  const tbsDer = encode(tbs);
  const signature = await signSha256Rsa(tbsDer, issuerKey);
  await yieldToEventLoop();
  return encode(
    new SignedCertificateList({
      tbsCertList: arrayBuffer(tbsDer),
      signatureAlgorithm: rsaIdentifier(OID.sha256WithRSAEncryption),
      signature: arrayBuffer(signature),
    }),
  );
}

export type CrlInfo = {
  /** The issuer's Name, DER. */
  issuer: Uint8Array;
  thisUpdate: Date;
  nextUpdate?: Date;
  crlNumber?: bigint;
  /** The authority key identifier's keyIdentifier. */
  authorityKeyIdentifier?: Uint8Array;
  revoked: RevokedCertificate[];
  signatureAlgorithm: string;
  signature: Uint8Array;
  /** The signed TBSCertList. */
  tbsCertList: Uint8Array;
};

/** Reads a DER CRL. Throws for anything else; checks no signature. */
export function readCrl(der: Uint8Array): CrlInfo {
  const list = decode(der, CertificateList);
  const tbs = list.tbsCertList;
  const value = (extensions: Extension[] | undefined, oid: string) => {
    const found = extensions?.find((item) => item.extnID === oid);
    return found ? bytes(found.extnValue.buffer) : undefined;
  };
  const number = value(tbs.crlExtensions, id_ce_cRLNumber);
  const aki = value(tbs.crlExtensions, id_ce_authorityKeyIdentifier);
  const akiKey = aki ? decode(aki, AuthorityKeyIdentifier).keyIdentifier : undefined;
  if (!list.tbsCertListRaw) throw new Error('Not a DER CRL');
  return {
    issuer: encode(tbs.issuer),
    thisUpdate: tbs.thisUpdate.getTime(),
    nextUpdate: tbs.nextUpdate?.getTime(),
    crlNumber: number ? decode(number, CrlNumber).value : undefined,
    authorityKeyIdentifier: akiKey ? bytes(akiKey.buffer) : undefined,
    revoked: (tbs.revokedCertificates ?? []).map((entry) => {
      const reason = value(entry.crlEntryExtensions, id_ce_cRLReasons);
      return {
        serialNumber: integerHex(entry.userCertificate),
        revokedAt: entry.revocationDate.getTime(),
        reason: revocationReason(reason ? decode(reason, CRLReason) : undefined),
      };
    }),
    signatureAlgorithm: list.signatureAlgorithm.algorithm,
    signature: bytes(list.signature),
    tbsCertList: bytes(list.tbsCertListRaw),
  };
}
