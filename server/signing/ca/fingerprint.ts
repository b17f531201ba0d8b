// The deployment's CA, recorded by fingerprint in server_secrets (`signing_ca_sha256`), which holds the
// deployment-wide values every instance must agree on. With the CA in the database every instance reads
// the same one; the record still catches what the database cannot hold the same for all: a CA given as
// files (PARAPH_CA_CERT) that differs between instances, or a switch from one CA to another that nobody
// asked for.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export const SIGNING_CA_RECORD = 'signing_ca_sha256';

/** SHA-256 of the certificate, as `openssl x509 -noout -fingerprint -sha256` prints it. */
export function caFingerprint(certificateDer: Uint8Array): string {
  const hex = createHash('sha256').update(certificateDer).digest('hex').toUpperCase();
  return hex.match(/../g)?.join(':') ?? hex;
}

export async function recordedCaFingerprint(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', SIGNING_CA_RECORD)
    .executeTakeFirst();
  return row?.value ?? null;
}

export type DeploymentCaOutcome = 'recorded' | 'same' | 'replaced';

/** Thrown when this instance would sign under another CA than the one recorded for the deployment. */
export class SigningCaMismatchError extends Error {
  readonly recorded: string;
  readonly mine: string;

  constructor(recorded: string, mine: string, where: string) {
    super(
      `This instance's signing CA (${where}, SHA-256 ${mine}) is not the one the deployment signs with ` +
        `(SHA-256 ${recorded}). Give every instance the same CA, so that every signature of the deployment ` +
        'chains to one root; to sign under this one from now on, start once with PARAPH_REPLACE_SIGNING_CA=1',
    );
    this.recorded = recorded;
    this.mine = mine;
    this.name = 'SigningCaMismatchError';
  }
}

/**
 * Records `fingerprint` as the deployment's CA when none is recorded yet (insert-if-absent: of instances
 * starting at once the first one's wins and the others compare with it); compares with the one recorded
 * otherwise, and throws SigningCaMismatchError when they differ, unless `replace`, which records this one.
 */
export async function claimDeploymentCa(
  db: Kysely<Database>,
  fingerprint: string,
  options: { replace: boolean; where: string },
): Promise<DeploymentCaOutcome> {
  const inserted = await db
    .insertInto('server_secrets')
    .values({ name: SIGNING_CA_RECORD, value: fingerprint })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return 'recorded';
  const recorded = await recordedCaFingerprint(db);
  if (recorded === fingerprint) return 'same';
  if (!options.replace) throw new SigningCaMismatchError(recorded ?? '(none)', fingerprint, options.where);
  await db
    .updateTable('server_secrets')
    .set({ value: fingerprint })
    .where('name', '=', SIGNING_CA_RECORD)
    .execute();
  return 'replaced';
}
