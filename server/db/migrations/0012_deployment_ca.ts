// One certificate authority per deployment, kept in the database instead of each instance's data folder:
// the deployment's own keys (the CA, unless it is given as files, the time-stamping authority and the OCSP
// responder) and the people's signing keys, with what was revoked. Certificates are base64 DER and private
// keys sealed text (server/signing/ca/keyring.ts), so that both dialects read them the same way.
//
// `current_role` / `current_for` name the row in use (a role; a user id) and are unique: of processes that
// issue the same key at once only one insert takes it, and the others read the winner's. A row replaced
// keeps its place with NULL there (unique indexes allow many NULLs in SQLite and PostgreSQL alike), so the
// status of every certificate ever issued can still be answered.
import type { Kysely, Migration } from 'kysely';

export const deploymentCaMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('pki_keys')
      .addColumn('serial_number', 'text', (col) => col.primaryKey())
      // 'ca' | 'tsa' | 'ocsp'
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('current_role', 'text', (col) => col.unique())
      // SHA-256 of the issuing CA's certificate (the CA's own for a CA), as caFingerprint writes it.
      .addColumn('issuer_sha256', 'text', (col) => col.notNull())
      // 'generated', or 'data-folder' for a CA moved in from <dataDir>/ca/.
      .addColumn('source', 'text', (col) => col.notNull())
      // The origin the certificate's URLs point at; null for a CA.
      .addColumn('public_origin', 'text')
      .addColumn('certificate', 'text', (col) => col.notNull())
      .addColumn('private_key', 'text', (col) => col.notNull())
      .addColumn('not_before', 'text', (col) => col.notNull())
      .addColumn('not_after', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revocation_reason', 'text')
      .execute();

    await db.schema
      .createTable('signing_certificates')
      .addColumn('serial_number', 'text', (col) => col.primaryKey())
      // No foreign key: a certificate's status outlives the account it was issued to.
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('current_for', 'text', (col) => col.unique())
      // The name and address the certificate gives (CN, emailAddress).
      .addColumn('full_name', 'text', (col) => col.notNull())
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('issuer_sha256', 'text', (col) => col.notNull())
      // Null for a certificate moved in from a data folder (made without URLs).
      .addColumn('public_origin', 'text')
      .addColumn('certificate', 'text', (col) => col.notNull())
      .addColumn('private_key', 'text', (col) => col.notNull())
      .addColumn('not_before', 'text', (col) => col.notNull())
      .addColumn('not_after', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revocation_reason', 'text')
      .execute();
    await db.schema
      .createIndex('signing_certificates_user')
      .on('signing_certificates')
      .column('user_id')
      .execute();
    await db.schema
      .createIndex('signing_certificates_email')
      .on('signing_certificates')
      .column('email')
      .execute();
    // The CRL: what one CA revoked.
    await db.schema
      .createIndex('signing_certificates_revoked')
      .on('signing_certificates')
      .columns(['issuer_sha256', 'revoked_at'])
      .execute();
  },
};
