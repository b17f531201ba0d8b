// Where the global setup leaves the server's pid and data folder for the teardown. Setup and teardown
// run in the one Playwright runner process, so its pid keeps two runs in one checkout apart. Also what a
// journey may read of the server's own state (its SQLite database) when no page shows it.
import path from 'node:path';
import Database from 'better-sqlite3';

export const STATE_FILE = path.resolve(`test-results/.e2e-server-${process.pid}.json`);

/**
 * The sign-up link of the newest invitation sent to `email`, read from the outbox table of the server's
 * SQLite database: the path a newcomer's mailbox would give them. /dev/outbox shows a message only to its
 * signed-in recipient, and a newcomer has no account yet.
 */
export function invitationLinkFor(email: string): string | null {
  const dataDir = process.env.PARAPH_E2E_DATA_DIR;
  if (!dataDir) throw new Error('PARAPH_E2E_DATA_DIR is not set: the global setup starts the server');
  const db = new Database(path.join(dataDir, 'paraph.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT body FROM outbox WHERE lower(to_email) = lower(?) ORDER BY created_at DESC')
      .all(email) as { body: string }[];
    for (const row of rows) {
      const link = /\/sign_up\?invite=[^\s]+/.exec(row.body)?.[0];
      if (link !== undefined) return link;
    }
    return null;
  } finally {
    db.close();
  }
}
