// Indexes for the document lists (server/documents/list-query.ts): with 10,000 documents a page and its count
// come from index-only scans instead of reading every document row.
import type { Kysely, Migration } from 'kysely';

export const listIndexesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    // A page walks one of these in sort order; holding id, owner and state, the rows it skips are never
    // read from the table (id breaks ties, so no extra sort step either).
    await db.schema
      .createIndex('documents_created_page')
      .on('documents')
      .columns(['created_at', 'id', 'owner_id', 'state'])
      .execute();
    await db.schema
      .createIndex('documents_autodeletion_page')
      .on('documents')
      .columns(['autodeletion_at', 'id', 'owner_id', 'state'])
      .execute();
    // Counting the caller's own documents, per state for the category lists.
    await db.schema
      .createIndex('documents_owner_state')
      .on('documents')
      .columns(['owner_id', 'state', 'id'])
      .execute();
    // From the caller's participant rows (all, or those pending in a role) to their flows without reading
    // the rows; these replace the single-column indexes of 0001, which they cover.
    await db.schema
      .createIndex('participants_user_role')
      .on('sign_flow_participants')
      .columns(['user_id', 'role', 'state', 'sign_flow_id'])
      .execute();
    await db.schema
      .createIndex('participants_email_role')
      .on('sign_flow_participants')
      .columns(['email', 'user_id', 'role', 'state', 'sign_flow_id'])
      .execute();
    await db.schema.dropIndex('participants_user').execute();
    await db.schema.dropIndex('participants_email').execute();
    // Whether the caller takes part in a document's flow, answered from the index alone (replaces
    // participants_flow, its prefix).
    await db.schema
      .createIndex('participants_flow_viewer')
      .on('sign_flow_participants')
      .columns(['sign_flow_id', 'user_id', 'email'])
      .execute();
    await db.schema.dropIndex('participants_flow').execute();
    // From a document to its flow's id without reading the flow.
    await db.schema
      .createIndex('sign_flows_document_flow')
      .on('sign_flows')
      .columns(['document_id', 'id'])
      .execute();
    // documents_created (created_at) is a prefix of documents_created_page.
    await db.schema.dropIndex('documents_created').execute();
  },
};
