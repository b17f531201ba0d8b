// The deployment's keys and people's certificates in the database (migration 0012). Rows are written
// insert-if-absent on a unique "current" column, so that processes issuing the same key at once end with
// one current row, and replaced by a conditional update, so that only one of them retires the old one.
import { X509Certificate } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import type { Kysely, Selectable } from 'kysely';
import type { Database, PkiKeysTable, PkiRole, SigningCertificatesTable } from '../../db/schema.ts';
import type { CertificateStatus, RevocationReason, RevokedCertificate } from '../pki/types.ts';
import { normaliseSerialNumber } from './issue.ts';

export type PkiKeyRow = Selectable<PkiKeysTable>;
export type SignerRow = Selectable<SigningCertificatesTable>;

export const REVOCATION_REASONS: readonly RevocationReason[] = [
  'unspecified',
  'keyCompromise',
  'cACompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'certificateHold',
  'removeFromCRL',
  'privilegeWithdrawn',
  'aACompromise',
];

const isReason = (value: string | null): value is RevocationReason =>
  value !== null && (REVOCATION_REASONS as readonly string[]).includes(value);

export const toBase64 = (der: Uint8Array): string => Buffer.from(der).toString('base64');
export const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

/** What a certificate says of its serial and validity, for its row (node's parser: fast). */
export function certificateFacts(der: Uint8Array): {
  serialNumber: string;
  notBefore: string;
  notAfter: string;
} {
  const x509 = new X509Certificate(der);
  return {
    serialNumber: normaliseSerialNumber(x509.serialNumber),
    notBefore: new Date(x509.validFrom).toISOString(),
    notAfter: new Date(x509.validTo).toISOString(),
  };
}

/** The subject's CN and emailAddress of a certificate made elsewhere (milliseconds: not for every signature). */
export function subjectNames(der: Uint8Array): { commonName: string; email: string } {
  const attributes = AsnConvert.parse(der, Certificate).tbsCertificate.subject.flatMap((rdn) => [...rdn]);
  const text = (type: string): string =>
    attributes.find((attribute) => attribute.type === type)?.value.toString() ?? '';
  return { commonName: text('2.5.4.3'), email: text('1.2.840.113549.1.9.1') };
}

export async function currentKeyRow(db: Kysely<Database>, role: PkiRole): Promise<PkiKeyRow | null> {
  const row = await db.selectFrom('pki_keys').selectAll().where('current_role', '=', role).executeTakeFirst();
  return row ?? null;
}

/**
 * Makes `row` the current key of its role, in place of `replacing` (null: there was none). False when
 * another process got there first: the caller reads the current row again.
 */
export async function putCurrentKey(
  db: Kysely<Database>,
  row: PkiKeyRow,
  replacing: PkiKeyRow | null,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (replacing !== null) {
      const retired = await trx
        .updateTable('pki_keys')
        .set({ current_role: null })
        .where('serial_number', '=', replacing.serial_number)
        .where('current_role', '=', row.role)
        .executeTakeFirst();
      if (Number(retired.numUpdatedRows) === 0) return false;
    }
    const inserted = await trx
      .insertInto('pki_keys')
      .values(row)
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/**
 * Retires every key in use, the deployment's and people's (their passphrase is lost): each is issued anew
 * when next needed. Their certificates are not revoked: nobody can use the keys any more, and the
 * signatures they made stay valid.
 */
export async function retireCurrentKeys(db: Kysely<Database>): Promise<void> {
  await db
    .updateTable('pki_keys')
    .set({ current_role: null })
    .where('current_role', 'is not', null)
    .execute();
  await db
    .updateTable('signing_certificates')
    .set({ current_for: null })
    .where('current_for', 'is not', null)
    .execute();
}

export async function currentSignerRow(db: Kysely<Database>, userId: string): Promise<SignerRow | null> {
  const row = await db
    .selectFrom('signing_certificates')
    .selectAll()
    .where('current_for', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Makes `row` the person's current certificate; `replacing`, when given, is revoked as superseded in the
 * same transaction. False when another process replaced it first.
 */
export async function putCurrentSigner(
  db: Kysely<Database>,
  row: SignerRow,
  replacing: SignerRow | null,
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (replacing !== null) {
      const retired = await trx
        .updateTable('signing_certificates')
        .set({
          current_for: null,
          revoked_at: replacing.revoked_at ?? at.toISOString(),
          revocation_reason: replacing.revocation_reason ?? 'superseded',
        })
        .where('serial_number', '=', replacing.serial_number)
        .where('current_for', '=', row.user_id)
        .executeTakeFirst();
      if (Number(retired.numUpdatedRows) === 0) return false;
    }
    const inserted = await trx
      .insertInto('signing_certificates')
      .values(row)
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  });
}

/**
 * Adds a certificate moved in from a data folder: current for its person when they have none yet, a
 * record otherwise; nothing when it is known already. True when it was added.
 */
export async function importSigner(db: Kysely<Database>, row: SignerRow): Promise<boolean> {
  const asCurrent = await db
    .insertInto('signing_certificates')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  if (Number(asCurrent.numInsertedOrUpdatedRows ?? 0) > 0 || row.current_for === null) {
    return Number(asCurrent.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const asRecord = await db
    .insertInto('signing_certificates')
    .values({ ...row, current_for: null })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(asRecord.numInsertedOrUpdatedRows ?? 0) > 0;
}

function statusOf(row: { revoked_at: string | null; revocation_reason: string | null }): CertificateStatus {
  if (row.revoked_at === null) return { status: 'good' };
  return {
    status: 'revoked',
    revokedAt: new Date(row.revoked_at),
    reason: isReason(row.revocation_reason) ? row.revocation_reason : 'unspecified',
  };
}

/** The status of a certificate `issuer` issued (a person's, the TSA's or the OCSP responder's). */
export async function certificateStatus(
  db: Kysely<Database>,
  issuer: string,
  serialNumber: string,
): Promise<CertificateStatus> {
  const serial = normaliseSerialNumber(serialNumber);
  const signer = await db
    .selectFrom('signing_certificates')
    .select(['revoked_at', 'revocation_reason'])
    .where('serial_number', '=', serial)
    .where('issuer_sha256', '=', issuer)
    .executeTakeFirst();
  if (signer !== undefined) return statusOf(signer);
  const key = await db
    .selectFrom('pki_keys')
    .select(['revoked_at', 'revocation_reason'])
    .where('serial_number', '=', serial)
    .where('issuer_sha256', '=', issuer)
    .where('role', '!=', 'ca')
    .executeTakeFirst();
  return key === undefined ? { status: 'unknown' } : statusOf(key);
}

export async function revokedCertificates(
  db: Kysely<Database>,
  issuer: string,
): Promise<RevokedCertificate[]> {
  const [signers, keys] = await Promise.all([
    db
      .selectFrom('signing_certificates')
      .select(['serial_number', 'revoked_at', 'revocation_reason'])
      .where('issuer_sha256', '=', issuer)
      .where('revoked_at', 'is not', null)
      .execute(),
    db
      .selectFrom('pki_keys')
      .select(['serial_number', 'revoked_at', 'revocation_reason'])
      .where('issuer_sha256', '=', issuer)
      .where('role', '!=', 'ca')
      .where('revoked_at', 'is not', null)
      .execute(),
  ]);
  return [...signers, ...keys]
    .map((row) => ({
      serialNumber: row.serial_number,
      revokedAt: new Date(row.revoked_at ?? 0),
      reason: isReason(row.revocation_reason) ? row.revocation_reason : 'unspecified',
    }))
    .sort(
      (a, b) => a.revokedAt.getTime() - b.revokedAt.getTime() || a.serialNumber.localeCompare(b.serialNumber),
    );
}

export type RevokeOutcome =
  | { kind: 'revoked'; serialNumber: string; what: 'signer' | PkiRole }
  | { kind: 'already'; serialNumber: string; what: 'signer' | PkiRole; status: CertificateStatus }
  | { kind: 'unknown'; serialNumber: string }
  | { kind: 'ca'; serialNumber: string };

/**
 * Revokes one certificate; a revoked certificate is no longer anyone's current one, so the next signature
 * gets a new one. A certificate revoked before keeps its first time and reason.
 */
export async function revokeCertificate(
  db: Kysely<Database>,
  serialNumber: string,
  reason: RevocationReason,
  at: Date,
): Promise<RevokeOutcome> {
  const serial = normaliseSerialNumber(serialNumber);
  const signer = await db
    .updateTable('signing_certificates')
    .set({ revoked_at: at.toISOString(), revocation_reason: reason, current_for: null })
    .where('serial_number', '=', serial)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(signer.numUpdatedRows) > 0) return { kind: 'revoked', serialNumber: serial, what: 'signer' };
  const known = await db
    .selectFrom('signing_certificates')
    .select(['revoked_at', 'revocation_reason'])
    .where('serial_number', '=', serial)
    .executeTakeFirst();
  if (known !== undefined)
    return { kind: 'already', serialNumber: serial, what: 'signer', status: statusOf(known) };

  const key = await db
    .selectFrom('pki_keys')
    .selectAll()
    .where('serial_number', '=', serial)
    .executeTakeFirst();
  if (key === undefined) return { kind: 'unknown', serialNumber: serial };
  if (key.role === 'ca') return { kind: 'ca', serialNumber: serial };
  if (key.revoked_at !== null)
    return { kind: 'already', serialNumber: serial, what: key.role, status: statusOf(key) };
  await db
    .updateTable('pki_keys')
    .set({ revoked_at: at.toISOString(), revocation_reason: reason, current_role: null })
    .where('serial_number', '=', serial)
    .where('revoked_at', 'is', null)
    .execute();
  return { kind: 'revoked', serialNumber: serial, what: key.role };
}

/** The serials of certificates not yet revoked that name `email` or belong to the account with it. */
export async function unrevokedSerialsFor(db: Kysely<Database>, email: string): Promise<string[]> {
  const address = email.trim().toLowerCase();
  const user = await db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
  const rows = await db
    .selectFrom('signing_certificates')
    .select('serial_number')
    .where('revoked_at', 'is', null)
    .where((eb) =>
      user === undefined
        ? eb('email', '=', address)
        : eb.or([eb('email', '=', address), eb('user_id', '=', user.id)]),
    )
    .orderBy('created_at')
    .execute();
  return rows.map((row) => row.serial_number);
}
