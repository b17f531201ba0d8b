// Private keys at rest: AES-256-GCM under a key derived with scrypt from the deployment's passphrase
// (PARAPH_CA_PASSPHRASE). An envelope says how it was made (KDF parameters, salt, IV, tag), so that keys
// written under other parameters stay readable; the deployment shares one salt, kept with a known value
// sealed under it in server_secrets, so a process derives the key once and a wrong passphrase is told
// apart from a damaged row before any key is used.
import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  randomBytes,
  scrypt,
  type KeyObject,
  type ScryptOptions,
} from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** The row of server_secrets that holds the deployment's salt, as a known text sealed under the passphrase. */
export const KEYRING_RECORD = 'signing_keys_check';
const CHECK_TEXT = 'Paraph signing keys';
const CHECK_LABEL = 'passphrase check';

// 32 MiB and about 100 ms on the thread pool, once per process: the passphrase is meant to be a long random
// value (openssl rand -base64 32), which no work factor needs to stretch much.
const KDF = { N: 2 ** 15, r: 8, p: 1 } as const;
const MAX_MEMORY = 64 * 1024 * 1024;

type KdfParams = { N: number; r: number; p: number; salt: string };

type Envelope = {
  v: 1;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
};

/** What a private key's envelope is bound to: the serial of its certificate. */
export const keyLabel = (serialNumber: string): string => `pki key ${serialNumber}`;

export class WrongPassphraseError extends Error {
  constructor(
    // What the passphrase was: "PARAPH_CA_PASSPHRASE", or the generated file's name.
    source = 'PARAPH_CA_PASSPHRASE',
  ) {
    super(
      `${source === 'PARAPH_CA_PASSPHRASE' ? source : `The passphrase in ${source}`} does not open the signing ` +
        'keys kept in the database: it is not the passphrase they were stored under. Give every instance the ' +
        "deployment's passphrase (PARAPH_CA_PASSPHRASE); if it is lost for good, start once with " +
        'PARAPH_REPLACE_SIGNING_CA=1 to make new keys (signatures made before keep verifying)',
    );
    this.name = 'WrongPassphraseError';
  }
}

export class DamagedKeyError extends Error {
  constructor(label: string) {
    super(
      `The stored private key "${label}" cannot be decrypted although the passphrase is right: the row is damaged`,
    );
    this.name = 'DamagedKeyError';
  }
}

function derive(passphrase: string, params: KdfParams): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: MAX_MEMORY };
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFC'), Buffer.from(params.salt, 'base64'), 32, options, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const value = JSON.parse(text) as Partial<Envelope>;
    const fields = [value.salt, value.iv, value.tag, value.data];
    if (value.v !== 1 || value.kdf !== 'scrypt' || fields.some((field) => typeof field !== 'string'))
      return null;
    if (![value.N, value.r, value.p].every((number) => Number.isInteger(number) && Number(number) > 0))
      return null;
    return value as Envelope;
  } catch {
    return null;
  }
}

const paramsKey = (params: KdfParams): string => `${params.N}:${params.r}:${params.p}:${params.salt}`;

/** Seals and opens byte strings under one passphrase. Derived keys are kept per salt, for the process. */
export class Keyring {
  private readonly passphrase: string;
  readonly params: KdfParams;
  private readonly derived = new Map<string, Promise<Buffer>>();

  constructor(passphrase: string, params: KdfParams, key: Buffer) {
    this.passphrase = passphrase;
    this.params = params;
    this.derived.set(paramsKey(params), Promise.resolve(key));
  }

  static async create(
    passphrase: string,
    salt: string = randomBytes(16).toString('base64'),
  ): Promise<Keyring> {
    const params = { ...KDF, salt };
    return new Keyring(passphrase, params, await derive(passphrase, params));
  }

  private keyFor(params: KdfParams): Promise<Buffer> {
    const id = paramsKey(params);
    let key = this.derived.get(id);
    if (key === undefined) {
      key = derive(this.passphrase, params);
      this.derived.set(id, key);
    }
    return key;
  }

  /** The label (what the bytes are, e.g. the certificate's serial) is authenticated with them. */
  async seal(plain: Uint8Array, label: string): Promise<string> {
    const key = await this.keyFor(this.params);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(label, 'utf8'));
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    const envelope: Envelope = {
      v: 1,
      kdf: 'scrypt',
      ...this.params,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    return JSON.stringify(envelope);
  }

  /** The bytes, or null when this passphrase (or this label) does not open the envelope. */
  async open(sealed: string, label: string): Promise<Buffer | null> {
    const envelope = parseEnvelope(sealed);
    if (envelope === null) return null;
    const key = await this.keyFor(envelope);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
      decipher.setAAD(Buffer.from(label, 'utf8'));
      decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]);
    } catch {
      return null;
    }
  }

  async sealKey(privateKey: KeyObject, label: string): Promise<string> {
    return this.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), label);
  }

  /** A private key this keyring sealed; the deployment's passphrase was checked already, so a failure is damage. */
  async openKey(sealed: string, label: string): Promise<KeyObject> {
    const der = await this.open(sealed, label);
    if (der === null) throw new DamagedKeyError(label);
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }

  /** Does this envelope open with this passphrase? */
  async opens(sealed: string, label: string): Promise<boolean> {
    return (await this.open(sealed, label)) !== null;
  }
}

/** Has the deployment sealed any key yet? */
export async function hasKeyring(db: Kysely<Database>): Promise<boolean> {
  return (await readCheck(db)) !== null;
}

async function readCheck(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', KEYRING_RECORD)
    .executeTakeFirst();
  return row?.value ?? null;
}

async function keyringFor(passphrase: string, check: string, source: string): Promise<Keyring> {
  const envelope = parseEnvelope(check);
  if (envelope === null) throw new Error(`server_secrets.${KEYRING_RECORD} is not a sealed value`);
  const params = { N: envelope.N, r: envelope.r, p: envelope.p, salt: envelope.salt };
  const keyring = new Keyring(passphrase, params, await derive(passphrase, params));
  if ((await keyring.open(check, CHECK_LABEL))?.toString('utf8') !== CHECK_TEXT) {
    throw new WrongPassphraseError(source);
  }
  return keyring;
}

/**
 * The deployment's keyring: the first process on a fresh database chooses the salt (insert-if-absent, so
 * of processes starting at once one salt wins and every one derives from it). Throws
 * WrongPassphraseError when the passphrase is not the one the deployment's keys were sealed under.
 */
export async function openKeyring(
  db: Kysely<Database>,
  passphrase: string,
  source = 'PARAPH_CA_PASSPHRASE',
): Promise<Keyring> {
  let check = await readCheck(db);
  if (check === null) {
    const fresh = await Keyring.create(passphrase);
    await db
      .insertInto('server_secrets')
      .values({ name: KEYRING_RECORD, value: await fresh.seal(Buffer.from(CHECK_TEXT), CHECK_LABEL) })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    check = await readCheck(db);
    if (check === null) throw new Error(`server_secrets.${KEYRING_RECORD} vanished while it was written`);
  }
  return keyringFor(passphrase, check, source);
}

/** Makes `keyring` the deployment's (a lost passphrase replaced): its salt and check replace the old ones. */
export async function writeKeyring(db: Kysely<Database>, keyring: Keyring): Promise<void> {
  const value = await keyringCheck(keyring);
  await db
    .insertInto('server_secrets')
    .values({ name: KEYRING_RECORD, value })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value }))
    .execute();
}

/** The check value a keyring would write, for a rekey that writes it in its own transaction. */
export async function keyringCheck(keyring: Keyring): Promise<string> {
  return keyring.seal(Buffer.from(CHECK_TEXT), CHECK_LABEL);
}
