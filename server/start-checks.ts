// What start-up verifies before serving, so that a wrong setting stops the server with one sentence
// instead of surfacing at the first upload or signature: the object store's bucket and credentials, and,
// on a shared database, that this instance signs with the deployment's CA. A bucket whose CORS would stop
// browsers is only warned about: the server itself can still use it.
import type { AppDeps } from './context.ts';
import { loadOrCreateCa } from './signing/ca.ts';
import { claimDeploymentCa } from './signing/deployment-ca.ts';

/** Throws one sentence when this instance must not serve. */
export async function checkAtStart(deps: AppDeps): Promise<void> {
  await deps.store.checkBucket?.();
  // On SQLite the database and the CA share one data folder: one instance by construction, nothing to
  // compare with. On PostgreSQL other instances may share the database but not this data folder.
  if (deps.config.databaseUrl !== null) {
    const ca = await loadOrCreateCa(deps.config.dataDir, deps.clock);
    const outcome = await claimDeploymentCa(deps.db, ca, { replace: deps.config.replaceSigningCa });
    if (deps.config.replaceSigningCa && outcome !== 'replaced') {
      // Left on, it would let an instance with another CA take over at its every start.
      deps.log.warn(
        { caDirectory: ca.directory },
        'PARAPH_REPLACE_SIGNING_CA=1 found nothing to replace; remove it so that a stranger CA is refused again',
      );
    }
    if (outcome === 'replaced') {
      deps.log.warn(
        { caDirectory: ca.directory },
        "this instance's signing CA now replaces the one recorded for the deployment; signatures made before chain to the old root. Remove PARAPH_REPLACE_SIGNING_CA before the next start",
      );
    }
  }
}

/** Warns when browsers at the public origin will not be let through to the object store. */
export async function warnAboutBrowserAccess(deps: AppDeps): Promise<void> {
  const problem = await deps.store.checkBrowserAccess?.(deps.config.publicOrigin);
  if (problem !== null && problem !== undefined)
    deps.log.warn({ publicOrigin: deps.config.publicOrigin }, problem);
}
