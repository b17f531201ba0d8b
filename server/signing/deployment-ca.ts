// One deployment, one signing root. The local CA lives in each instance's data folder, so instances that
// share a PostgreSQL database but not their CA would sign the same deployment's documents under different
// roots. The database records the fingerprint of the CA the first instance started with; an instance whose
// CA differs refuses to start, until the deployment has one CA of its own elsewhere.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

// A row of server_secrets, which already holds the deployment-wide values every instance must agree on.
// The fingerprint is no secret; it only needs to be the same everywhere.
export const SIGNING_CA_RECORD = 'signing_ca_sha256';

/** SHA-256 of the certificate, as `openssl x509 -noout -fingerprint -sha256` prints it. */
export function caFingerprint(certificateDer: Uint8Array): string {
  const hex = createHash('sha256').update(certificateDer).digest('hex').toUpperCase();
  return hex.match(/../g)?.join(':') ?? hex;
}

export type DeploymentCaOutcome = 'recorded' | 'same' | 'replaced';

export class SigningCaMismatchError extends Error {
  constructor(
    public readonly recorded: string,
    public readonly mine: string,
    caDirectory: string,
  ) {
    super(
      `This instance's signing CA (${caDirectory}, SHA-256 ${mine}) is not the one the other instances on ` +
        `this database sign with (SHA-256 ${recorded}). Copy the ca folder (ca-key.pem, ca-cert.pem) of an ` +
        `instance already running into ${caDirectory}, so that every signature of the deployment chains to ` +
        'one root; or, if that CA is lost for good, start once with PARAPH_REPLACE_SIGNING_CA=1',
    );
    this.name = 'SigningCaMismatchError';
  }
}

/**
 * Records this instance's CA as the deployment's when none is recorded yet; checks it against the one
 * recorded otherwise, and throws SigningCaMismatchError when they differ (unless `replace`, which records
 * this one instead).
 */
export async function claimDeploymentCa(
  db: Kysely<Database>,
  ca: { certificateDer: Uint8Array; directory: string },
  options: { replace: boolean },
): Promise<DeploymentCaOutcome> {
  const mine = caFingerprint(ca.certificateDer);
  // Insert-if-absent, then read: of instances starting at once on a fresh database, the first one's wins
  // and the others compare with it.
  const inserted = await db
    .insertInto('server_secrets')
    .values({ name: SIGNING_CA_RECORD, value: mine })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'recorded';
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', SIGNING_CA_RECORD)
    .executeTakeFirstOrThrow();
  if (row.value === mine) return 'same';
  if (!options.replace) throw new SigningCaMismatchError(row.value, mine, ca.directory);
  await db.updateTable('server_secrets').set({ value: mine }).where('name', '=', SIGNING_CA_RECORD).execute();
  return 'replaced';
}
