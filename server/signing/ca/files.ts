// A CA the operator gives (PARAPH_CA_CERT, PARAPH_CA_KEY): how a deployment signs under a real CA, an
// intermediate of the organisation's own or one a trust service provider issued. The certificate value
// may carry the chain above it, issuer first; each setting is a file's path or the PEM text itself
// (secrets are often handed to containers as values). Every check that can fail is made here, at start,
// with a sentence saying which setting to correct.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate, KeyUsage, KeyUsageFlags, id_ce_keyUsage } from '@peculiar/asn1-x509';
import type { CaFiles } from '../../config.ts';

export type GivenCa = {
  privateKey: KeyObject;
  certificate: Uint8Array;
  // Issuer first, up to the root when given.
  chain: Uint8Array[];
  // What `npm run ca -- show` says of it: the certificate's file, or "PARAPH_CA_CERT" for a value.
  location: string;
};

export class CaFilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaFilesError';
  }
}

const isPem = (value: string): boolean => value.trimStart().startsWith('-----BEGIN');

async function readSetting(name: string, value: string): Promise<{ text: string; location: string }> {
  if (isPem(value)) return { text: value, location: name };
  try {
    return { text: await readFile(value, 'utf8'), location: value };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new CaFilesError(`${name} names a file that cannot be read (${value}: ${reason})`);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

function certificatesIn(text: string): Uint8Array[] {
  return [...text.matchAll(PEM_CERTIFICATE)].map((match) =>
    Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64'),
  );
}

function parseKey(text: string, passphrase: string | null): KeyObject {
  try {
    return createPrivateKey(passphrase === null ? { key: text } : { key: text, passphrase });
  } catch (error) {
    const encrypted = /ENCRYPTED/.test(text);
    if (encrypted && passphrase === null) {
      throw new CaFilesError('PARAPH_CA_KEY is encrypted: set PARAPH_CA_KEY_PASSPHRASE to its passphrase');
    }
    if (encrypted) throw new CaFilesError('PARAPH_CA_KEY_PASSPHRASE does not decrypt PARAPH_CA_KEY');
    const reason = error instanceof Error ? error.message : String(error);
    throw new CaFilesError(`PARAPH_CA_KEY is not a PEM private key (${reason})`);
  }
}

function allowsCertificateSigning(der: Uint8Array): boolean {
  const extension = AsnConvert.parse(der, Certificate).tbsCertificate.extensions?.find(
    (entry) => entry.extnID === id_ce_keyUsage,
  );
  if (extension === undefined) return true;
  return (AsnConvert.parse(extension.extnValue, KeyUsage).toNumber() & KeyUsageFlags.keyCertSign) !== 0;
}

export async function readGivenCa(files: CaFiles, now: Date): Promise<GivenCa> {
  const certificateSetting = await readSetting('PARAPH_CA_CERT', files.certificate);
  const keySetting = await readSetting('PARAPH_CA_KEY', files.key);
  const certificates = certificatesIn(certificateSetting.text);
  const [certificate, ...chain] = certificates;
  if (certificate === undefined) throw new CaFilesError('PARAPH_CA_CERT holds no PEM certificate');
  let parsed: X509Certificate[];
  try {
    parsed = certificates.map((der) => new X509Certificate(der));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CaFilesError(`PARAPH_CA_CERT holds a certificate that cannot be read (${reason})`);
  }
  const [x509] = parsed;
  if (x509 === undefined) throw new CaFilesError('PARAPH_CA_CERT holds no PEM certificate');
  const privateKey = parseKey(keySetting.text, files.keyPassphrase);
  if (privateKey.asymmetricKeyType !== 'rsa') {
    throw new CaFilesError(
      `PARAPH_CA_KEY must be an RSA key (it is ${privateKey.asymmetricKeyType ?? 'not'}): the deployment signs ` +
        'certificates and CRLs with RSA PKCS #1 v1.5 and SHA-256',
    );
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new CaFilesError("PARAPH_CA_KEY is not the key of PARAPH_CA_CERT's first certificate");
  }
  if (!x509.ca || !allowsCertificateSigning(certificate)) {
    throw new CaFilesError(
      `PARAPH_CA_CERT's first certificate (${x509.subject.replaceAll('\n', ', ')}) is not a CA: it must have ` +
        'basicConstraints CA:TRUE and, if it has a key usage, keyCertSign',
    );
  }
  const from = new Date(x509.validFrom);
  const to = new Date(x509.validTo);
  if (now.getTime() < from.getTime() || now.getTime() > to.getTime()) {
    throw new CaFilesError(
      `PARAPH_CA_CERT's certificate is valid from ${from.toISOString()} to ${to.toISOString()}, not now`,
    );
  }
  parsed.slice(1).forEach((issuer, index) => {
    const below = parsed[index];
    if (below === undefined || !below.checkIssued(issuer) || !below.verify(issuer.publicKey)) {
      throw new CaFilesError(
        `PARAPH_CA_CERT's certificate ${index + 2} did not issue the one before it: give the chain issuer ` +
          'first, from the CA up to the root',
      );
    }
  });
  return { privateKey, certificate, chain, location: certificateSetting.location };
}
