// Migrations are listed here rather than read from a folder, so they work the same from tsx, a bundle or
// a test. Add each new migration to the list under a name that sorts after the previous one.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from './dialect.ts';
import { initialMigration } from './migrations/0001_initial.ts';
import { listIndexesMigration } from './migrations/0002_list_indexes.ts';
import { invitesMigration } from './migrations/0003_invites.ts';
import { connectionsMigration } from './migrations/0004_connections.ts';
import { signaturePlacementsMigration } from './migrations/0005_signature_placements.ts';
import { signingMigration } from './migrations/0006_signing.ts';
import { errorReportsMigration } from './migrations/0007_error_reports.ts';
import { inviteExpiryMigration } from './migrations/0008_invite_expiry.ts';
import { pageFailuresMigration } from './migrations/0009_page_failures.ts';
import { storageCleanupMigration } from './migrations/0010_storage_cleanup.ts';
import { mailQueueMigration } from './migrations/0011_mail_queue.ts';
import { deploymentCaMigration } from './migrations/0012_deployment_ca.ts';
import { addressRateLimitsMigration } from './migrations/0013_address_rate_limits.ts';
import { documentListsMigration } from './migrations/0014_document_lists.ts';
import { documentListDaysMigration } from './migrations/0015_document_list_days.ts';
import { documentListVersionsMigration } from './migrations/0016_document_list_versions.ts';
import type { Database } from './schema.ts';

export function migrationsFor(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_initial': initialMigration(dialect),
    '0002_list_indexes': listIndexesMigration,
    '0003_invites': invitesMigration,
    '0004_connections': connectionsMigration,
    '0005_signature_placements': signaturePlacementsMigration,
    '0006_signing': signingMigration,
    '0007_error_reports': errorReportsMigration,
    '0008_invite_expiry': inviteExpiryMigration,
    '0009_page_failures': pageFailuresMigration,
    '0010_storage_cleanup': storageCleanupMigration,
    '0011_mail_queue': mailQueueMigration,
    '0012_deployment_ca': deploymentCaMigration,
    '0013_address_rate_limits': addressRateLimitsMigration(dialect),
    '0014_document_lists': documentListsMigration(dialect),
    '0015_document_list_days': documentListDaysMigration(dialect),
    '0016_document_list_versions': documentListVersionsMigration(dialect),
  };
}

export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: SqlDialect,
  pgSchema?: string,
): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  // In a schema of its own, the migrator must look for its bookkeeping tables there too: otherwise it
  // finds another schema's and skips creating its own.
  const migrator = new Migrator({
    db,
    provider,
    ...(pgSchema === undefined ? {} : { migrationTableSchema: pgSchema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const reason =
      error instanceof Error ? error.message : String(error ?? `migration ${failed?.migrationName} failed`);
    throw new Error(`Database migration failed: ${reason}`, { cause: error });
  }
}
