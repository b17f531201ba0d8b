// Configuration comes from the environment only, so several instances started the same way behave alike.
import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type S3Config = {
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
};

/** The unit of every *_DAYS setting. */
export const DAY_MS = 24 * 60 * 60 * 1000;

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  // A postgres:// or postgresql:// URL with a host (DATABASE_URL); null for the embedded SQLite file. Never
  // logged: it may hold a password.
  databaseUrl: string | null;
  demo: boolean;
  maxUploadBytes: number;
  // Upload grants (POST /upload_requests) a person may get in any minute (PARAPH_UPLOAD_GRANTS_PER_MINUTE).
  uploadGrantsPerMinute: number;
  // How often the cleanup job removes deleted documents' files, unused uploads and stale temporary files
  // (PARAPH_CLEANUP_INTERVAL_MS).
  cleanupIntervalMs: number;
  // The longest a shutdown may take (PARAPH_SHUTDOWN_TIMEOUT_MS); then the process exits anyway, with 1.
  shutdownTimeoutMs: number;
  // When set, GET /metrics asks for it as a bearer token (PARAPH_METRICS_TOKEN).
  metricsToken: string | null;
  retentionDays: number;
  // Days an error report (with the client's address) is kept before the hourly job removes it.
  errorReportRetentionDays: number;
  s3: S3Config | null;
  logLevel: string;
  appDir: string;
  // The proxies (addresses, CIDR ranges, or proxy-addr's loopback / linklocal / uniquelocal) whose
  // X-Forwarded-For and -Proto are believed (PARAPH_TRUST_PROXY, comma-separated); empty believes nobody.
  trustProxy: string[];
  // For one start (PARAPH_REPLACE_SIGNING_CA=1): sign under another CA than the one recorded for the
  // deployment (the files now given, or a new one when the passphrase or the CA is lost for good).
  replaceSigningCa: boolean;
  // What the private keys in the database are encrypted under (PARAPH_CA_PASSPHRASE); null: on SQLite a
  // passphrase generated into the data folder, on PostgreSQL refused at start. Never logged.
  caPassphrase: string | null;
  // A CA given by the operator instead of the deployment's own (PARAPH_CA_CERT, PARAPH_CA_KEY: a file's
  // path or the PEM itself; PARAPH_CA_KEY_PASSPHRASE for an encrypted key). Never logged.
  caFiles: CaFiles | null;
  // Signatures a month per account plan; null = unlimited (PARAPH_SIGN_LIMIT_BASIC / _QUALIFIED /
  // _ADVANCED; an empty value or "unlimited" lifts the limit).
  signLimits: SignLimits;
  // The origin of every link the server builds (the identity app's confirmation link, e.g. for a phone,
  // and the messages' links), and the one the sign-in forms accept posts from. Never the request's Host:
  // PARAPH_PUBLIC_ORIGIN, or http://localhost:<PORT> when listening on a loopback address only.
  publicOrigin: string;
  // True when publicOrigin was derived from PORT: main.ts then sets the real port once listening (PORT=0).
  isPublicOriginDerived: boolean;
  // Days an invitation link can be used to create its account (PARAPH_INVITE_TTL_DAYS).
  inviteTtlDays: number;
  // The reverse-geocoding service behind the sign screen's locate-me button, `{lat}` and `{lon}` replaced
  // by the position (PARAPH_GEOCODER_URL). The app reads it from its page; the CSP lets it through.
  geocoderUrl: string;
  // Its origin, for the CSP's connect-src.
  geocoderOrigin: string;
  // The sidebar's support addresses (spec 000 §1): profiles of country uk write to the UK one, every
  // other country to the NL one (PARAPH_SUPPORT_EMAIL_UK / _NL). The app reads them from its page.
  supportEmailUk: string;
  supportEmailNl: string;
  // The products page the login's no-product notice links to (spec 001 §2; PARAPH_PRODUCTS_URL). The app
  // reads it from its page.
  productsUrl: string;
  // Pages a PDF may have to become a document (PARAPH_MAX_PAGES).
  maxPages: number;
  // The limits of the process that parses and renders PDFs (PARAPH_RENDER_MEMORY_MB,
  // PARAPH_RENDER_PAGE_TIMEOUT_MS, PARAPH_RENDER_MAX_STREAM_BYTES).
  pdfSandbox: PdfSandboxLimits;
  // Where mail goes: an smtp:// or smtps:// URL with its credentials (SMTP_URL), or null to keep messages
  // for /dev/outbox. Never logged: it holds a password.
  smtpUrl: string | null;
  // An RFC 3161 time-stamping authority (PARAPH_TSA_URL) for the signatures' and documents' time-stamps;
  // null for the embedded one, under the deployment's CA.
  tsaUrl: string | null;
  // The From of every message (PARAPH_MAIL_FROM): an address, or "Name <address>".
  mailFrom: string;
  // Days a signatory or reviewer may leave their turn waiting before a reminder, then at most one a day
  // (PARAPH_REMINDER_DAYS; 0 turns reminders off).
  reminderDays: number;
  // Memory for list pages already sent, reused while nothing they show has changed (PARAPH_LIST_CACHE_MB,
  // 32; 0 turns it off and reads every page anew).
  listCacheBytes: number;
  // Memory for each document's resource as a list last sent it to a person, reused while nothing it shows
  // has changed (PARAPH_DOCUMENT_CACHE_MB, 32; 0 turns it off and writes every document of a page anew).
  documentCacheBytes: number;
};

export type CaFiles = { certificate: string; key: string; keyPassphrase: string | null };

export type PdfSandboxLimits = { memoryMb: number; pageTimeoutMs: number; maxStreamBytes: number };

export const DEFAULT_GEOCODER_URL =
  'https://nominatim.openstreetmap.org/reverse?format=json&lat={lat}&lon={lon}';

export const DEFAULT_SUPPORT_EMAIL_UK = 'support-uk@paraph.test';
export const DEFAULT_SUPPORT_EMAIL_NL = 'support@paraph.test';
export const DEFAULT_PRODUCTS_URL = 'https://paraph.test/products';

export type SignLimits = { basic: number | null; qualified: number | null; advanced: number | null };

type Env = Record<string, string | undefined>;

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function nonEmpty(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function integer(env: Env, name: string, fallback: number, min: number): number {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function limit(env: Env, name: string, fallback: number | null): number | null {
  const raw = env[name]?.trim();
  if (raw === undefined) return fallback;
  if (raw === '' || raw.toLowerCase() === 'unlimited') return null;
  return integer(env, name, 0, 0);
}

function geocoder(env: Env): { url: string; origin: string } {
  const raw = nonEmpty(env.PARAPH_GEOCODER_URL) ?? DEFAULT_GEOCODER_URL;
  const url = new URL(raw.replace('{lat}', '0').replace('{lon}', '0'));
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PARAPH_GEOCODER_URL must be an http(s) URL, got "${raw}"`);
  }
  return { url: raw, origin: url.origin };
}

// The same pattern as the app's (src/services/help.ts): nothing that could add a recipient or a
// subject to the mailto: link the address becomes.
const EMAIL_ADDRESS = /^[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

function emailAddress(env: Env, name: string, fallback: string): string {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  if (!EMAIL_ADDRESS.test(raw)) throw new Error(`${name} must be an e-mail address, got "${raw}"`);
  return raw;
}

// An absolute http(s) address: the app puts it in a link's href, where javascript: or data: would run.
function pageUrl(env: Env, name: string, fallback: string): string {
  const raw = nonEmpty(env[name]);
  if (raw === null) return fallback;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return url.href;
}

function origin(env: Env, name: string): string | null {
  const raw = nonEmpty(env[name]);
  if (raw === null) return null;
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) origin, got "${raw}"`);
  }
  return url.origin;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

// Links must never come from a request's Host header, so a server reachable from elsewhere needs its
// origin written down; on a loopback address only this machine can reach it, and localhost is right.
function publicOriginOf(env: Env, host: string, port: number): { origin: string; isDerived: boolean } {
  const configured = origin(env, 'PARAPH_PUBLIC_ORIGIN');
  if (configured !== null) return { origin: configured, isDerived: false };
  if (!LOOPBACK_HOSTS.test(host)) {
    throw new Error(
      `PARAPH_PUBLIC_ORIGIN must be set when HOST is "${host}": links in messages and the identity app are ` +
        "built from it (never from the request's Host header, which anyone can forge), and sign-in forms " +
        'are only accepted from it. Set it to the address people open, e.g. https://sign.example.com.',
    );
  }
  return { origin: `http://localhost:${port}`, isDerived: true };
}

// Demo mode publishes known passwords and shows messages at /dev/outbox: a deployment with a public
// origin gets it only when asked for with PARAPH_DEMO=1.
function demoMode(env: Env, hasPublicOrigin: boolean): boolean {
  const raw = nonEmpty(env.PARAPH_DEMO);
  if (raw === null) return !hasPublicOrigin;
  if (raw === '1') return true;
  if (raw === '0') return false;
  throw new Error(`PARAPH_DEMO must be 0 or 1, got "${raw}"`);
}

function smtpUrl(env: Env): string | null {
  const raw = nonEmpty(env.SMTP_URL);
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  // The value is not repeated: it may hold a password.
  if (url === null || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error(
      'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.com:465',
    );
  }
  return raw;
}

function tsaUrl(env: Env): string | null {
  const raw = nonEmpty(env.PARAPH_TSA_URL);
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new Error(
      'PARAPH_TSA_URL must be an http:// or https:// URL of an RFC 3161 time-stamping authority',
    );
  }
  return raw;
}

// pg would read a URL it cannot parse as "localhost:5432" and fail later with a misleading message, so a
// malformed one stops the start. The value is never repeated: it may hold a password.
function databaseUrl(env: Env): string | null {
  const raw = nonEmpty(env.DATABASE_URL);
  if (raw === null) return null;
  const url = URL.canParse(raw) ? new URL(raw) : null;
  // A Unix socket is named by ?host=/run/postgresql instead of a host name.
  const host = url === null ? '' : url.hostname || (url.searchParams.get('host') ?? '');
  if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || host === '') {
    throw new Error(
      'DATABASE_URL must be a postgres:// or postgresql:// URL with a host, e.g. ' +
        'postgres://paraph:password@db.example.com:5432/paraph (percent-encode @ : / # ? in the user name ' +
        'and password)',
    );
  }
  return raw;
}

function s3Config(env: Env, bucket: string): S3Config {
  const endpoint = nonEmpty(env.S3_ENDPOINT);
  if (endpoint !== null) {
    const url = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new Error(`S3_ENDPOINT must be an http(s) URL, e.g. https://s3.example.com, got "${endpoint}"`);
    }
  }
  const accessKeyId = nonEmpty(env.S3_ACCESS_KEY_ID);
  const secretAccessKey = nonEmpty(env.S3_SECRET_ACCESS_KEY);
  // One without the other would quietly fall back to the SDK's own search for credentials.
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  }
  return {
    endpoint,
    bucket,
    region: nonEmpty(env.S3_REGION) ?? 'us-east-1',
    accessKeyId,
    secretAccessKey,
  };
}

// Named ranges proxy-addr knows.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
  // A /0 range is everyone: the very thing a list is there to avoid.
  return bits >= 1 && bits <= (family === 4 ? 32 : 128);
}

// "1" used to believe X-Forwarded-For from anyone, so a client could pick the address the per-address
// limits count; only the proxies listed are believed now.
function trustedProxies(env: Env): string[] {
  const raw = nonEmpty(env.PARAPH_TRUST_PROXY);
  if (raw === null || raw === '0') return [];
  if (raw === '1' || raw.toLowerCase() === 'true') {
    throw new Error(
      'PARAPH_TRUST_PROXY=1 would believe X-Forwarded-For from any client, who could then pick the address ' +
        'that rate limits count. List the addresses or CIDR ranges of your proxies instead, e.g. ' +
        'PARAPH_TRUST_PROXY=10.0.0.5,10.1.0.0/16',
    );
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isProxyAddress(entry));
  if (wrong !== undefined) {
    throw new Error(
      `PARAPH_TRUST_PROXY must list the addresses or CIDR ranges of your proxies (e.g. 10.0.0.5,10.1.0.0/16, ` +
        `or loopback), got "${wrong}"`,
    );
  }
  return entries;
}

// Long enough that nobody reuses a word: the keys are only as safe as this value.
export const MIN_CA_PASSPHRASE_LENGTH = 16;

function caPassphrase(env: Env): string | null {
  const raw = nonEmpty(env.PARAPH_CA_PASSPHRASE);
  if (raw === null) return null;
  if ([...raw].length < MIN_CA_PASSPHRASE_LENGTH) {
    throw new Error(
      `PARAPH_CA_PASSPHRASE must be at least ${MIN_CA_PASSPHRASE_LENGTH} characters, e.g. the output of ` +
        'openssl rand -base64 32',
    );
  }
  return raw;
}

function caFiles(env: Env): CaFiles | null {
  const certificate = nonEmpty(env.PARAPH_CA_CERT);
  const key = nonEmpty(env.PARAPH_CA_KEY);
  const keyPassphrase = nonEmpty(env.PARAPH_CA_KEY_PASSPHRASE);
  if ((certificate === null) !== (key === null)) {
    throw new Error('PARAPH_CA_CERT and PARAPH_CA_KEY must be set together');
  }
  if (certificate === null || key === null) {
    if (keyPassphrase !== null) throw new Error('PARAPH_CA_KEY_PASSPHRASE is set without PARAPH_CA_KEY');
    return null;
  }
  return { certificate, key, keyPassphrase };
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env[name]);
  if (raw === null || raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${name} must be 0 or 1, got "${raw}"`);
}

const MAIL_FROM =
  /^(?:[^<>\r\n]*<[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>|[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)$/;

// A sender on the deployment's own domain unless told otherwise.
function mailFrom(env: Env, publicOrigin: string): string {
  const raw = nonEmpty(env.PARAPH_MAIL_FROM);
  if (raw === null) return `Paraph <no-reply@${new URL(publicOrigin).hostname}>`;
  if (!MAIL_FROM.test(raw)) {
    throw new Error(`PARAPH_MAIL_FROM must be an address or "Name <address>", got "${raw}"`);
  }
  return raw;
}

export function loadConfig(env: Env): Config {
  const bucket = nonEmpty(env.S3_BUCKET);
  const geocoderService = geocoder(env);
  const port = integer(env, 'PORT', 8080, 0);
  const host = nonEmpty(env.HOST) ?? '127.0.0.1';
  const publicOrigin = publicOriginOf(env, host, port);
  return {
    port,
    host,
    dataDir: path.resolve(nonEmpty(env.PARAPH_DATA_DIR) ?? path.join(ROOT_DIR, 'data')),
    databaseUrl: databaseUrl(env),
    demo: demoMode(env, !publicOrigin.isDerived),
    maxUploadBytes: integer(env, 'PARAPH_MAX_UPLOAD_BYTES', 52_428_800, 1),
    uploadGrantsPerMinute: integer(env, 'PARAPH_UPLOAD_GRANTS_PER_MINUTE', 30, 1),
    cleanupIntervalMs: integer(env, 'PARAPH_CLEANUP_INTERVAL_MS', 10 * 60 * 1000, 1000),
    shutdownTimeoutMs: integer(env, 'PARAPH_SHUTDOWN_TIMEOUT_MS', 10_000, 1000),
    metricsToken: nonEmpty(env.PARAPH_METRICS_TOKEN),
    retentionDays: integer(env, 'PARAPH_RETENTION_DAYS', 365, 1),
    errorReportRetentionDays: integer(env, 'PARAPH_ERROR_REPORT_RETENTION_DAYS', 90, 1),
    s3: bucket === null ? null : s3Config(env, bucket),
    logLevel: nonEmpty(env.PARAPH_LOG_LEVEL) ?? 'info',
    appDir: path.resolve(nonEmpty(env.PARAPH_APP_DIR) ?? path.join(ROOT_DIR, 'dist')),
    trustProxy: trustedProxies(env),
    replaceSigningCa: flag(env, 'PARAPH_REPLACE_SIGNING_CA'),
    caPassphrase: caPassphrase(env),
    caFiles: caFiles(env),
    signLimits: {
      basic: limit(env, 'PARAPH_SIGN_LIMIT_BASIC', 10),
      qualified: limit(env, 'PARAPH_SIGN_LIMIT_QUALIFIED', 100),
      advanced: limit(env, 'PARAPH_SIGN_LIMIT_ADVANCED', null),
    },
    publicOrigin: publicOrigin.origin,
    isPublicOriginDerived: publicOrigin.isDerived,
    inviteTtlDays: integer(env, 'PARAPH_INVITE_TTL_DAYS', 14, 1),
    geocoderUrl: geocoderService.url,
    geocoderOrigin: geocoderService.origin,
    supportEmailUk: emailAddress(env, 'PARAPH_SUPPORT_EMAIL_UK', DEFAULT_SUPPORT_EMAIL_UK),
    supportEmailNl: emailAddress(env, 'PARAPH_SUPPORT_EMAIL_NL', DEFAULT_SUPPORT_EMAIL_NL),
    productsUrl: pageUrl(env, 'PARAPH_PRODUCTS_URL', DEFAULT_PRODUCTS_URL),
    maxPages: integer(env, 'PARAPH_MAX_PAGES', 1000, 1),
    pdfSandbox: {
      memoryMb: integer(env, 'PARAPH_RENDER_MEMORY_MB', 256, 32),
      pageTimeoutMs: integer(env, 'PARAPH_RENDER_PAGE_TIMEOUT_MS', 20_000, 50),
      maxStreamBytes: integer(env, 'PARAPH_RENDER_MAX_STREAM_BYTES', 128 * 1024 * 1024, 1024),
    },
    smtpUrl: smtpUrl(env),
    tsaUrl: tsaUrl(env),
    mailFrom: mailFrom(env, publicOrigin.origin),
    reminderDays: integer(env, 'PARAPH_REMINDER_DAYS', 3, 0),
    listCacheBytes: integer(env, 'PARAPH_LIST_CACHE_MB', 32, 0) * 1024 * 1024,
    documentCacheBytes: integer(env, 'PARAPH_DOCUMENT_CACHE_MB', 32, 0) * 1024 * 1024,
  };
}
