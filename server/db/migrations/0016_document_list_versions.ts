// A version per document that moves whenever anything a list shows of it changes (`document_list_versions`):
// its row, its flow and participants, its page images, its signatures. The server keeps each document's
// resource as it last wrote it for a person (server/documents/listed-resources.ts) and writes it again
// only when this has moved, so a list page read anew after one document changed writes that one, not
// twenty. Names and addresses, which every list shows, move the '*' row of `document_list_counts`
// (migration 0014) instead: one change there is a change of every document.
//
// Written only by triggers, on the same changes and columns as migration 0014's, in the transaction of
// the change. A document's id is never used again, so its number only grows for as long as anyone can
// ask for it. Existing documents start at 1, here, before the triggers exist.
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.ts';
import {
  DOCUMENT_LIST_COLUMNS,
  DOCUMENT_SHOWN_COLUMNS,
  FLOW_SHOWN_COLUMNS,
  PARTICIPANT_LIST_COLUMNS,
  VERSION_SHOWN_COLUMNS,
} from './0014_document_lists.ts';
import { runAllOrNothing } from './all-or-nothing.ts';

const DOCUMENT_COLUMNS = [...DOCUMENT_LIST_COLUMNS, ...DOCUMENT_SHOWN_COLUMNS];

const moved = (docs: string) =>
  `UPDATE document_list_versions SET version = version + 1 WHERE document_id IN (${docs})`;
const inserted = (row: string) =>
  `INSERT INTO document_list_versions (document_id, version) VALUES (${row}.id, 1)`;
const flowOf = (row: 'NEW' | 'OLD') => `SELECT document_id FROM sign_flows WHERE id = ${row}.sign_flow_id`;
const changedAny = (columns: readonly string[], distinct: string) =>
  columns.map((column) => `OLD.${column} ${distinct} NEW.${column}`).join(' OR ');

function create(dialect: SqlDialect): string[] {
  const withoutRowid = dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
  return [
    `CREATE TABLE document_list_versions (
      document_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
      version INTEGER NOT NULL)${withoutRowid}`,
    'INSERT INTO document_list_versions (document_id, version) SELECT id, 1 FROM documents',
  ];
}

function sqliteTriggers(): string[] {
  const trigger = (name: string, when: string, statement: string) =>
    `CREATE TRIGGER ${name} ${when} BEGIN ${statement}; END`;
  const updateOf = (table: string, columns: readonly string[]) =>
    `AFTER UPDATE OF ${columns.join(', ')} ON ${table} WHEN ${changedAny(columns, 'IS NOT')}`;
  return [
    trigger('documents_list_version_insert', 'AFTER INSERT ON documents', inserted('NEW')),
    trigger('documents_list_version_update', updateOf('documents', DOCUMENT_COLUMNS), moved('NEW.id')),
    trigger('sign_flows_list_version_insert', 'AFTER INSERT ON sign_flows', moved('NEW.document_id')),
    trigger(
      'sign_flows_list_version_update',
      updateOf('sign_flows', FLOW_SHOWN_COLUMNS),
      moved('NEW.document_id'),
    ),
    trigger('sign_flows_list_version_delete', 'AFTER DELETE ON sign_flows', moved('OLD.document_id')),
    trigger(
      'participants_list_version_insert',
      'AFTER INSERT ON sign_flow_participants',
      moved(flowOf('NEW')),
    ),
    trigger(
      'participants_list_version_update',
      updateOf('sign_flow_participants', PARTICIPANT_LIST_COLUMNS),
      moved(flowOf('NEW')),
    ),
    trigger(
      'participants_list_version_delete',
      'AFTER DELETE ON sign_flow_participants',
      moved(flowOf('OLD')),
    ),
    trigger('document_pages_list_version_insert', 'AFTER INSERT ON document_pages', moved('NEW.document_id')),
    trigger('document_pages_list_version_update', 'AFTER UPDATE ON document_pages', moved('NEW.document_id')),
    trigger('document_pages_list_version_delete', 'AFTER DELETE ON document_pages', moved('OLD.document_id')),
    trigger(
      'document_versions_list_version_insert',
      'AFTER INSERT ON document_versions',
      moved('NEW.document_id'),
    ),
    trigger(
      'document_versions_list_version_update',
      updateOf('document_versions', VERSION_SHOWN_COLUMNS),
      moved('NEW.document_id'),
    ),
    trigger(
      'document_versions_list_version_delete',
      'AFTER DELETE ON document_versions',
      moved('OLD.document_id'),
    ),
  ];
}

function pgTriggers(): string[] {
  // One function for every table: which document changed depends on the table and the operation.
  const fn = `CREATE OR REPLACE FUNCTION paraph_document_list_version() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_TABLE_NAME = 'documents' THEN
        IF TG_OP = 'INSERT' THEN ${inserted('NEW')}; ELSE ${moved('NEW.id')}; END IF;
      ELSIF TG_TABLE_NAME = 'sign_flow_participants' THEN
        IF TG_OP = 'DELETE' THEN ${moved(flowOf('OLD'))}; ELSE ${moved(flowOf('NEW'))}; END IF;
      ELSIF TG_OP = 'DELETE' THEN ${moved('OLD.document_id')};
      ELSE ${moved('NEW.document_id')};
      END IF;
      RETURN NULL;
    END $fn$`;
  const trigger = (name: string, when: string, table: string, columns?: readonly string[]) =>
    `CREATE TRIGGER ${name} ${when}${columns === undefined ? '' : ` OF ${columns.join(', ')}`} ON ${table}
      FOR EACH ROW ${columns === undefined ? '' : `WHEN (${changedAny(columns, 'IS DISTINCT FROM')})`}
      EXECUTE FUNCTION paraph_document_list_version()`;
  return [
    fn,
    trigger('documents_list_version_insert', 'AFTER INSERT', 'documents'),
    trigger('documents_list_version_update', 'AFTER UPDATE', 'documents', DOCUMENT_COLUMNS),
    trigger('sign_flows_list_version', 'AFTER INSERT OR DELETE', 'sign_flows'),
    trigger('sign_flows_list_version_update', 'AFTER UPDATE', 'sign_flows', FLOW_SHOWN_COLUMNS),
    trigger('participants_list_version', 'AFTER INSERT OR DELETE', 'sign_flow_participants'),
    trigger(
      'participants_list_version_update',
      'AFTER UPDATE',
      'sign_flow_participants',
      PARTICIPANT_LIST_COLUMNS,
    ),
    trigger('document_pages_list_version', 'AFTER INSERT OR UPDATE OR DELETE', 'document_pages'),
    trigger('document_versions_list_version', 'AFTER INSERT OR DELETE', 'document_versions'),
    trigger(
      'document_versions_list_version_update',
      'AFTER UPDATE',
      'document_versions',
      VERSION_SHOWN_COLUMNS,
    ),
  ];
}

export function documentListVersionsMigration(dialect: SqlDialect): Migration {
  return {
    up: (db: Kysely<unknown>) =>
      runAllOrNothing(db, dialect, [
        ...create(dialect),
        ...(dialect === 'sqlite' ? sqliteTriggers() : pgTriggers()),
      ]),
  };
}
