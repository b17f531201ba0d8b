// RSA keys for the test apps' certificate authorities, made as the server makes them, but each handed
// out again by later apps of the same test process. Making a key is the largest cost of a test that signs
// (a 3072-bit CA key about 0.8 s of CPU, a 2048-bit one about 0.3 s: some 85 CPU seconds over the API
// suite's 230 keys). Keys go round in a fixed order, so one app never gets a key twice unless it makes
// more keys of a size than the pool holds, and the next app's keys differ from the last one's; a CA
// replaced in a test gets a key of its own. Tests about how the server makes keys read what it made, which
// is still a key of the size asked for.
import type { KeyObject } from 'node:crypto';
import { generateRsaKey } from '../../server/signing/ca/issue.ts';

// More than any one app makes: the CA's, the TSA's, the OCSP responder's and a person's key each.
const POOL_SIZE: Readonly<Record<number, number>> = { 2048: 24, 3072: 6 };

const pools = new Map<number, { keys: Promise<KeyObject>[]; next: number }>();

export function pooledRsaKey(bits: number): Promise<KeyObject> {
  const size = POOL_SIZE[bits];
  if (size === undefined) return generateRsaKey(bits);
  let pool = pools.get(bits);
  if (pool === undefined) {
    pool = { keys: [], next: 0 };
    pools.set(bits, pool);
  }
  const at = pool.next;
  pool.next = (at + 1) % size;
  const key = (pool.keys[at] ??= generateRsaKey(bits));
  // A key that failed to be made is made again by the next app that asks.
  key.catch(() => {
    if (pool.keys[at] === key) delete pool.keys[at];
  });
  return key;
}
