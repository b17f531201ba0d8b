// Migrations are listed here rather than read from a folder, so they work the same from tsx, a bundle or
// a test. Add each new migration to the list under a name that sorts after the previous one.
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { SqlDialect } from './dialect.ts';
import { initialMigration } from './migrations/0001_initial.ts';
import type { Database } from './schema.ts';

export function migrationsFor(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_initial': initialMigration(dialect),
  };
}

export async function migrateToLatest(db: Kysely<Database>, dialect: SqlDialect): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(dialect) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    const reason =
      error instanceof Error ? error.message : String(error ?? `migration ${failed?.migrationName} failed`);
    throw new Error(`Database migration failed: ${reason}`, { cause: error });
  }
}
