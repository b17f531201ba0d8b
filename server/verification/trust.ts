// The trust list of verifications: the deployment's CA. A signature whose chain ends anywhere else is
// reported as "not from this deployment's trust list", whatever else holds.
import type { Config } from '../config.ts';
import { loadOrCreateCa } from '../signing/ca.ts';

// Reading the CA checks its key against its certificate: done once per data folder, not per request.
const loaded = new Map<string, Promise<Uint8Array[]>>();

/** The DER of every certificate verifications trust as a root. */
export function trustAnchors(config: Pick<Config, 'dataDir'>): Promise<Uint8Array[]> {
  let anchors = loaded.get(config.dataDir);
  if (anchors === undefined) {
    // Until the deployment CA of server/signing/ca/ replaces it: the data folder's CA, the one that signs.
    anchors = loadOrCreateCa(config.dataDir).then((ca) => [new Uint8Array(ca.certificateDer)]);
    anchors.catch(() => loaded.delete(config.dataDir));
    loaded.set(config.dataDir, anchors);
  }
  return anchors;
}
