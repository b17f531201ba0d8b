// What start-up verifies before serving, so that a wrong setting stops the server with one sentence
// instead of surfacing at the first upload or signature: the object store's bucket and credentials, and
// the deployment's signing CA (server/signing/ca/): the passphrase opens its keys, a CA given as files is
// usable and the one the other instances sign with, a data-folder CA of an earlier version is moved into
// the database. A bucket whose CORS would stop browsers is only warned about: the server itself can use it.
import type { AppDeps } from './context.ts';

/** Throws one sentence when this instance must not serve. */
export async function checkAtStart(deps: AppDeps): Promise<void> {
  await deps.store.checkBucket?.();
  // Made here on a fresh deployment (a second or two for the RSA keys, off the event loop); instances
  // starting at once on one database end with one CA (see server/signing/ca/store.ts).
  await deps.pki();
}

/** Warns when browsers at the public origin will not be let through to the object store. */
export async function warnAboutBrowserAccess(deps: AppDeps): Promise<void> {
  const problem = await deps.store.checkBrowserAccess?.(deps.config.publicOrigin);
  if (problem !== null && problem !== undefined)
    deps.log.warn({ publicOrigin: deps.config.publicOrigin }, problem);
}
