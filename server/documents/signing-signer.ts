// The default signer: the deployment's PKI (server/signing/ca/) through the embedded engine
// (server/signing/local-signer.ts). The PKI is loaded at start by server/start-checks.ts, or at the first
// signature where nothing checked it (tests), so a test that never signs never makes keys.
import type { DeploymentPki } from '../signing/ca/index.ts';
import type { Signer } from '../signing/signer.ts';

export function lazyLocalSigner(pki: () => Promise<DeploymentPki>, clock: () => Date): Signer {
  let engine: Promise<typeof import('../signing/local-signer.ts')> | null = null;
  return {
    async sign(request) {
      engine ??= import('../signing/local-signer.ts');
      const { createLocalSigner } = await engine;
      return createLocalSigner({ pki: await pki(), clock }).sign(request);
    },
  };
}
