// The CA earlier versions made in each data folder (<dataDir>/ca/ca-key.pem, ca-cert.pem) and the signer
// pairs they issued (<dataDir>/ca/signers/<user>.key.pem, .cert.pem). Read only to move them into the
// database on the first start after the upgrade, so that signatures made before keep chaining to the same
// root and their certificates are known to the OCSP responder. Nothing here writes to the folder but a
// marker saying its signers were moved, so that later starts skip reading them again.
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type LegacyCa = { privateKey: KeyObject; certificate: Uint8Array; directory: string };

export type LegacySigner = {
  // The file name's stem: the user id, or the SHA-256 of an id that was not safe as a file name.
  fileBase: string;
  privateKey: KeyObject;
  certificate: Uint8Array;
};

const MOVED_MARKER = 'moved-into-database';

export const legacyCaDirectory = (dataDir: string): string => path.join(dataDir, 'ca');

async function readPair(
  keyFile: string,
  certFile: string,
): Promise<{ privateKey: KeyObject; x509: X509Certificate } | null> {
  let keyPem: string;
  let certPem: string;
  try {
    [keyPem, certPem] = await Promise.all([readFile(keyFile, 'utf8'), readFile(certFile, 'utf8')]);
  } catch {
    return null;
  }
  try {
    const privateKey = createPrivateKey(keyPem);
    const x509 = new X509Certificate(certPem);
    return x509.checkPrivateKey(privateKey) ? { privateKey, x509 } : null;
  } catch {
    return null;
  }
}

/** The data folder's CA, when it holds a usable one (a certificate that is its key's). */
export async function readLegacyCa(dataDir: string): Promise<LegacyCa | null> {
  const directory = legacyCaDirectory(dataDir);
  const pair = await readPair(path.join(directory, 'ca-key.pem'), path.join(directory, 'ca-cert.pem'));
  return pair === null ? null : { privateKey: pair.privateKey, certificate: pair.x509.raw, directory };
}

export async function wereSignersMoved(directory: string): Promise<boolean> {
  try {
    await readFile(path.join(directory, MOVED_MARKER));
    return true;
  } catch {
    return false;
  }
}

export async function markSignersMoved(directory: string, at: Date): Promise<void> {
  // A read-only folder only means the next start reads the signers again (and finds them known).
  await writeFile(
    path.join(directory, MOVED_MARKER),
    `The CA and signer keys of this folder were moved into the database at ${at.toISOString()}.\n`,
  ).catch(() => undefined);
}

/** The signer pairs the CA issued; pairs that do not match, or another CA issued, are left out. */
export async function readLegacySigners(
  ca: LegacyCa,
): Promise<{ signers: LegacySigner[]; skipped: string[] }> {
  const directory = path.join(ca.directory, 'signers');
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return { signers: [], skipped: [] };
  }
  const issuer = new X509Certificate(ca.certificate);
  const signers: LegacySigner[] = [];
  const skipped: string[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.cert.pem')).sort()) {
    const fileBase = name.slice(0, -'.cert.pem'.length);
    const pair = await readPair(path.join(directory, `${fileBase}.key.pem`), path.join(directory, name));
    if (pair === null || !pair.x509.checkIssued(issuer) || !pair.x509.verify(issuer.publicKey)) {
      skipped.push(name);
      continue;
    }
    signers.push({ fileBase, privateKey: pair.privateKey, certificate: pair.x509.raw });
  }
  return { signers, skipped };
}

/** The file stem earlier versions gave a user id. */
export function legacyFileBase(userId: string): string {
  return /^[A-Za-z0-9_-]{1,100}$/.test(userId) ? userId : createHash('sha256').update(userId).digest('hex');
}
