// What the document lists read (server/documents/list-query.ts), kept by the database itself so that no
// write path can forget it:
//
// - `document_viewers`: one row per document and person who sees it (its owner, and each participant who
//   has not deleted it "for themselves", by account or, before they have one, by address), with what a
//   list filters and sorts by: the document's state and dates, whether that person archived it, and
//   whether they must act on it now. A list is one walk of this table's index for one person, however
//   many documents other people have.
// - `document_list_counts`: how many of those rows each person has, by archive, state and "must act", so
//   every category's count is a sum of a few rows. `changes` only grows: it moves whenever anything a list
//   shows of one of the person's documents changes (its row, its flow and participants, its page images,
//   its signatures), so what the server remembers of a list (list-query.ts, handlers/documents.ts) is
//   known to still hold while it has not moved. The row of user_id '*' grows when a name or an address
//   changes, which any list shows and any search may match.
// - `document_search` and `user_search`: the text a search matches, folded (server/db/search-fold.ts): a
//   document's file name and its participants' addresses, a person's name and address. SQLite indexes it
//   with FTS5's trigram tokenizer, PostgreSQL with pg_trgm when it can (server/db/search-index.ts); both
//   answer substring matches, as the search always did.
//
// Triggers on documents, sign flows, participants, archives, hides and users keep all of it in step, in
// the transaction of the change: one statement recomputes a document's rows from the rule of who sees it
// (the same rule as `visibleToViewer` and `isInCategory`, which the API tests hold both to). Existing data
// is filled in here, before the triggers exist.
import type { Kysely, Migration } from 'kysely';
import type { SqlDialect } from '../dialect.ts';
import { runAllOrNothing } from './all-or-nothing.ts';
import { foldExpressionSql } from '../search-fold.ts';

type Sql = { dialect: SqlDialect };

const newline = ({ dialect }: Sql) => (dialect === 'postgres' ? 'chr(10)' : 'char(10)');
const joined = ({ dialect }: Sql, expression: string) =>
  dialect === 'postgres' ? `string_agg(${expression}, chr(10))` : `group_concat(${expression}, char(10))`;

// The text of the document `d` a search reads: its file name and its participants' addresses, a line each.
function documentText(s: Sql, d: string): string {
  return `paraph_fold(${d}.original_filename || coalesce((
    SELECT ${newline(s)} || ${joined(s, 'p.email')}
    FROM sign_flows f JOIN sign_flow_participants p ON p.sign_flow_id = f.id
    WHERE f.document_id = ${d}.id), ''))`;
}

function userText(s: Sql, u: string): string {
  return `paraph_fold(${u}.full_name || ${newline(s)} || ${u}.email)`;
}

/** Rewrites the search text of the documents whose id is in `docs` (an SQL list or subquery). */
function refreshDocumentSearch(s: Sql, docs: string): string {
  return `UPDATE document_search SET folded = (
    SELECT ${documentText(s, 'd')} FROM documents d WHERE d.id = document_search.document_id)
  WHERE document_id IN (${docs})`;
}

// Who sees a document, and what their lists need to know of it. Its owner always; a participant (the
// account linked to the row, or the account with the row's address while none is linked) unless they
// deleted it for themselves. `must_act`: a pending review of a document in review, or a pending signature
// of a document awaiting signatures (list-query.ts and permissions.ts, "to_do").
function viewerRows(docs: string): string {
  return `
  SELECT viewer.user_id, d.id, d.created_at, d.autodeletion_at, d.state,
    CASE WHEN EXISTS (
      SELECT 1 FROM document_archives a WHERE a.document_id = d.id AND a.user_id = viewer.user_id
    ) THEN 1 ELSE 0 END,
    CASE WHEN EXISTS (
      SELECT 1 FROM sign_flows f JOIN sign_flow_participants p ON p.sign_flow_id = f.id
      WHERE f.document_id = d.id AND p.state = 'pending'
        AND ((p.role = 'reviewer' AND d.state = 'in_review')
          OR (p.role = 'signatory' AND d.state = 'awaiting_signs'))
        AND (p.user_id = viewer.user_id OR (p.user_id IS NULL AND p.email = vu.email))
    ) THEN 1 ELSE 0 END
  FROM (
    SELECT id AS document_id, owner_id AS user_id FROM documents WHERE id IN (${docs})
    UNION
    SELECT f.document_id, p.user_id
    FROM sign_flows f JOIN sign_flow_participants p ON p.sign_flow_id = f.id
    WHERE f.document_id IN (${docs}) AND p.user_id IS NOT NULL
      AND NOT EXISTS (
        SELECT 1 FROM document_hides h WHERE h.document_id = f.document_id AND h.user_id = p.user_id)
    UNION
    SELECT f.document_id, u.id
    FROM sign_flows f JOIN sign_flow_participants p ON p.sign_flow_id = f.id
      JOIN users u ON u.email = p.email
    WHERE f.document_id IN (${docs}) AND p.user_id IS NULL
      AND NOT EXISTS (
        SELECT 1 FROM document_hides h WHERE h.document_id = f.document_id AND h.user_id = u.id)
  ) viewer
  JOIN documents d ON d.id = viewer.document_id
  JOIN users vu ON vu.id = viewer.user_id`;
}

const VIEWER_COLUMNS = 'user_id, document_id, created_at, autodeletion_at, state, archived, must_act';

/** Recomputes the viewer rows of the documents whose id is in `docs`. */
function refreshViewers(docs: string): string[] {
  return [
    `DELETE FROM document_viewers WHERE document_id IN (${docs})`,
    `INSERT INTO document_viewers (${VIEWER_COLUMNS}) ${viewerRows(docs)}`,
  ];
}

// Documents with a participant row that only an address links to someone (no account yet).
const unlinkedDocumentsOf = (emails: string) => `
  SELECT f.document_id FROM sign_flow_participants p JOIN sign_flows f ON f.id = p.sign_flow_id
  WHERE p.user_id IS NULL AND p.email IN (${emails})`;

// Not for someone whose account is gone: PostgreSQL runs the triggers of a cascade's deletes after those
// of the statement that caused it, so the rows of a deleted person would come back after users_lists.
function countChange(s: Sql, row: 'NEW' | 'OLD', documents: 1 | -1): string {
  const counts = s.dialect === 'postgres' ? 'document_list_counts.' : '';
  return `INSERT INTO document_list_counts (user_id, archived, state, must_act, documents, changes)
    SELECT ${row}.user_id, ${row}.archived, ${row}.state, ${row}.must_act, ${documents}, 1
    WHERE EXISTS (SELECT 1 FROM users WHERE id = ${row}.user_id)
    ON CONFLICT (user_id, archived, state, must_act) DO UPDATE
    SET documents = ${counts}documents ${documents > 0 ? '+' : '-'} 1, changes = ${counts}changes + 1`;
}

function namesChanged(s: Sql): string {
  const counts = s.dialect === 'postgres' ? 'document_list_counts.' : '';
  return `INSERT INTO document_list_counts (user_id, archived, state, must_act, documents, changes)
    VALUES ('*', 0, '', 0, 0, 1)
    ON CONFLICT (user_id, archived, state, must_act) DO UPDATE SET changes = ${counts}changes + 1`;
}

export const DOCUMENT_LIST_COLUMNS = [
  'original_filename',
  'owner_id',
  'state',
  'created_at',
  'autodeletion_at',
];
// What else a list shows of a document: its file, its size and its page images.
export const DOCUMENT_SHOWN_COLUMNS = [
  'file_key',
  'file_size',
  'page_count',
  'images_state',
  'updated_at',
  'signed_file_key',
  'unavailable_pages',
];
export const PARTICIPANT_LIST_COLUMNS = ['user_id', 'email', 'role', 'state', 'position'];
export const FLOW_SHOWN_COLUMNS = ['type', 'state', 'minimum_required_signs'];
export const VERSION_SHOWN_COLUMNS = ['state', 'smart_card_type', 'answered_at'];

// Something a list shows of the documents in `docs` changed, though not who sees them: every one of
// their viewers' `changes` moves.
function documentsShownChanged(docs: string): string {
  return `UPDATE document_list_counts SET changes = changes + 1
    WHERE (user_id, archived, state, must_act) IN (
      SELECT user_id, archived, state, must_act FROM document_viewers WHERE document_id IN (${docs}))`;
}
const changedAny = (columns: string[], distinct: string) =>
  columns.map((column) => `OLD.${column} ${distinct} NEW.${column}`).join(' OR ');

function tables(s: Sql): string[] {
  const withoutRowid = s.dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
  const searchKey =
    s.dialect === 'sqlite'
      ? // FTS5 keeps its index by an integer rowid, which a table keyed by text only has implicitly (and
        // VACUUM may renumber): this one declares it.
        (column: string, parent: string) =>
          `id INTEGER PRIMARY KEY, ${column} TEXT NOT NULL UNIQUE REFERENCES ${parent}(id) ON DELETE CASCADE`
      : (column: string, parent: string) =>
          `${column} TEXT PRIMARY KEY REFERENCES ${parent}(id) ON DELETE CASCADE`;
  return [
    `CREATE TABLE document_viewers (
      user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      document_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      autodeletion_at TEXT NOT NULL,
      state TEXT NOT NULL,
      archived INTEGER NOT NULL,
      must_act INTEGER NOT NULL,
      PRIMARY KEY (user_id, document_id))${withoutRowid}`,
    // A page walks one of these in its sort order and reads nothing else (id breaks ties; the category's
    // columns come along so the rows a category skips are never read).
    `CREATE INDEX document_viewers_created
      ON document_viewers (user_id, archived, created_at, document_id, state, must_act)`,
    `CREATE INDEX document_viewers_autodeletion
      ON document_viewers (user_id, archived, autodeletion_at, document_id, state, must_act)`,
    `CREATE INDEX document_viewers_document ON document_viewers (document_id)`,
    `CREATE TABLE document_list_counts (
      user_id TEXT NOT NULL,
      archived INTEGER NOT NULL,
      state TEXT NOT NULL,
      must_act INTEGER NOT NULL,
      documents INTEGER NOT NULL,
      changes INTEGER NOT NULL,
      PRIMARY KEY (user_id, archived, state, must_act))${withoutRowid}`,
    `CREATE TABLE document_search (${searchKey('document_id', 'documents')}, folded TEXT NOT NULL)`,
    `CREATE TABLE user_search (${searchKey('user_id', 'users')}, folded TEXT NOT NULL)`,
  ];
}

function backfill(s: Sql): string[] {
  return [
    `INSERT INTO document_search (document_id, folded) SELECT d.id, ${documentText(s, 'd')} FROM documents d`,
    `INSERT INTO user_search (user_id, folded) SELECT u.id, ${userText(s, 'u')} FROM users u`,
    `INSERT INTO document_viewers (${VIEWER_COLUMNS}) ${viewerRows('SELECT id FROM documents')}`,
    `INSERT INTO document_list_counts (user_id, archived, state, must_act, documents, changes)
      SELECT user_id, archived, state, must_act, count(*), count(*)
      FROM document_viewers GROUP BY user_id, archived, state, must_act`,
  ];
}

// --- SQLite: the fold is a function of the connection (database.ts); triggers hold their statements. ---

function sqliteTrigger(name: string, when: string, statements: string[]): string {
  return `CREATE TRIGGER ${name} ${when} BEGIN ${statements.map((statement) => `${statement};`).join('\n')} END`;
}

function sqliteSearchIndex(table: string): string[] {
  const fts = `${table}_fts`;
  return [
    `CREATE VIRTUAL TABLE ${fts} USING fts5(folded, content='${table}', content_rowid='id',
      tokenize='trigram case_sensitive 1')`,
    `INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`,
    sqliteTrigger(`${table}_fts_insert`, `AFTER INSERT ON ${table}`, [
      `INSERT INTO ${fts}(rowid, folded) VALUES (NEW.id, NEW.folded)`,
    ]),
    sqliteTrigger(`${table}_fts_delete`, `AFTER DELETE ON ${table}`, [
      `INSERT INTO ${fts}(${fts}, rowid, folded) VALUES ('delete', OLD.id, OLD.folded)`,
    ]),
    sqliteTrigger(`${table}_fts_update`, `AFTER UPDATE OF folded ON ${table}`, [
      `INSERT INTO ${fts}(${fts}, rowid, folded) VALUES ('delete', OLD.id, OLD.folded)`,
      `INSERT INTO ${fts}(rowid, folded) VALUES (NEW.id, NEW.folded)`,
    ]),
  ];
}

function sqliteTriggers(): string[] {
  const s: Sql = { dialect: 'sqlite' };
  const documentChanged = (docs: string) => [refreshDocumentSearch(s, docs), ...refreshViewers(docs)];
  const flowOf = (row: 'NEW' | 'OLD') => `SELECT document_id FROM sign_flows WHERE id = ${row}.sign_flow_id`;
  return [
    ...sqliteSearchIndex('document_search'),
    ...sqliteSearchIndex('user_search'),
    sqliteTrigger('documents_lists_insert', 'AFTER INSERT ON documents', [
      `INSERT INTO document_search (document_id, folded) VALUES (NEW.id, paraph_fold(NEW.original_filename))`,
      ...refreshViewers('NEW.id'),
    ]),
    sqliteTrigger(
      'documents_lists_update',
      `AFTER UPDATE OF ${DOCUMENT_LIST_COLUMNS.join(', ')} ON documents
        WHEN ${changedAny(DOCUMENT_LIST_COLUMNS, 'IS NOT')}`,
      documentChanged('NEW.id'),
    ),
    sqliteTrigger(
      'participants_lists_insert',
      'AFTER INSERT ON sign_flow_participants',
      documentChanged(flowOf('NEW')),
    ),
    sqliteTrigger(
      'participants_lists_update',
      `AFTER UPDATE OF ${PARTICIPANT_LIST_COLUMNS.join(', ')} ON sign_flow_participants
        WHEN ${changedAny(PARTICIPANT_LIST_COLUMNS, 'IS NOT')}`,
      documentChanged(flowOf('NEW')),
    ),
    sqliteTrigger(
      'participants_lists_delete',
      'AFTER DELETE ON sign_flow_participants',
      documentChanged(flowOf('OLD')),
    ),
    sqliteTrigger(
      'sign_flows_lists_delete',
      'AFTER DELETE ON sign_flows',
      documentChanged('OLD.document_id'),
    ),
    sqliteTrigger(
      'documents_lists_shown',
      `AFTER UPDATE OF ${DOCUMENT_SHOWN_COLUMNS.join(', ')} ON documents
        WHEN ${changedAny(DOCUMENT_SHOWN_COLUMNS, 'IS NOT')}`,
      [documentsShownChanged('NEW.id')],
    ),
    sqliteTrigger('sign_flows_lists_insert', 'AFTER INSERT ON sign_flows', [
      documentsShownChanged('NEW.document_id'),
    ]),
    sqliteTrigger(
      'sign_flows_lists_update',
      `AFTER UPDATE OF ${FLOW_SHOWN_COLUMNS.join(', ')} ON sign_flows
        WHEN ${changedAny(FLOW_SHOWN_COLUMNS, 'IS NOT')}`,
      [documentsShownChanged('NEW.document_id')],
    ),
    ...(['INSERT', 'DELETE'] as const).map((event) =>
      sqliteTrigger(`document_pages_lists_${event.toLowerCase()}`, `AFTER ${event} ON document_pages`, [
        documentsShownChanged(`${event === 'INSERT' ? 'NEW' : 'OLD'}.document_id`),
      ]),
    ),
    sqliteTrigger('document_pages_lists_update', 'AFTER UPDATE ON document_pages', [
      documentsShownChanged('NEW.document_id'),
    ]),
    ...(['INSERT', 'DELETE'] as const).map((event) =>
      sqliteTrigger(`document_versions_lists_${event.toLowerCase()}`, `AFTER ${event} ON document_versions`, [
        documentsShownChanged(`${event === 'INSERT' ? 'NEW' : 'OLD'}.document_id`),
      ]),
    ),
    sqliteTrigger(
      'document_versions_lists_update',
      `AFTER UPDATE OF ${VERSION_SHOWN_COLUMNS.join(', ')} ON document_versions
        WHEN ${changedAny(VERSION_SHOWN_COLUMNS, 'IS NOT')}`,
      [documentsShownChanged('NEW.document_id')],
    ),
    sqliteTrigger('document_archives_lists_insert', 'AFTER INSERT ON document_archives', [
      `UPDATE document_viewers SET archived = 1 WHERE user_id = NEW.user_id AND document_id = NEW.document_id`,
    ]),
    sqliteTrigger('document_archives_lists_delete', 'AFTER DELETE ON document_archives', [
      `UPDATE document_viewers SET archived = 0 WHERE user_id = OLD.user_id AND document_id = OLD.document_id`,
    ]),
    sqliteTrigger(
      'document_hides_lists_insert',
      'AFTER INSERT ON document_hides',
      refreshViewers('NEW.document_id'),
    ),
    sqliteTrigger(
      'document_hides_lists_delete',
      'AFTER DELETE ON document_hides',
      refreshViewers('OLD.document_id'),
    ),
    sqliteTrigger('users_lists_insert', 'AFTER INSERT ON users', [
      `INSERT INTO user_search (user_id, folded) VALUES (NEW.id, ${userText(s, 'NEW')})`,
      ...refreshViewers(unlinkedDocumentsOf('NEW.email')),
    ]),
    sqliteTrigger(
      'users_lists_update',
      `AFTER UPDATE OF full_name, email ON users
        WHEN OLD.full_name IS NOT NEW.full_name OR OLD.email IS NOT NEW.email`,
      [
        `UPDATE user_search SET folded = ${userText(s, 'NEW')} WHERE user_id = NEW.id`,
        namesChanged(s),
        ...refreshViewers(`${unlinkedDocumentsOf('OLD.email, NEW.email')} AND OLD.email IS NOT NEW.email`),
      ],
    ),
    // After the cascade has removed the person's viewer rows (and counted them out).
    sqliteTrigger('users_lists_delete', 'AFTER DELETE ON users', [
      `DELETE FROM document_list_counts WHERE user_id = OLD.id`,
    ]),
    sqliteTrigger('document_viewers_count_insert', 'AFTER INSERT ON document_viewers', [
      countChange(s, 'NEW', 1),
    ]),
    sqliteTrigger('document_viewers_count_delete', 'AFTER DELETE ON document_viewers', [
      countChange(s, 'OLD', -1),
    ]),
    sqliteTrigger('document_viewers_count_update', 'AFTER UPDATE ON document_viewers', [
      countChange(s, 'OLD', -1),
      countChange(s, 'NEW', 1),
    ]),
  ];
}

// --- PostgreSQL: the fold and the recomputations are functions; each trigger calls them. ---

function pgFunction(name: string, args: string, returns: string, body: string[]): string {
  return `CREATE OR REPLACE FUNCTION ${name}(${args}) RETURNS ${returns} LANGUAGE plpgsql AS $fn$
    BEGIN
      ${body.map((statement) => `${statement};`).join('\n')}
    END $fn$`;
}

function pgTrigger(name: string, when: string, on: string, fn: string, condition?: string): string {
  return `CREATE TRIGGER ${name} ${when} ON ${on} FOR EACH ROW
    ${condition === undefined ? '' : `WHEN (${condition})`} EXECUTE FUNCTION ${fn}()`;
}

function pgFold(): string {
  return `CREATE OR REPLACE FUNCTION paraph_fold(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $fn$ SELECT ${foldExpressionSql('value')} $fn$`;
}

function pgFunctions(): string[] {
  const s: Sql = { dialect: 'postgres' };
  const docs = 'SELECT unnest(doc_ids)';
  const flowOf = (row: 'NEW' | 'OLD') =>
    `(SELECT document_id FROM sign_flows WHERE id = ${row}.sign_flow_id)`;
  return [
    pgFunction('paraph_refresh_document_viewers', 'doc_ids text[]', 'void', refreshViewers(docs)),
    pgFunction('paraph_refresh_document_search', 'doc_ids text[]', 'void', [refreshDocumentSearch(s, docs)]),
    pgFunction('paraph_document_changed', 'doc_id text', 'void', [
      'PERFORM paraph_refresh_document_search(ARRAY[doc_id])',
      'PERFORM paraph_refresh_document_viewers(ARRAY[doc_id])',
    ]),
    pgFunction('paraph_documents_lists', '', 'trigger', [
      `IF TG_OP = 'INSERT' THEN
        INSERT INTO document_search (document_id, folded) VALUES (NEW.id, paraph_fold(NEW.original_filename));
        PERFORM paraph_refresh_document_viewers(ARRAY[NEW.id]);
      ELSE
        PERFORM paraph_document_changed(NEW.id);
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_documents_shown', '', 'trigger', [
      `IF TG_OP = 'DELETE' THEN ${documentsShownChanged('OLD.document_id')};
      ELSIF TG_TABLE_NAME = 'documents' THEN ${documentsShownChanged('NEW.id')};
      ELSE ${documentsShownChanged('NEW.document_id')};
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_participants_lists', '', 'trigger', [
      `IF TG_OP = 'DELETE' THEN PERFORM paraph_document_changed(${flowOf('OLD')});
      ELSE PERFORM paraph_document_changed(${flowOf('NEW')});
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_sign_flows_lists', '', 'trigger', [
      'PERFORM paraph_document_changed(OLD.document_id)',
      'RETURN NULL',
    ]),
    pgFunction('paraph_document_archives_lists', '', 'trigger', [
      `IF TG_OP = 'INSERT' THEN
        UPDATE document_viewers SET archived = 1 WHERE user_id = NEW.user_id AND document_id = NEW.document_id;
      ELSE
        UPDATE document_viewers SET archived = 0 WHERE user_id = OLD.user_id AND document_id = OLD.document_id;
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_document_hides_lists', '', 'trigger', [
      `IF TG_OP = 'INSERT' THEN PERFORM paraph_refresh_document_viewers(ARRAY[NEW.document_id]);
      ELSE PERFORM paraph_refresh_document_viewers(ARRAY[OLD.document_id]);
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_users_lists', '', 'trigger', [
      `IF TG_OP = 'INSERT' THEN
        INSERT INTO user_search (user_id, folded) VALUES (NEW.id, ${userText(s, 'NEW')});
        PERFORM paraph_refresh_document_viewers(ARRAY(${unlinkedDocumentsOf('NEW.email')}));
      ELSIF TG_OP = 'UPDATE' THEN
        UPDATE user_search SET folded = ${userText(s, 'NEW')} WHERE user_id = NEW.id;
        ${namesChanged(s)};
        IF OLD.email IS DISTINCT FROM NEW.email THEN
          PERFORM paraph_refresh_document_viewers(ARRAY(${unlinkedDocumentsOf('OLD.email, NEW.email')}));
        END IF;
      ELSE
        DELETE FROM document_list_counts WHERE user_id = OLD.id;
      END IF`,
      'RETURN NULL',
    ]),
    pgFunction('paraph_document_viewers_count', '', 'trigger', [
      `IF TG_OP IN ('UPDATE', 'DELETE') THEN ${countChange(s, 'OLD', -1)}; END IF`,
      `IF TG_OP IN ('INSERT', 'UPDATE') THEN ${countChange(s, 'NEW', 1)}; END IF`,
      'RETURN NULL',
    ]),
  ];
}

function pgTriggers(): string[] {
  return [
    pgTrigger('documents_lists_insert', 'AFTER INSERT', 'documents', 'paraph_documents_lists'),
    pgTrigger(
      'documents_lists_update',
      `AFTER UPDATE OF ${DOCUMENT_LIST_COLUMNS.join(', ')}`,
      'documents',
      'paraph_documents_lists',
      changedAny(DOCUMENT_LIST_COLUMNS, 'IS DISTINCT FROM'),
    ),
    pgTrigger(
      'participants_lists_insert_delete',
      'AFTER INSERT OR DELETE',
      'sign_flow_participants',
      'paraph_participants_lists',
    ),
    pgTrigger(
      'participants_lists_update',
      `AFTER UPDATE OF ${PARTICIPANT_LIST_COLUMNS.join(', ')}`,
      'sign_flow_participants',
      'paraph_participants_lists',
      changedAny(PARTICIPANT_LIST_COLUMNS, 'IS DISTINCT FROM'),
    ),
    pgTrigger('sign_flows_lists_delete', 'AFTER DELETE', 'sign_flows', 'paraph_sign_flows_lists'),
    pgTrigger(
      'documents_lists_shown',
      `AFTER UPDATE OF ${DOCUMENT_SHOWN_COLUMNS.join(', ')}`,
      'documents',
      'paraph_documents_shown',
      changedAny(DOCUMENT_SHOWN_COLUMNS, 'IS DISTINCT FROM'),
    ),
    pgTrigger('sign_flows_lists_insert', 'AFTER INSERT', 'sign_flows', 'paraph_documents_shown'),
    pgTrigger(
      'sign_flows_lists_update',
      `AFTER UPDATE OF ${FLOW_SHOWN_COLUMNS.join(', ')}`,
      'sign_flows',
      'paraph_documents_shown',
      changedAny(FLOW_SHOWN_COLUMNS, 'IS DISTINCT FROM'),
    ),
    pgTrigger(
      'document_pages_lists',
      'AFTER INSERT OR UPDATE OR DELETE',
      'document_pages',
      'paraph_documents_shown',
    ),
    pgTrigger(
      'document_versions_lists',
      'AFTER INSERT OR DELETE',
      'document_versions',
      'paraph_documents_shown',
    ),
    pgTrigger(
      'document_versions_lists_update',
      `AFTER UPDATE OF ${VERSION_SHOWN_COLUMNS.join(', ')}`,
      'document_versions',
      'paraph_documents_shown',
      changedAny(VERSION_SHOWN_COLUMNS, 'IS DISTINCT FROM'),
    ),
    pgTrigger(
      'document_archives_lists',
      'AFTER INSERT OR DELETE',
      'document_archives',
      'paraph_document_archives_lists',
    ),
    pgTrigger(
      'document_hides_lists',
      'AFTER INSERT OR DELETE',
      'document_hides',
      'paraph_document_hides_lists',
    ),
    pgTrigger('users_lists_insert_delete', 'AFTER INSERT OR DELETE', 'users', 'paraph_users_lists'),
    pgTrigger(
      'users_lists_update',
      'AFTER UPDATE OF full_name, email',
      'users',
      'paraph_users_lists',
      'OLD.full_name IS DISTINCT FROM NEW.full_name OR OLD.email IS DISTINCT FROM NEW.email',
    ),
    pgTrigger(
      'document_viewers_count',
      'AFTER INSERT OR UPDATE OR DELETE',
      'document_viewers',
      'paraph_document_viewers_count',
    ),
  ];
}

export function documentListsMigration(dialect: SqlDialect): Migration {
  const s: Sql = { dialect };
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Statistics first on PostgreSQL: a database fresh from a bulk load may have none yet, and the
      // backfill's joins would be planned blind.
      const analyze =
        'ANALYZE users, documents, sign_flows, sign_flow_participants, document_archives, document_hides';
      const statements =
        dialect === 'postgres'
          ? [pgFold(), analyze, ...tables(s), ...backfill(s), ...pgFunctions(), ...pgTriggers()]
          : [...tables(s), ...backfill(s), ...sqliteTriggers()];
      await runAllOrNothing(db, dialect, statements);
    },
  };
}
