// Pages that could not be rendered within the PDF sandbox's limits, and how far a render job has got.
// `documents.unavailable_pages` is a JSON array of page numbers shown as a placeholder; the job keeps its
// own list while it runs (`failed_pages`), so a re-render after a signature replaces the document's list
// only when it is done, and `next_page`, so that a job rendering a few pages per turn resumes where it
// stopped.
import type { Kysely, Migration } from 'kysely';

export const pageFailuresMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('documents')
      .addColumn('unavailable_pages', 'text', (col) => col.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('jobs')
      .addColumn('next_page', 'integer', (col) => col.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable('jobs')
      .addColumn('failed_pages', 'text', (col) => col.notNull().defaultTo('[]'))
      .execute();
  },
};
