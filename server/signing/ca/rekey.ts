// Moves every private key in the database from one passphrase to another (`npm run ca -- rekey`), in one
// transaction: a demo's generated passphrase to a real one, or a passphrase that leaked to a new one.
// Every instance must be stopped first: a running one would go on sealing new keys under the old one.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { Keyring, KEYRING_RECORD, keyLabel, keyringCheck, openKeyring } from './keyring.ts';

export type RekeyOutcome = { rekeyed: number; unreadable: number };

export async function rekeyDeployment(
  db: Kysely<Database>,
  oldPassphrase: string,
  newPassphrase: string,
): Promise<RekeyOutcome> {
  const previous = await openKeyring(db, oldPassphrase);
  const next = await Keyring.create(newPassphrase);
  const check = await keyringCheck(next);
  return db.transaction().execute(async (trx) => {
    let rekeyed = 0;
    let unreadable = 0;
    for (const table of ['pki_keys', 'signing_certificates'] as const) {
      const rows = await trx.selectFrom(table).select(['serial_number', 'private_key']).execute();
      for (const row of rows) {
        const der = await previous.open(row.private_key, keyLabel(row.serial_number));
        // Keys retired when an earlier passphrase was lost stay as they are: nobody can open them.
        if (der === null) {
          unreadable += 1;
          continue;
        }
        await trx
          .updateTable(table)
          .set({ private_key: await next.seal(der, keyLabel(row.serial_number)) })
          .where('serial_number', '=', row.serial_number)
          .execute();
        rekeyed += 1;
      }
    }
    await trx
      .updateTable('server_secrets')
      .set({ value: check })
      .where('name', '=', KEYRING_RECORD)
      .execute();
    return { rekeyed, unreadable };
  });
}
