// AWS Signature Version 4 for browser POST uploads (the "POST policy"), as S3 documents it: the policy is a
// base64 JSON document, its signature an HMAC-SHA256 under a key derived from the secret, the date, the
// region and the service. The local store signs and verifies with these, so the browser's upload code is
// the same whichever store is behind it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SIGV4_ALGORITHM = 'AWS4-HMAC-SHA256';
const SERVICE = 's3';
const TERMINATOR = 'aws4_request';

// 20240102T030405Z
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export function parseAmzDate(value: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

// The key changes once a day: a document with 500 page images signs 500 links in one answer, and
// deriving the key each time was four extra HMACs per link.
let lastKey: { secret: string; dateStamp: string; region: string; key: Buffer } | null = null;

export function signingKey(secret: string, dateStamp: string, region: string): Buffer {
  if (lastKey?.secret === secret && lastKey.dateStamp === dateStamp && lastKey.region === region) {
    return lastKey.key;
  }
  const dateKey = hmac(`AWS4${secret}`, dateStamp);
  const key = hmac(hmac(hmac(dateKey, region), SERVICE), TERMINATOR);
  lastKey = { secret, dateStamp, region, key };
  return key;
}

export function signPolicy(secret: string, dateStamp: string, region: string, policyBase64: string): string {
  return createHmac('sha256', signingKey(secret, dateStamp, region))
    .update(policyBase64, 'utf8')
    .digest('hex');
}

export function credentialScope(accessKeyId: string, dateStamp: string, region: string): string {
  return `${accessKeyId}/${dateStamp}/${region}/${SERVICE}/${TERMINATOR}`;
}

export type ParsedCredential = { accessKeyId: string; dateStamp: string; region: string };

export function parseCredential(value: string): ParsedCredential | null {
  const parts = value.split('/');
  if (parts.length !== 5) return null;
  const [accessKeyId, dateStamp, region, service, terminator] = parts;
  if (!accessKeyId || !dateStamp || !region || service !== SERVICE || terminator !== TERMINATOR) return null;
  if (!/^\d{8}$/.test(dateStamp)) return null;
  return { accessKeyId, dateStamp, region };
}

// Hex signatures compared in constant time, so a forger learns nothing from how long a refusal takes.
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  if (!/^[0-9a-f]+$/i.test(givenHex) || givenHex.length !== expectedHex.length) return false;
  return timingSafeEqual(Buffer.from(expectedHex, 'hex'), Buffer.from(givenHex.toLowerCase(), 'hex'));
}

// --- Presigned GET links (query-string authentication) ---

// RFC 3986 unreserved characters stay, everything else is %XX, as SigV4 canonical forms require.
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function canonicalUri(bucket: string, key: string): string {
  return `/${uriEncode(bucket)}/${key.split('/').map(uriEncode).join('/')}`;
}

export type QueryParams = ReadonlyArray<readonly [string, string]>;

function canonicalQuery(params: QueryParams): string {
  return params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

// The local store's links are relative (same origin), so no header, not even Host, is signed:
// X-Amz-SignedHeaders is empty and the canonical headers with it.
export function signQuery(
  secret: string,
  credential: ParsedCredential,
  method: string,
  uri: string,
  params: QueryParams,
  date: string,
): string {
  const canonicalRequest = [method, uri, canonicalQuery(params), '', '', 'UNSIGNED-PAYLOAD'].join('\n');
  const stringToSign = [
    SIGV4_ALGORITHM,
    date,
    `${credential.dateStamp}/${credential.region}/${SERVICE}/${TERMINATOR}`,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  return createHmac('sha256', signingKey(secret, credential.dateStamp, credential.region))
    .update(stringToSign, 'utf8')
    .digest('hex');
}

// --- The policy document ---

export type PolicyCondition =
  | { kind: 'eq'; field: string; value: string }
  | { kind: 'starts-with'; field: string; value: string }
  | { kind: 'content-length-range'; min: number; max: number };

export type PostPolicy = { expiration: Date; conditions: PolicyCondition[] };

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function fieldName(raw: string): string {
  // Conditions name form fields as "$key"; S3 compares field names case-insensitively.
  return (raw.startsWith('$') ? raw.slice(1) : raw).toLowerCase();
}

function asText(value: JsonValue | undefined): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

function parseCondition(raw: JsonValue): PolicyCondition | null {
  if (Array.isArray(raw)) {
    const [operator, first, second] = raw;
    if (raw.length !== 3 || typeof operator !== 'string') return null;
    const op = operator.toLowerCase();
    if (op === 'content-length-range') {
      const min = Number(first);
      const max = Number(second);
      if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 0 || max < min) return null;
      return { kind: 'content-length-range', min, max };
    }
    const value = asText(second);
    if (typeof first !== 'string' || !first.startsWith('$') || value === null) return null;
    if (op === 'eq' || op === 'starts-with') return { kind: op, field: fieldName(first), value };
    return null;
  }
  if (raw !== null && typeof raw === 'object') {
    const entries = Object.entries(raw);
    const entry = entries[0];
    if (entries.length !== 1 || entry === undefined) return null;
    const value = asText(entry[1]);
    return value === null ? null : { kind: 'eq', field: fieldName(entry[0]), value };
  }
  return null;
}

export function encodePolicy(expiration: Date, conditions: JsonValue[]): string {
  return Buffer.from(JSON.stringify({ expiration: expiration.toISOString(), conditions }), 'utf8').toString(
    'base64',
  );
}

export function decodePolicy(policyBase64: string): PostPolicy | null {
  let document: JsonValue;
  try {
    document = JSON.parse(Buffer.from(policyBase64, 'base64').toString('utf8')) as JsonValue;
  } catch {
    return null;
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return null;
  const { expiration, conditions } = document;
  if (typeof expiration !== 'string' || !Array.isArray(conditions)) return null;
  const expires = new Date(expiration);
  if (Number.isNaN(expires.getTime())) return null;
  const parsed: PolicyCondition[] = [];
  for (const raw of conditions) {
    const condition = parseCondition(raw);
    if (condition === null) return null;
    parsed.push(condition);
  }
  return { expiration: expires, conditions: parsed };
}

// Fields S3 never asks a policy to cover: the signature itself, the policy, the file, and x-ignore-*.
function isExemptField(name: string): boolean {
  return name === 'policy' || name === 'x-amz-signature' || name === 'file' || name.startsWith('x-ignore-');
}

export type ConditionFailure =
  { reason: 'condition'; condition: string } | { reason: 'extra_field'; field: string };

// Checks every eq / starts-with condition against the form fields (bucket against the URL's bucket), and
// that the form carries no field the policy does not name. The length range is checked while streaming.
export function checkConditions(
  policy: PostPolicy,
  fields: ReadonlyMap<string, string>,
  bucket: string,
): ConditionFailure | null {
  const covered = new Set<string>();
  for (const condition of policy.conditions) {
    if (condition.kind === 'content-length-range') continue;
    covered.add(condition.field);
    const actual = condition.field === 'bucket' ? bucket : fields.get(condition.field);
    const holds =
      actual !== undefined &&
      (condition.kind === 'eq' ? actual === condition.value : actual.startsWith(condition.value));
    if (!holds) {
      return {
        reason: 'condition',
        condition: `["${condition.kind}", "$${condition.field}", "${condition.value}"]`,
      };
    }
  }
  for (const name of fields.keys()) {
    if (!covered.has(name) && !isExemptField(name)) return { reason: 'extra_field', field: name };
  }
  return null;
}

export function lengthRange(policy: PostPolicy): { min: number; max: number } | null {
  for (const condition of policy.conditions) {
    if (condition.kind === 'content-length-range') return { min: condition.min, max: condition.max };
  }
  return null;
}
