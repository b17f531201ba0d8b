// The default signer: the local certificate authority (server/signing/local-signer.ts), created on the
// first signature rather than at start-up, so a server or a test that never signs never generates keys.
import type { Config } from '../config.ts';
import type { Signer } from '../signing/signer.ts';

export function lazyLocalSigner(config: Pick<Config, 'dataDir'>, clock: () => Date): Signer {
  let created: Promise<Signer> | null = null;
  const signer = (): Promise<Signer> => {
    created ??= import('../signing/local-signer.ts').then(({ createLocalSigner }) =>
      createLocalSigner({ dataDir: config.dataDir, clock }),
    );
    // A failed creation (a data folder not writable yet) is tried again on the next signature.
    created.catch(() => {
      created = null;
    });
    return created;
  };
  return { sign: async (request) => (await signer()).sign(request) };
}
