// How many documents each person's lists hold per day of each sort column (`document_list_days`), so a
// page deep in a list is found without walking every document before it: the day the page starts in is a
// sum over a few hundred rows, and the walk then skips only within that day. Like `document_list_counts`
// (migration 0014), it is split by archive, state and "must act", so every category has its days, and it
// is written only by triggers on `document_viewers`, in the transaction of the change.
//
// A day is the first ten characters of the sort value ('2026-11-27' of an ISO time), in the sort's order
// under any collation. Existing rows are counted here, before the triggers exist.
import type { Kysely, Migration } from 'kysely';
import { runAllOrNothing } from './all-or-nothing.ts';
import type { SqlDialect } from '../dialect.ts';

// The sort columns a list offers (list-query.ts).
const SORT_COLUMNS = ['created_at', 'autodeletion_at'] as const;

const day = (row: string, column: string) => `substr(${row}.${column}, 1, 10)`;

// Not for someone whose account is gone (as migration 0014's counts: PostgreSQL runs a cascade's triggers
// after those of the statement that caused it).
function dayChange(dialect: SqlDialect, row: 'NEW' | 'OLD', column: string, documents: 1 | -1): string {
  const days = dialect === 'postgres' ? 'document_list_days.' : '';
  return `INSERT INTO document_list_days (user_id, sorted_by, archived, day, state, must_act, documents)
    SELECT ${row}.user_id, '${column}', ${row}.archived, ${day(row, column)}, ${row}.state, ${row}.must_act, ${documents}
    WHERE EXISTS (SELECT 1 FROM users WHERE id = ${row}.user_id)
    ON CONFLICT (user_id, sorted_by, archived, day, state, must_act) DO UPDATE
    SET documents = ${days}documents ${documents > 0 ? '+' : '-'} 1`;
}

const changes = (dialect: SqlDialect, row: 'NEW' | 'OLD', documents: 1 | -1) =>
  SORT_COLUMNS.map((column) => dayChange(dialect, row, column, documents));

function statements(dialect: SqlDialect): string[] {
  const withoutRowid = dialect === 'sqlite' ? ' WITHOUT ROWID' : '';
  const create = [
    // In key order a person's days of one sort column and archive flag come one after the other, in the
    // list's order.
    `CREATE TABLE document_list_days (
      user_id TEXT NOT NULL,
      sorted_by TEXT NOT NULL,
      archived INTEGER NOT NULL,
      day TEXT NOT NULL,
      state TEXT NOT NULL,
      must_act INTEGER NOT NULL,
      documents INTEGER NOT NULL,
      PRIMARY KEY (user_id, sorted_by, archived, day, state, must_act))${withoutRowid}`,
    ...SORT_COLUMNS.map(
      (
        column,
      ) => `INSERT INTO document_list_days (user_id, sorted_by, archived, day, state, must_act, documents)
        SELECT user_id, '${column}', archived, ${day('v', column)}, state, must_act, count(*)
        FROM document_viewers v GROUP BY user_id, archived, ${day('v', column)}, state, must_act`,
    ),
  ];
  if (dialect === 'sqlite') {
    const trigger = (name: string, when: string, body: string[]) =>
      `CREATE TRIGGER ${name} ${when} BEGIN ${body.map((statement) => `${statement};`).join('\n')} END`;
    return [
      ...create,
      trigger('document_viewers_days_insert', 'AFTER INSERT ON document_viewers', changes(dialect, 'NEW', 1)),
      trigger(
        'document_viewers_days_delete',
        'AFTER DELETE ON document_viewers',
        changes(dialect, 'OLD', -1),
      ),
      trigger('document_viewers_days_update', 'AFTER UPDATE ON document_viewers', [
        ...changes(dialect, 'OLD', -1),
        ...changes(dialect, 'NEW', 1),
      ]),
      // After the cascade has removed the person's viewer rows.
      trigger('users_list_days_delete', 'AFTER DELETE ON users', [
        'DELETE FROM document_list_days WHERE user_id = OLD.id',
      ]),
    ];
  }
  const body = (statementsOf: string[]) => statementsOf.map((statement) => `${statement};`).join('\n');
  return [
    ...create,
    `CREATE OR REPLACE FUNCTION paraph_document_viewers_days() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN ${body(changes(dialect, 'OLD', -1))} END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${body(changes(dialect, 'NEW', 1))} END IF;
      RETURN NULL;
    END $fn$`,
    `CREATE TRIGGER document_viewers_days AFTER INSERT OR UPDATE OR DELETE ON document_viewers
      FOR EACH ROW EXECUTE FUNCTION paraph_document_viewers_days()`,
    `CREATE OR REPLACE FUNCTION paraph_users_list_days() RETURNS trigger LANGUAGE plpgsql AS $fn$
    BEGIN
      DELETE FROM document_list_days WHERE user_id = OLD.id;
      RETURN NULL;
    END $fn$`,
    `CREATE TRIGGER users_list_days AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION paraph_users_list_days()`,
  ];
}

export function documentListDaysMigration(dialect: SqlDialect): Migration {
  return { up: (db: Kysely<unknown>) => runAllOrNothing(db, dialect, statements(dialect)) };
}
