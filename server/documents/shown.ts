// What a document resource shows beyond the document's own row, read in the same statement as the row:
// one query for however many documents, whatever it shows of them (serialize.ts turns the rows into
// resources; a list reads only the documents whose kept resource is out of date, listed-resources.ts).
import { sql, type RawBuilder } from 'kysely';
import type { AppDeps, AuthUser } from '../context.ts';
import type { SqlDialect } from '../db/dialect.ts';
import type { DocumentRow, SignFlowState, SignFlowType } from '../db/schema.ts';

/**
 * Its owner, its flow, the flow's participants, its page images, the level of its last signature, and
 * whether the viewer archived it. The lists (participants, pages) come as JSON: text from SQLite, parsed
 * already from PostgreSQL.
 */
export type ShownColumns = {
  owner_full_name: string;
  owner_email: string;
  flow_type: SignFlowType | null;
  flow_state: SignFlowState | null;
  participants: unknown;
  pages: unknown;
  card_type: string | null;
  archived: number | boolean;
};

// The document's own columns a resource shows (not its checksum).
export type ShownDocumentRow = Omit<DocumentRow, 'sha256'>;
export type ShownDocument = ShownDocumentRow & ShownColumns;

const DOCUMENT_COLUMNS: (keyof ShownDocumentRow)[] = [
  'id',
  'owner_id',
  'original_filename',
  'file_key',
  'file_size',
  'page_count',
  'state',
  'images_state',
  'created_at',
  'updated_at',
  'autodeletion_at',
  'signed_file_key',
  'unavailable_pages',
];

/** The document `d`'s own columns of ShownDocumentRow. */
export const DOCUMENT_SELECTION = sql.raw(DOCUMENT_COLUMNS.map((column) => `d.${column}`).join(', '));

// One JSON array per document of the rows a subquery finds, each row an array of `values`. In no
// particular order: the serializer orders them (an ORDER BY here costs a sort per document).
function jsonRows(dialect: SqlDialect, values: string): string {
  return dialect === 'sqlite'
    ? `json_group_array(json_array(${values}))`
    : `json_agg(json_build_array(${values}))`;
}

// The same text for every query of a dialect: built once.
function shownText(dialect: SqlDialect): string {
  return `o.full_name AS owner_full_name, o.email AS owner_email, f.type AS flow_type, f.state AS flow_state,
    (SELECT ${jsonRows(dialect, 'p.role, p.state, p.user_id, p.email, p.position')}
      FROM sign_flow_participants p WHERE p.sign_flow_id = f.id) AS participants,
    CASE WHEN d.images_state = 'ready' THEN
      (SELECT ${jsonRows(dialect, 'i.page_number, i.image_key')} FROM document_pages i WHERE i.document_id = d.id)
    END AS pages,
    CASE WHEN d.state = 'signed' THEN
      (SELECT x.smart_card_type FROM document_versions x WHERE x.document_id = d.id AND x.state = 'signed'
        ORDER BY x.answered_at DESC, x.id DESC LIMIT 1)
    END AS card_type`;
}

const SHOWN = { sqlite: sql.raw(shownText('sqlite')), postgres: sql.raw(shownText('postgres')) };

/**
 * The columns of ShownColumns over the document `d`, its owner `o` and its flow `f` (SHOWN_JOINS), for
 * the viewer. Correlated subqueries, so a page of twenty reads twenty documents' worth and no more. A list
 * knows whether the viewer archived each row (`archived`); anyone else asks the archives.
 */
export function shownColumns(
  deps: AppDeps,
  viewer: AuthUser,
  archived?: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const archivedByViewer =
    archived ??
    sql`CASE WHEN EXISTS (
      SELECT 1 FROM document_archives a WHERE a.document_id = d.id AND a.user_id = ${viewer.id}) THEN 1 ELSE 0 END`;
  return sql`${SHOWN[deps.config.databaseUrl === null ? 'sqlite' : 'postgres']}, ${archivedByViewer} AS archived`;
}

export const SHOWN_JOINS = sql`JOIN users o ON o.id = d.owner_id LEFT JOIN sign_flows f ON f.document_id = d.id`;

/** A document's row with what it shows, and the version of that (migration 0016; null without one). */
export type ShownWithVersion = ShownDocument & { version: number | string | null };

/**
 * The documents of `ids` with what they show the viewer, and their versions read in the same statement
 * (what is kept of one is kept under the version it was read with), by id. Ids of documents gone are
 * missing.
 */
export async function readShownDocuments(
  deps: AppDeps,
  viewer: AuthUser,
  ids: readonly string[],
): Promise<Map<string, ShownWithVersion>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<ShownWithVersion>`
    SELECT ${DOCUMENT_SELECTION}, lv.version, ${shownColumns(deps, viewer)}
    FROM documents d LEFT JOIN document_list_versions lv ON lv.document_id = d.id ${SHOWN_JOINS}
    WHERE d.id IN (${sql.join(ids)})`.execute(deps.db);
  return new Map(rows.map((row) => [row.id, row]));
}
