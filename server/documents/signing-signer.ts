// The default signer: the deployment's PKI (server/signing/ca/) through the embedded engine
// (server/signing/local-signer.ts). The PKI is loaded at start by server/start-checks.ts, or at the first
// signature where nothing checked it (tests), so a test that never signs never makes keys.
import type { DeploymentPki } from '../signing/ca/index.ts';
import type { SigningServices, SigningServicesOptions } from '../signing/services.ts';
import type { Signer } from '../signing/signer.ts';

/** The deployment's TSA, OCSP responder and CRL, made once over the PKI (the signer and /pki/* share them). */
export function lazySigningServices(
  pki: () => Promise<DeploymentPki>,
  config: { tsaUrl: string | null },
  clock: () => Date,
  options: SigningServicesOptions = {},
): () => Promise<SigningServices> {
  let created: Promise<SigningServices> | null = null;
  return () => {
    created ??= Promise.all([pki(), import('../signing/services.ts')]).then(([loaded, { signingServices }]) =>
      signingServices(loaded, config, clock, options),
    );
    created.catch(() => {
      created = null;
    });
    return created;
  };
}

export function lazyLocalSigner(
  pki: () => Promise<DeploymentPki>,
  services: () => Promise<SigningServices>,
  clock: () => Date,
): Signer {
  let created: Promise<Signer> | null = null;
  const signer = (): Promise<Signer> => {
    created ??= Promise.all([pki(), services(), import('../signing/local-signer.ts')]).then(
      ([loaded, shared, { createLocalSigner }]) => createLocalSigner({ pki: loaded, services: shared, clock }),
    );
    // A failed creation (the database away at the first signature) is tried again on the next one.
    created.catch(() => {
      created = null;
    });
    return created;
  };
  return { sign: async (request) => (await signer()).sign(request) };
}
