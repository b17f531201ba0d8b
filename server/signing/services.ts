// The deployment's signing services over its PKI (./ca/): the time-stamping authority (the embedded one
// under the deployment's CA, or PARAPH_TSA_URL's), the OCSP responder for the CA's certificates, and the
// CA's CRL. The signer uses them in process; the /pki/* routes answer relying parties with the same ones.
// A remote TSA's certificate comes from another CA: its OCSP answer is fetched from the responder its
// certificate names, and kept for every signature until its nextUpdate.
import { createHash, X509Certificate } from 'node:crypto';
import type { Config } from '../config.ts';
import type { DeploymentPki, PkiLog } from './ca/index.ts';
import { ocspUrls, readCertificate } from './pki/certificates.ts';
import { buildCrl } from './pki/crl.ts';
import type { Fetch } from './pki/http.ts';
import {
  fetchOcspResponse,
  ocspResponder,
  type FetchedOcspResponse,
  type OcspCache,
  type OcspResponder,
} from './pki/ocsp.ts';
import { embeddedTsa, remoteTsa, type EmbeddedTsa, type TimeStamper } from './pki/tsa.ts';

// A response proves the status at signing time; a relying party asking later gets a fresh one.
const OCSP_VALIDITY_MS = 24 * 3600 * 1000;
// A CRL is made again after a revocation, and at least this often.
const CRL_VALIDITY_MS = 7 * 24 * 3600 * 1000;
// How long a signature waits for a remote time-stamping authority, or for another CA's OCSP responder.
export const REMOTE_SERVICE_TIMEOUT_MS = 10_000;
// Other CAs' OCSP answers kept at once: a remote TSA has a certificate or two a year.
const OCSP_CACHE_ENTRIES = 64;

export type SigningServicesOptions = {
  /** How long a signature waits for a remote TSA or another CA's OCSP responder (10 s unless given). */
  remoteTimeoutMs?: number;
  /** For the requests to remote services (tests). */
  fetch?: Fetch;
  /** Says when a remote TSA's certificate can be given no revocation data. */
  log?: Pick<PkiLog, 'warn'>;
};

export type SigningServices = {
  /** The TSA signatures and document time-stamps use. */
  timeStamper: TimeStamper;
  /** The embedded TSA (for /pki/tsa), or null when PARAPH_TSA_URL names another. */
  embeddedTsa: EmbeddedTsa | null;
  ocsp: OcspResponder;
  /** The CA's current CRL (DER). */
  crl(): Promise<Uint8Array>;
  /**
   * A checked OCSP answer for a certificate another CA issued (a remote TSA's), its issuer found among
   * `pool` (the certificates that came with it): from the cache, else from the responder its authority
   * information access names. Null, and a warning once per certificate, when it names no responder or its
   * issuer is not in `pool`. Throws RevocationUnavailableError when the responder gives no usable answer.
   */
  externalOcsp(certificate: Uint8Array, pool: readonly Uint8Array[]): Promise<FetchedOcspResponse | null>;
};

/** Other CAs' OCSP answers in memory, each until its nextUpdate; the soonest to expire goes first when full. */
export function memoryOcspCache(clock: () => Date, capacity = OCSP_CACHE_ENTRIES): OcspCache {
  const entries = new Map<string, { der: Uint8Array; until: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return null;
      if (entry.until <= clock().getTime()) {
        entries.delete(key);
        return null;
      }
      return entry.der;
    },
    async set(key, der, until) {
      const now = clock().getTime();
      for (const [name, entry] of entries) if (entry.until <= now) entries.delete(name);
      entries.delete(key);
      if (entries.size >= capacity) {
        const [soonest] = [...entries].sort(([, a], [, b]) => a.until - b.until)[0] ?? [];
        if (soonest !== undefined) entries.delete(soonest);
      }
      entries.set(key, { der, until: until.getTime() });
    },
  };
}

const fingerprint = (der: Uint8Array): string => createHash('sha256').update(der).digest('hex');

export function signingServices(
  pki: DeploymentPki,
  config: Pick<Config, 'tsaUrl'>,
  clock: () => Date,
  options: SigningServicesOptions = {},
): SigningServices {
  const timeoutMs = options.remoteTimeoutMs ?? REMOTE_SERVICE_TIMEOUT_MS;
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
  const ocspCache = memoryOcspCache(clock);
  // Signatures at the same moment share one request to the responder.
  const fetching = new Map<string, Promise<FetchedOcspResponse>>();
  const warned = new Set<string>();
  const warnOnce = (certificate: Uint8Array, details: Record<string, unknown>, message: string) => {
    const key = `${fingerprint(certificate)}:${message}`;
    if (warned.has(key)) return;
    warned.add(key);
    options.log?.warn(details, message);
  };
  return {
    timeStamper:
      config.tsaUrl === null
        ? embedded
        : remoteTsa({
            url: config.tsaUrl,
            timeoutMs,
            ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
          }),
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
    async externalOcsp(certificate, pool) {
      const subject = new X509Certificate(certificate);
      const issuer = pool.find((candidate) => {
        const x509 = new X509Certificate(candidate);
        return subject.checkIssued(x509) && subject.verify(x509.publicKey);
      });
      const details = { subject: subject.subject, serialNumber: subject.serialNumber };
      if (issuer === undefined) {
        warnOnce(
          certificate,
          details,
          'a certificate of another CA came without its issuer: no revocation data for it',
        );
        return null;
      }
      // crl.ts makes CRLs but fetches none: a certificate with only a CRL distribution point gets nothing.
      if (ocspUrls(readCertificate(certificate)).length === 0) {
        warnOnce(
          certificate,
          details,
          'a certificate of another CA names no OCSP responder: no revocation data for it',
        );
        return null;
      }
      const key = fingerprint(certificate);
      let answer = fetching.get(key);
      if (answer === undefined) {
        answer = fetchOcspResponse({
          certificate,
          issuer,
          timeoutMs,
          cache: ocspCache,
          clock,
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        }).finally(() => fetching.delete(key));
        fetching.set(key, answer);
      }
      return answer;
    },
  };
}
