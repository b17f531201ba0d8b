// The first schema. Times are ISO text and booleans 0/1 integers so both dialects read the same values.
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.ts';

export function initialMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('full_name', 'text', (col) => col.notNull())
        .addColumn('initials', 'text', (col) => col.notNull())
        .addColumn('password_hash', 'text', (col) => col.notNull())
        .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en'))
        .addColumn('country_code', 'text', (col) => col.notNull().defaultTo('nl'))
        .addColumn('location', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('welcome_screen_watched', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('plan', 'text', (col) => col.notNull().defaultTo('basic'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('last_seen_at', 'text')
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('access_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (col) => col.references('sessions.id').onDelete('set null'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema
        .createIndex('access_tokens_session_id')
        .on('access_tokens')
        .column('session_id')
        .execute();
      await db.schema.createIndex('access_tokens_user_id').on('access_tokens').column('user_id').execute();

      await db.schema
        .createTable('sign_in_attempts')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (col) =>
          dialect === 'postgres' ? col.primaryKey() : col.primaryKey().autoIncrement(),
        )
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('ip', 'text', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('succeeded', 'integer', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('sign_in_attempts_email_at')
        .on('sign_in_attempts')
        .columns(['email', 'at'])
        .execute();
      await db.schema
        .createIndex('sign_in_attempts_ip_at')
        .on('sign_in_attempts')
        .columns(['ip', 'at'])
        .execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('value', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('upload_requests')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('key', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .addColumn('consumed_at', 'text')
        .execute();

      await db.schema
        .createTable('documents')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('original_filename', 'text', (col) => col.notNull())
        .addColumn('file_key', 'text', (col) => col.notNull())
        .addColumn('file_size', 'integer', (col) => col.notNull())
        .addColumn('sha256', 'text', (col) => col.notNull())
        .addColumn('page_count', 'integer', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('images_state', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .addColumn('autodeletion_at', 'text', (col) => col.notNull())
        .addColumn('signed_file_key', 'text')
        .execute();
      await db.schema
        .createIndex('documents_owner_created')
        .on('documents')
        .columns(['owner_id', 'created_at'])
        .execute();
      await db.schema.createIndex('documents_created').on('documents').column('created_at').execute();

      await db.schema
        .createTable('document_pages')
        .addColumn('document_id', 'text', (col) =>
          col.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('page_number', 'integer', (col) => col.notNull())
        .addColumn('image_key', 'text', (col) => col.notNull())
        .addColumn('width', 'integer', (col) => col.notNull())
        .addColumn('height', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('document_pages_pk', ['document_id', 'page_number'])
        .execute();

      await db.schema
        .createTable('document_archives')
        .addColumn('document_id', 'text', (col) =>
          col.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('archived_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('document_archives_pk', ['document_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('document_archives_user')
        .on('document_archives')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('sign_flows')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('document_id', 'text', (col) =>
          col.notNull().unique().references('documents.id').onDelete('cascade'),
        )
        .addColumn('type', 'text', (col) => col.notNull())
        .addColumn('comment', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('minimum_required_signs', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('sign_page_number', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();

      await db.schema
        .createTable('sign_flow_participants')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('sign_flow_id', 'text', (col) =>
          col.notNull().references('sign_flows.id').onDelete('cascade'),
        )
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('position', 'integer', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.references('users.id').onDelete('set null'))
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('signed_at', 'text')
        .addColumn('refused_at', 'text')
        .addColumn('approved_at', 'text')
        .addColumn('rejected_at', 'text')
        .addColumn('refuse_reason', 'text')
        .execute();
      await db.schema
        .createIndex('participants_flow')
        .on('sign_flow_participants')
        .column('sign_flow_id')
        .execute();
      await db.schema
        .createIndex('participants_user')
        .on('sign_flow_participants')
        .column('user_id')
        .execute();
      await db.schema
        .createIndex('participants_email')
        .on('sign_flow_participants')
        .column('email')
        .execute();

      await db.schema
        .createTable('connections')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_a_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('user_b_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addUniqueConstraint('connections_pair', ['user_a_id', 'user_b_id'])
        .execute();
      await db.schema.createIndex('connections_user_b').on('connections').column('user_b_id').execute();

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('document_id', 'text', (col) =>
          col.notNull().references('documents.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('run_after', 'text', (col) => col.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('jobs_state_run_after')
        .on('jobs')
        .columns(['state', 'run_after'])
        .execute();

      // No foreign key: the audit trail outlives the documents it describes.
      await db.schema
        .createTable('audit_events')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('document_id', 'text', (col) => col.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('sha256_before', 'text')
        .addColumn('sha256_after', 'text')
        .addColumn('details', 'text', (col) => col.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .createIndex('audit_events_document')
        .on('audit_events')
        .columns(['document_id', 'at'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('to_email', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('body', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
    },
  };
}
