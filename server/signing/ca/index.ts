// The deployment's PKI: one certificate authority for every instance, kept in the database (sealed under
// PARAPH_CA_PASSPHRASE) or given as files (PARAPH_CA_CERT, PARAPH_CA_KEY); under it the time-stamping
// authority's and the OCSP responder's certificates and one signing certificate per person, all in the
// database; and what was revoked. The CA earlier versions made in a data folder is moved in on the first
// start after the upgrade, with the certificates it issued, so that earlier signatures keep verifying.
// Private keys are decrypted once per process and kept; what is current is read from the database, so an
// instance never signs with a certificate another instance replaced.
import { X509Certificate, type KeyObject } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database, PkiRole } from '../../db/schema.ts';
import type { CertificateStatus, CertifiedKey, RevocationReason, RevokedCertificate } from '../pki/types.ts';
import {
  caFingerprint,
  claimDeploymentCa,
  recordedCaFingerprint,
  SigningCaMismatchError,
} from './fingerprint.ts';
import { readGivenCa } from './files.ts';
import {
  CA_KEY_BITS,
  generateRsaKey,
  issueCaCertificate,
  issueOcspResponderCertificate,
  issueSignerCertificate,
  issueTsaCertificate,
  KEY_BITS,
  prepareIssuer,
  signerCommonName,
  type SignerSubject,
} from './issue.ts';
import { hasKeyring, keyLabel, Keyring, openKeyring, WrongPassphraseError, writeKeyring } from './keyring.ts';
import {
  markSignersMoved,
  readLegacyCa,
  readLegacySigners,
  wereSignersMoved,
  type LegacyCa,
} from './legacy.ts';
import { resolvePassphrase } from './passphrase.ts';
import {
  certificateStatus,
  currentKeyRow,
  currentSignerRow,
  certificateFacts,
  subjectNames,
  fromBase64,
  importSigner,
  putCurrentKey,
  putCurrentSigner,
  retireCurrentKeys,
  revokeCertificate,
  revokedCertificates,
  toBase64,
  type PkiKeyRow,
  type RevokeOutcome,
  type SignerRow,
} from './store.ts';

export type { SignerSubject } from './issue.ts';
export type { RevokeOutcome } from './store.ts';
export { caFingerprint, SigningCaMismatchError } from './fingerprint.ts';
export { WrongPassphraseError } from './keyring.ts';
export { PassphraseRequiredError } from './passphrase.ts';
export { CaFilesError } from './files.ts';

/** Where the deployment's CA comes from, for `npm run ca -- show`. */
export type CaSource =
  | { kind: 'database'; origin: 'generated' | 'data-folder'; since: Date }
  | { kind: 'files'; location: string };

export type DeploymentPki = {
  /** The CA: chain is [] for a self-signed root, or the chain given with PARAPH_CA_CERT. */
  ca: CertifiedKey;
  /** The time-stamping authority's key; renewed in the background as it nears its end. */
  readonly tsa: CertifiedKey;
  /** The OCSP responder's key (a year's certificate); renewed in the background as it nears its end. */
  readonly ocspResponder: CertifiedKey;
  /** The root certificates relying parties trust: the CA itself, or the top of the given chain. */
  trustAnchors: Uint8Array[];
  caSource: CaSource;
  /** SHA-256 of the CA certificate, as openssl prints it. */
  caFingerprint: string;
  /**
   * The person's current key and certificate when it still names them, comes from this CA and is valid
   * for 30 more days; otherwise a new one, and the one it replaces is revoked as superseded.
   */
  signerKey(subject: SignerSubject, now: Date): Promise<CertifiedKey>;
  /** good for a certificate this CA issued, revoked with time and reason, unknown for any other serial. */
  certificateStatus(serialNumber: string): Promise<CertificateStatus>;
  revokedCertificates(): Promise<RevokedCertificate[]>;
  revoke(serialNumber: string, reason: RevocationReason, at: Date): Promise<RevokeOutcome>;
};

export type PkiLog = {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
};

export type PkiConfig = Pick<
  Config,
  'dataDir' | 'databaseUrl' | 'publicOrigin' | 'caPassphrase' | 'caFiles' | 'replaceSigningCa'
>;

export type LoadPkiOptions = {
  db: Kysely<Database>;
  // Read when a certificate is made, not copied: main.ts sets the real port into publicOrigin once listening.
  config: PkiConfig;
  clock: () => Date;
  log: PkiLog;
  // Where new RSA keys come from: generated, unless a test process hands out keys it generated before
  // (tests/api/key-pool.ts), making a key being the largest cost of a test that signs.
  generateKey?: (bits: number) => Promise<KeyObject>;
};

const DAY_MS = 24 * 3600 * 1000;
// A person's certificate is replaced when it has less than this left (the plan's 30 days).
const SIGNER_RENEW_MS = 30 * DAY_MS;
// The TSA's and the OCSP responder's: replaced at start when less is left; while running, at half of it.
const ROLE_RENEW_MS = 60 * DAY_MS;
// Decrypted signer keys kept per process.
const SIGNER_CACHE_SIZE = 1000;
// Tries at replacing a current row that other processes are replacing at the same moment.
const RACE_ATTEMPTS = 5;

export class DeploymentCaMissingError extends Error {
  constructor(recorded: string, dataDir: string) {
    super(
      `The deployment's signing CA (SHA-256 ${recorded}) is not in the database yet, and this instance's ` +
        `data folder does not hold it. Start first an instance whose data folder holds it (<data folder>/ca/), ` +
        `or copy that folder to ${dataDir}/ca/, so that it is moved into the database; if it is lost for ` +
        'good, start once with PARAPH_REPLACE_SIGNING_CA=1 to make a new one',
    );
    this.name = 'DeploymentCaMissingError';
  }
}

const isSelfSigned = (x509: X509Certificate): boolean =>
  x509.checkIssued(x509) && x509.verify(x509.publicKey);

type LoadedCa = {
  key: CertifiedKey;
  source: CaSource;
  trustAnchors: Uint8Array[];
};

class Loader {
  private readonly options: LoadPkiOptions;
  private readonly keyring: Keyring;

  constructor(options: LoadPkiOptions, keyring: Keyring) {
    this.options = options;
    this.keyring = keyring;
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private get log(): PkiLog {
    return this.options.log;
  }

  private generateKey(bits: number): Promise<KeyObject> {
    return (this.options.generateKey ?? generateRsaKey)(bits);
  }

  private get now(): Date {
    return this.options.clock();
  }

  async databaseCa(recorded: string | null, legacy: LegacyCa | null, replace: boolean): Promise<LoadedCa> {
    const existing = await currentKeyRow(this.db, 'ca');
    if (existing !== null) return this.openedCa(existing);

    const { config } = this.options;
    let privateKey;
    let certificate: Uint8Array;
    let origin: 'generated' | 'data-folder';
    if (legacy !== null) {
      const fingerprint = caFingerprint(legacy.certificate);
      if (recorded !== null && recorded !== fingerprint && !replace) {
        throw new SigningCaMismatchError(recorded, fingerprint, legacy.directory);
      }
      ({ privateKey, certificate } = legacy);
      origin = 'data-folder';
    } else {
      if (recorded !== null && !replace) throw new DeploymentCaMissingError(recorded, config.dataDir);
      privateKey = await this.generateKey(CA_KEY_BITS);
      certificate = await issueCaCertificate(privateKey, {
        now: this.now,
        publicOrigin: config.publicOrigin,
      });
      origin = 'generated';
    }
    const described = certificateFacts(certificate);
    const row: PkiKeyRow = {
      serial_number: described.serialNumber,
      role: 'ca',
      current_role: 'ca',
      issuer_sha256: caFingerprint(certificate),
      source: origin,
      public_origin: null,
      certificate: toBase64(certificate),
      private_key: await this.keyring.sealKey(privateKey, keyLabel(described.serialNumber)),
      not_before: described.notBefore,
      not_after: described.notAfter,
      created_at: this.now.toISOString(),
      revoked_at: null,
      revocation_reason: null,
    };
    // Of instances starting at once on a fresh database, one insert takes the role; the others use its CA.
    if (await putCurrentKey(this.db, row, null)) {
      this.log.info(
        { fingerprint: row.issuer_sha256, ...(legacy === null ? {} : { from: legacy.directory }) },
        origin === 'generated'
          ? "made the deployment's signing CA; it is kept in the database"
          : "moved this data folder's signing CA into the database: it is the deployment's CA from now on",
      );
      return this.loaded(privateKey, certificate, row);
    }
    const winner = await currentKeyRow(this.db, 'ca');
    if (winner === null)
      throw new Error("The deployment's CA was replaced while this instance started: start it again");
    return this.openedCa(winner);
  }

  private async openedCa(row: PkiKeyRow): Promise<LoadedCa> {
    const privateKey = await this.keyring.openKey(row.private_key, keyLabel(row.serial_number));
    return this.loaded(privateKey, fromBase64(row.certificate), row);
  }

  private loaded(privateKey: CertifiedKey['privateKey'], certificate: Uint8Array, row: PkiKeyRow): LoadedCa {
    return {
      key: { privateKey, certificate, chain: [] },
      source: {
        kind: 'database',
        origin: row.source,
        since: new Date(row.created_at),
      },
      trustAnchors: [certificate],
    };
  }

  /** The current key of a role, issued anew when missing, from another CA, for another origin or ending. */
  async roleKey(role: Exclude<PkiRole, 'ca'>, ca: CertifiedKey, fingerprint: string): Promise<RoleKeyState> {
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt += 1) {
      const now = this.now;
      const row = await currentKeyRow(this.db, role);
      if (
        row !== null &&
        row.issuer_sha256 === fingerprint &&
        row.public_origin === this.options.config.publicOrigin &&
        new Date(row.not_after).getTime() - now.getTime() > ROLE_RENEW_MS
      ) {
        return {
          key: {
            privateKey: await this.keyring.openKey(row.private_key, keyLabel(row.serial_number)),
            certificate: fromBase64(row.certificate),
            chain: [ca.certificate, ...ca.chain],
          },
          serialNumber: row.serial_number,
          notAfter: new Date(row.not_after),
        };
      }
      const privateKey = await this.generateKey(KEY_BITS);
      const issueOptions = { now, publicOrigin: this.options.config.publicOrigin };
      const certificate =
        role === 'tsa'
          ? await issueTsaCertificate(privateKey, ca, issueOptions)
          : await issueOcspResponderCertificate(privateKey, ca, issueOptions);
      const described = certificateFacts(certificate);
      const fresh: PkiKeyRow = {
        serial_number: described.serialNumber,
        role,
        current_role: role,
        issuer_sha256: fingerprint,
        source: 'generated',
        public_origin: this.options.config.publicOrigin,
        certificate: toBase64(certificate),
        private_key: await this.keyring.sealKey(privateKey, keyLabel(described.serialNumber)),
        not_before: described.notBefore,
        not_after: described.notAfter,
        created_at: now.toISOString(),
        revoked_at: null,
        revocation_reason: null,
      };
      if (await putCurrentKey(this.db, fresh, row)) {
        this.log.info(
          { role, serialNumber: fresh.serial_number, notAfter: fresh.not_after },
          role === 'tsa'
            ? "issued the time-stamping authority's certificate"
            : "issued the OCSP responder's certificate",
        );
        return {
          key: { privateKey, certificate, chain: [ca.certificate, ...ca.chain] },
          serialNumber: fresh.serial_number,
          notAfter: new Date(fresh.not_after),
        };
      }
    }
    throw new Error(`The ${role} key kept being replaced by other instances while this one started`);
  }

  /** Moves the signer pairs of a data-folder CA in, when that CA is the deployment's. */
  async importLegacySigners(legacy: LegacyCa, fingerprint: string): Promise<void> {
    if (await wereSignersMoved(legacy.directory)) return;
    const { signers, skipped } = await readLegacySigners(legacy);
    let moved = 0;
    for (const signer of signers) {
      const described = { ...certificateFacts(signer.certificate), ...subjectNames(signer.certificate) };
      const user = await this.db
        .selectFrom('users')
        .select('id')
        .where((eb) =>
          eb.or([eb('id', '=', signer.fileBase), eb('email', '=', described.email.toLowerCase())]),
        )
        .orderBy((eb) => eb.case().when('id', '=', signer.fileBase).then(0).else(1).end())
        .executeTakeFirst();
      const row: SignerRow = {
        serial_number: described.serialNumber,
        user_id: user?.id ?? signer.fileBase,
        current_for: user?.id ?? null,
        full_name: described.commonName,
        email: described.email,
        issuer_sha256: fingerprint,
        public_origin: null,
        certificate: toBase64(signer.certificate),
        private_key: await this.keyring.sealKey(signer.privateKey, keyLabel(described.serialNumber)),
        not_before: described.notBefore,
        not_after: described.notAfter,
        created_at: this.now.toISOString(),
        revoked_at: null,
        revocation_reason: null,
      };
      if (await importSigner(this.db, row)) moved += 1;
    }
    if (signers.length > 0 || skipped.length > 0) {
      this.log.info(
        { from: legacy.directory, moved, known: signers.length - moved, skipped },
        "moved the data folder's signer certificates into the database",
      );
    }
    await markSignersMoved(legacy.directory, this.now);
  }
}

type RoleKeyState = { key: CertifiedKey; serialNumber: string; notAfter: Date };

/**
 * A role's key as a property that never waits: the key in hand, with a renewal started in the background
 * once half of the renewal margin is left (a process that runs for months) or once it was revoked here.
 */
class RoleKeyHolder {
  private state: RoleKeyState;
  private readonly renew: () => Promise<RoleKeyState>;
  private readonly clock: () => Date;
  private readonly log: PkiLog;
  private readonly role: string;
  private renewing: Promise<void> | null = null;
  private isStale = false;

  constructor(
    state: RoleKeyState,
    renew: () => Promise<RoleKeyState>,
    clock: () => Date,
    log: PkiLog,
    role: string,
  ) {
    this.state = state;
    this.renew = renew;
    this.clock = clock;
    this.log = log;
    this.role = role;
  }

  get serialNumber(): string {
    return this.state.serialNumber;
  }

  markStale(): void {
    this.isStale = true;
    this.current();
  }

  current(): CertifiedKey {
    const left = this.state.notAfter.getTime() - this.clock().getTime();
    if ((this.isStale || left < ROLE_RENEW_MS / 2) && this.renewing === null) {
      this.renewing = this.renew()
        .then((next) => {
          this.state = next;
          this.isStale = false;
        })
        .catch((error: unknown) => {
          this.log.warn(
            { role: this.role, error: error instanceof Error ? error.message : String(error) },
            'the key could not be renewed; the current one is kept for now',
          );
        })
        .finally(() => {
          this.renewing = null;
        });
    }
    return this.state.key;
  }
}

/** An LRU of decrypted signer keys by serial. */
class SignerKeyCache {
  private readonly entries = new Map<string, CertifiedKey>();

  get(serialNumber: string): CertifiedKey | undefined {
    const key = this.entries.get(serialNumber);
    if (key !== undefined) {
      this.entries.delete(serialNumber);
      this.entries.set(serialNumber, key);
    }
    return key;
  }

  set(serialNumber: string, key: CertifiedKey): void {
    this.entries.set(serialNumber, key);
    if (this.entries.size > SIGNER_CACHE_SIZE) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  delete(serialNumber: string): void {
    this.entries.delete(serialNumber);
  }
}

export async function loadDeploymentPki(options: LoadPkiOptions): Promise<DeploymentPki> {
  const { db, config, clock, log } = options;
  const replace = config.replaceSigningCa;
  // Read first: a wrong file is told before anything is written.
  const given = config.caFiles === null ? null : await readGivenCa(config.caFiles, clock());
  const passphrase = await resolvePassphrase(config, log, () => hasKeyring(db));
  let keyring: Keyring;
  let didReplace = false;
  try {
    keyring = await openKeyring(
      db,
      passphrase.value,
      passphrase.source === 'generated' ? passphrase.file : 'PARAPH_CA_PASSPHRASE',
    );
  } catch (error) {
    if (!(error instanceof WrongPassphraseError) || !replace) throw error;
    // The passphrase is lost for good: nothing sealed under it can be opened again. The keys are retired
    // (their certificates' status stays answerable) and made anew under the new passphrase.
    const fresh = await Keyring.create(passphrase.value);
    await db.transaction().execute(async (trx) => {
      await writeKeyring(trx, fresh);
      await retireCurrentKeys(trx);
    });
    keyring = fresh;
    log.warn(
      {},
      'PARAPH_REPLACE_SIGNING_CA=1 with a passphrase that does not open the stored keys: they are retired, and the deployment gets new keys under this passphrase. Remove PARAPH_REPLACE_SIGNING_CA before the next start',
    );
    didReplace = true;
  }

  const loader = new Loader(options, keyring);
  const recorded = await recordedCaFingerprint(db);
  const legacy = await readLegacyCa(config.dataDir);
  let loaded: LoadedCa;
  if (given !== null) {
    const top = new X509Certificate(given.chain.at(-1) ?? given.certificate);
    if (!isSelfSigned(top)) {
      log.warn(
        { subject: top.subject.replaceAll('\n', ', ') },
        "PARAPH_CA_CERT's chain does not end at a self-signed root: its last certificate is taken as the trust anchor",
      );
    }
    loaded = {
      key: { privateKey: given.privateKey, certificate: given.certificate, chain: given.chain },
      source: { kind: 'files', location: given.location },
      trustAnchors: [top.raw],
    };
  } else {
    loaded = await loader.databaseCa(recorded, legacy, replace);
  }
  const ca = loaded.key;
  const fingerprint = caFingerprint(ca.certificate);
  const where = loaded.source.kind === 'files' ? loaded.source.location : 'the database';
  const outcome = await claimDeploymentCa(db, fingerprint, { replace, where });
  if (outcome === 'replaced') {
    log.warn(
      { fingerprint },
      'this CA now replaces the one recorded for the deployment; signatures made before chain to the old ' +
        'root. Remove PARAPH_REPLACE_SIGNING_CA before the next start',
    );
    didReplace = true;
  }
  if (replace && !didReplace) {
    // Left on, it would let another CA take over at any later start.
    log.warn(
      { fingerprint },
      'PARAPH_REPLACE_SIGNING_CA=1 found nothing to replace; remove it so that a stranger CA is refused again',
    );
  }

  if (legacy !== null) {
    const legacyFingerprint = caFingerprint(legacy.certificate);
    if (legacyFingerprint === fingerprint) {
      await loader.importLegacySigners(legacy, fingerprint);
    } else {
      log.warn(
        { directory: legacy.directory, dataFolderCa: legacyFingerprint, deploymentCa: fingerprint },
        `This instance's data folder holds a signing CA (${legacy.directory}) other than the deployment's: it is not used, and the certificates it issued are not moved into the database`,
      );
    }
  }

  prepareIssuer(ca, config.publicOrigin);
  const chain = [ca.certificate, ...ca.chain];
  const tsa = new RoleKeyHolder(
    await loader.roleKey('tsa', ca, fingerprint),
    () => loader.roleKey('tsa', ca, fingerprint),
    clock,
    log,
    'tsa',
  );
  const ocsp = new RoleKeyHolder(
    await loader.roleKey('ocsp', ca, fingerprint),
    () => loader.roleKey('ocsp', ca, fingerprint),
    clock,
    log,
    'ocsp',
  );
  const signerKeys = new SignerKeyCache();
  // Signatures of one person at once share one issuance instead of racing each other.
  const issuing = new Map<string, Promise<CertifiedKey>>();

  const fits = (row: SignerRow, subject: SignerSubject, now: Date): boolean =>
    row.issuer_sha256 === fingerprint &&
    row.revoked_at === null &&
    row.full_name === signerCommonName(subject) &&
    row.email === subject.email &&
    row.public_origin === config.publicOrigin &&
    new Date(row.not_before).getTime() <= now.getTime() &&
    new Date(row.not_after).getTime() - now.getTime() > SIGNER_RENEW_MS;

  const keyOf = async (row: SignerRow): Promise<CertifiedKey> => {
    const cached = signerKeys.get(row.serial_number);
    if (cached !== undefined) return cached;
    const key = {
      privateKey: await keyring.openKey(row.private_key, keyLabel(row.serial_number)),
      certificate: fromBase64(row.certificate),
      chain,
    };
    signerKeys.set(row.serial_number, key);
    return key;
  };

  const issueSigner = async (subject: SignerSubject, now: Date): Promise<CertifiedKey> => {
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt += 1) {
      const row = await currentSignerRow(db, subject.userId);
      if (row !== null && fits(row, subject, now)) return keyOf(row);
      const privateKey = await (options.generateKey ?? generateRsaKey)(KEY_BITS);
      const certificate = await issueSignerCertificate(privateKey, subject, ca, {
        now,
        publicOrigin: config.publicOrigin,
      });
      const described = certificateFacts(certificate);
      const fresh: SignerRow = {
        serial_number: described.serialNumber,
        user_id: subject.userId,
        current_for: subject.userId,
        full_name: signerCommonName(subject),
        email: subject.email,
        issuer_sha256: fingerprint,
        public_origin: config.publicOrigin,
        certificate: toBase64(certificate),
        private_key: await keyring.sealKey(privateKey, keyLabel(described.serialNumber)),
        not_before: described.notBefore,
        not_after: described.notAfter,
        created_at: now.toISOString(),
        revoked_at: null,
        revocation_reason: null,
      };
      if (await putCurrentSigner(db, fresh, row, now)) {
        if (row !== null) signerKeys.delete(row.serial_number);
        const key = { privateKey, certificate, chain };
        signerKeys.set(fresh.serial_number, key);
        return key;
      }
    }
    throw new Error("The person's signing certificate kept being replaced by other instances");
  };

  return {
    ca,
    get tsa() {
      return tsa.current();
    },
    get ocspResponder() {
      return ocsp.current();
    },
    trustAnchors: loaded.trustAnchors,
    caSource: loaded.source,
    caFingerprint: fingerprint,
    signerKey(subject, now) {
      const id = JSON.stringify([subject.userId, subject.fullName, subject.email]);
      const pending = issuing.get(id);
      if (pending !== undefined) return pending;
      const next = issueSigner(subject, now).finally(() => issuing.delete(id));
      issuing.set(id, next);
      return next;
    },
    certificateStatus: (serialNumber) => certificateStatus(db, fingerprint, serialNumber),
    revokedCertificates: () => revokedCertificates(db, fingerprint),
    async revoke(serialNumber, reason, at) {
      const outcome = await revokeCertificate(db, serialNumber, reason, at);
      if (outcome.kind === 'revoked') {
        signerKeys.delete(outcome.serialNumber);
        if (outcome.serialNumber === tsa.serialNumber) tsa.markStale();
        if (outcome.serialNumber === ocsp.serialNumber) ocsp.markStale();
      }
      return outcome;
    },
  };
}

/**
 * The deployment's PKI for a process: loaded at the first call (start-up checks it, so a wrong setting
 * stops the start), kept after; a failed load is tried again at the next call.
 */
export function lazyDeploymentPki(options: LoadPkiOptions): () => Promise<DeploymentPki> {
  let loading: Promise<DeploymentPki> | null = null;
  return () => {
    if (loading === null) {
      const attempt = loadDeploymentPki(options);
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = null;
      });
    }
    return loading;
  };
}
