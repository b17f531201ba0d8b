// Under scripts/pg-test.sh, each vitest worker gets a database of its own (paraph_test_1, _2, ...): test
// apps make a schema each and drop it when done, and Kysely's migrator, listing the tables of every schema
// of its database, fails when another worker drops one at that moment. Without TEST_DATABASE_URL (SQLite)
// or PG_TEST_WORKERS (one database given by hand) nothing changes.
// Test files share a worker's process (the API project does not isolate them), so this runs once per file:
// the database each file gets is derived from the URL the script gave, kept aside the first time.
process.env.PARAPH_PG_TEST_BASE_URL ??= process.env.TEST_DATABASE_URL?.trim() ?? '';
const url = process.env.PARAPH_PG_TEST_BASE_URL;
const workers = Number(process.env.PG_TEST_WORKERS ?? '0');
const pool = Number(process.env.VITEST_POOL_ID ?? '1');
if (url !== '' && workers > 0) {
  const perWorker = new URL(url);
  perWorker.pathname = `${perWorker.pathname}_${((pool - 1) % workers) + 1}`;
  process.env.TEST_DATABASE_URL = perWorker.toString();
}
