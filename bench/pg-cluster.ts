// A PostgreSQL for a benchmark: the one BENCH_DATABASE_URL names (a database the benchmark may fill and
// empty), or else a private, throwaway cluster of Debian's PostgreSQL (apt-get install postgresql-15), as
// scripts/pg-test.sh starts for the API tests. Null when neither is there: the benchmark then says so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, existsSync, chownSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type PgCluster = { url: string; description: string; stop(): void };

const PORT = Number(process.env.BENCH_PG_PORT ?? 55_499);

function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions[versions.length - 1];
  return newest === undefined ? null : path.join(root, newest, 'bin');
}

export function startPgCluster(): PgCluster | null {
  const given = process.env.BENCH_DATABASE_URL?.trim();
  if (given) return { url: given, description: 'BENCH_DATABASE_URL', stop: () => undefined };
  const bin = postgresBin();
  if (bin === null) return null;
  const work = mkdtempSync(path.join(os.tmpdir(), 'paraph-bench-pg-'));
  const data = path.join(work, 'data');
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(work, uid, gid);
  }
  const run = (program: string, args: string[]) => {
    const command = [path.join(bin, program), ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
    execFileSync(asRoot ? 'su' : 'sh', asRoot ? ['postgres', '-s', '/bin/sh', '-c', command] : ['-c', command], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  };
  run('initdb', ['-D', data, '-U', 'paraph', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  // Durability is not what is measured: the timed requests only read.
  const options = [
    `-p ${PORT}`,
    `-k ${work}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=256MB',
    '-c max_wal_size=4GB',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-l', path.join(work, 'postgres.log'), '-w', '-o', options, 'start']);
  run('createdb', ['-h', '127.0.0.1', '-p', String(PORT), '-U', 'paraph', 'paraph_bench']);
  return {
    url: `postgres://paraph@127.0.0.1:${PORT}/paraph_bench`,
    description: `a private PostgreSQL ${path.basename(path.dirname(bin))} cluster`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}
