// Inline signature placements of a sign flow: one box per signatory, its top-left corner as
// fractions of the page. The fractions are kept as the strings the form sent ("0.2500"), so what is
// read back is exactly what was placed; SQL never computes with them. `top` and `left` are SQL keywords,
// hence the suffixed column names.
import type { Kysely, Migration } from 'kysely';

export const signaturePlacementsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('signature_placements')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('sign_flow_id', 'text', (col) =>
        col.notNull().references('sign_flows.id').onDelete('cascade'),
      )
      .addColumn('participant_id', 'text', (col) =>
        col.notNull().unique().references('sign_flow_participants.id').onDelete('cascade'),
      )
      .addColumn('page_number', 'integer', (col) => col.notNull())
      .addColumn('top_fraction', 'text', (col) => col.notNull())
      .addColumn('left_fraction', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('signature_placements_flow')
      .on('signature_placements')
      .column('sign_flow_id')
      .execute();
    // Invites are looked up by document and address when a flow adds someone again.
    await db.schema.createIndex('invites_email').on('invites').column('email').execute();
  },
};
