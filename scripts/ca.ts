// `npm run ca -- <command>`: the deployment's signing CA, for its operator. Run it with the server's own
// environment (DATABASE_URL, PARAPH_DATA_DIR, PARAPH_CA_PASSPHRASE, PARAPH_CA_CERT / _KEY,
// PARAPH_PUBLIC_ORIGIN): it loads the CA exactly as a start would, and makes it when the deployment has
// none yet. What it reports goes to stdout; log lines (JSON, as the server writes them) to stderr.
import { X509Certificate } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { loadConfig, MIN_CA_PASSPHRASE_LENGTH } from '../server/config.ts';
import { openMigratedDatabase } from '../server/db/database.ts';
import type { Database } from '../server/db/schema.ts';
import { errorText, logOptions } from '../server/http/logging.ts';
import { loadDeploymentPki, type DeploymentPki } from '../server/signing/ca/index.ts';
import { resolvePassphrase } from '../server/signing/ca/passphrase.ts';
import { rekeyDeployment } from '../server/signing/ca/rekey.ts';
import { REVOCATION_REASONS, unrevokedSerialsFor } from '../server/signing/ca/store.ts';
import type { RevocationReason } from '../server/signing/pki/types.ts';

const REASONS = REVOCATION_REASONS.filter((reason) => reason !== 'removeFromCRL');

const USAGE = `Usage: npm run ca -- <command>
  show                            the CA: subject, SHA-256 fingerprint, validity, where it comes from
  export-cert                     the CA certificate (and the chain given with it) as PEM, for trust lists
  revoke <serial|email> [reason]  revoke one certificate, or every certificate of a person not yet revoked;
                                  reason: ${REASONS.join(', ')}
                                  (default unspecified)
  rekey                           encrypt the stored keys under PARAPH_CA_NEW_PASSPHRASE instead of the
                                  current passphrase (stop every instance first)
Run it with the server's environment.`;

type Output = { out(text: string): void; err(text: string): void };

const log = pino(logOptions(process.env.PARAPH_LOG_LEVEL?.trim() || 'info'), pino.destination(2));

function describe(der: Uint8Array): { subject: string; serial: string; from: string; to: string } {
  const x509 = new X509Certificate(der);
  return {
    subject: x509.subject.split('\n').join(', '),
    serial: x509.serialNumber,
    from: new Date(x509.validFrom).toISOString(),
    to: new Date(x509.validTo).toISOString(),
  };
}

function show(pki: DeploymentPki, output: Output): void {
  const ca = describe(pki.ca.certificate);
  const source = pki.caSource;
  const where =
    source.kind === 'files'
      ? `given as files (PARAPH_CA_CERT: ${source.location})`
      : source.origin === 'generated'
        ? `the database (made by Paraph on ${source.since.toISOString()})`
        : `the database (moved in from a data folder on ${source.since.toISOString()})`;
  const lines = [
    `Subject:        ${ca.subject}`,
    `SHA-256:        ${pki.caFingerprint}`,
    `Serial:         ${ca.serial}`,
    `Valid:          ${ca.from} to ${ca.to}`,
    `Kept in:        ${where}`,
  ];
  if (pki.ca.chain.length > 0) {
    lines.push(`Chain:          ${pki.ca.chain.map((der) => describe(der).subject).join(' <- ')}`);
  }
  for (const [label, key] of [
    ['Time-stamping: ', pki.tsa],
    ['OCSP responder:', pki.ocspResponder],
  ] as const) {
    const described = describe(key.certificate);
    lines.push(`${label} ${described.subject}, serial ${described.serial}, valid until ${described.to}`);
  }
  output.out(`${lines.join('\n')}\n`);
}

function exportCertificate(pki: DeploymentPki, output: Output): void {
  output.out(
    [pki.ca.certificate, ...pki.ca.chain].map((der) => new X509Certificate(der).toString()).join(''),
  );
}

async function revoke(
  pki: DeploymentPki,
  db: Kysely<Database>,
  args: string[],
  output: Output,
): Promise<number> {
  const [target, reasonArg = 'unspecified'] = args;
  if (target === undefined || args.length > 2) {
    output.err(`${USAGE}\n`);
    return 1;
  }
  const reason: RevocationReason | undefined = REASONS.find(
    (name) => name.toLowerCase() === reasonArg.toLowerCase(),
  );
  if (reason === undefined) {
    output.err(`Unknown reason "${reasonArg}": one of ${REASONS.join(', ')}.\n`);
    return 1;
  }
  const serials = target.includes('@') ? await unrevokedSerialsFor(db, target) : [target];
  if (serials.length === 0) {
    output.err(`No certificate of ${target} is left to revoke.\n`);
    return 1;
  }
  let status = 0;
  for (const serial of serials) {
    const outcome = await pki.revoke(serial, reason, new Date());
    switch (outcome.kind) {
      case 'revoked':
        // No document's audit trail fits a revocation: the log is its record, beside the database row.
        log.info(
          { serialNumber: outcome.serialNumber, reason, certificate: outcome.what, by: 'operator' },
          'a signing certificate was revoked',
        );
        output.out(
          `Revoked ${outcome.serialNumber} (${outcome.what === 'signer' ? "a person's certificate" : outcome.what}) as ${reason}.\n`,
        );
        if (outcome.what !== 'signer') {
          output.out('Restart every instance, so that all of them issue and use a new one.\n');
        }
        break;
      case 'already':
        output.out(
          `${outcome.serialNumber} was revoked already (${outcome.status.status === 'revoked' ? `${outcome.status.reason}, ${outcome.status.revokedAt.toISOString()}` : ''}).\n`,
        );
        break;
      case 'ca':
        output.err(
          `${outcome.serialNumber} is the CA itself: a root cannot revoke itself. Replace it instead (PARAPH_REPLACE_SIGNING_CA).\n`,
        );
        status = 1;
        break;
      case 'unknown':
        output.err(`No certificate with serial ${outcome.serialNumber} was issued here.\n`);
        status = 1;
        break;
    }
  }
  return status;
}

async function main(argv: string[], env: NodeJS.ProcessEnv, output: Output): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || !['show', 'export-cert', 'revoke', 'rekey'].includes(command)) {
    output.err(
      `${command === undefined ? 'No command given.' : `Unknown command '${command}'.`}\n${USAGE}\n`,
    );
    return 1;
  }
  const config = loadConfig(env);
  const { db } = await openMigratedDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    log,
  });
  try {
    if (command === 'rekey') {
      const next = env.PARAPH_CA_NEW_PASSPHRASE?.trim() ?? '';
      // The same rule as PARAPH_CA_PASSPHRASE's, which it becomes.
      if ([...next].length < MIN_CA_PASSPHRASE_LENGTH) {
        output.err(
          `Set PARAPH_CA_NEW_PASSPHRASE to the passphrase the keys are to be encrypted under, at least ` +
            `${MIN_CA_PASSPHRASE_LENGTH} characters (e.g. openssl rand -base64 32).\n`,
        );
        return 1;
      }
      const current = await resolvePassphrase(config, log, async () => true);
      const outcome = await rekeyDeployment(db, current.value, next);
      if (current.source === 'generated') await rm(current.file, { force: true });
      log.info({ ...outcome, by: 'operator' }, 'the signing keys were encrypted under a new passphrase');
      output.out(
        `${outcome.rekeyed} keys are now encrypted under PARAPH_CA_NEW_PASSPHRASE` +
          `${outcome.unreadable > 0 ? ` (${outcome.unreadable} retired keys left as they were)` : ''}. ` +
          'Set PARAPH_CA_PASSPHRASE to it on every instance before starting them.\n',
      );
      return 0;
    }
    const pki = await loadDeploymentPki({ db, config, clock: () => new Date(), log });
    if (command === 'show') show(pki, output);
    if (command === 'export-cert') exportCertificate(pki, output);
    if (command === 'revoke') return await revoke(pki, db, args, output);
    return 0;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
})
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    process.stderr.write(`npm run ca: ${errorText(error)}\n`);
    process.exitCode = 1;
  });
