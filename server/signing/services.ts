// The deployment's signing services over its PKI (./ca/): the time-stamping authority (the embedded one
// under the deployment's CA, or PARAPH_TSA_URL's), the OCSP responder for the CA's certificates, and the
// CA's CRL. The signer uses them in process; the /pki/* routes answer relying parties with the same ones.
import type { Config } from '../config.ts';
import type { DeploymentPki } from './ca/index.ts';
import { buildCrl } from './pki/crl.ts';
import { ocspResponder, type OcspResponder } from './pki/ocsp.ts';
import { embeddedTsa, remoteTsa, type EmbeddedTsa, type TimeStamper } from './pki/tsa.ts';

// A response proves the status at signing time; a relying party asking later gets a fresh one.
const OCSP_VALIDITY_MS = 24 * 3600 * 1000;
// A CRL is made again after a revocation, and at least this often.
const CRL_VALIDITY_MS = 7 * 24 * 3600 * 1000;
// How long a signature waits for a remote time-stamping authority.
const REMOTE_TSA_TIMEOUT_MS = 10_000;

export type SigningServices = {
  /** The TSA signatures and document time-stamps use. */
  timeStamper: TimeStamper;
  /** The embedded TSA (for /pki/tsa), or null when PARAPH_TSA_URL names another. */
  embeddedTsa: EmbeddedTsa | null;
  ocsp: OcspResponder;
  /** The CA's current CRL (DER). */
  crl(): Promise<Uint8Array>;
};

export function signingServices(
  pki: DeploymentPki,
  config: Pick<Config, 'tsaUrl'>,
  clock: () => Date,
): SigningServices {
  // The TSA's and the responder's keys renew themselves in the background: each use takes the current
  // key, and what is built over a key is kept while that key is current.
  const current = <K, V>(read: () => K, build: (key: K) => V): (() => V) => {
    let made: { key: K; value: V } | null = null;
    return () => {
      const key = read();
      if (made?.key !== key) made = { key, value: build(key) };
      return made.value;
    };
  };
  const tsa = current(
    () => pki.tsa,
    (key) => embeddedTsa({ ...key, clock }),
  );
  const responder = current(
    () => pki.ocspResponder,
    (key) =>
      ocspResponder({
        issuerCertificate: pki.ca.certificate,
        responderCertificate: key.certificate,
        responderKey: key.privateKey,
        status: (serialNumber) => pki.certificateStatus(serialNumber),
        clock,
        validityMs: OCSP_VALIDITY_MS,
      }),
  );
  const embedded: EmbeddedTsa = {
    get policy() {
      return tsa().policy;
    },
    timeStamp: (digest) => tsa().timeStamp(digest),
    answer: (request) => tsa().answer(request),
  };
  let crl: { der: Uint8Array; revoked: string; until: number } | null = null;
  return {
    timeStamper:
      config.tsaUrl === null ? embedded : remoteTsa({ url: config.tsaUrl, timeoutMs: REMOTE_TSA_TIMEOUT_MS }),
    embeddedTsa: config.tsaUrl === null ? embedded : null,
    ocsp: {
      answer: (request) => responder().answer(request),
      responseFor: (certificate) => responder().responseFor(certificate),
    },
    async crl() {
      const revoked = await pki.revokedCertificates();
      const key = JSON.stringify(revoked);
      const now = clock();
      // Made once per change of the list (a large CRL costs real CPU), and again before it goes stale.
      if (crl === null || crl.revoked !== key || crl.until <= now.getTime() + CRL_VALIDITY_MS / 2) {
        const der = await buildCrl({
          issuerCertificate: pki.ca.certificate,
          issuerKey: pki.ca.privateKey,
          revoked,
          thisUpdate: now,
          nextUpdate: new Date(now.getTime() + CRL_VALIDITY_MS),
          crlNumber: BigInt(now.getTime()),
        });
        crl = { der, revoked: key, until: now.getTime() + CRL_VALIDITY_MS };
      }
      return crl.der;
    },
  };
}
