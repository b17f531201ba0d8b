// Configuration comes from the environment only, so several instances started the same way behave alike.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type S3Config = {
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  demo: boolean;
  maxUploadBytes: number;
  retentionDays: number;
  s3: S3Config | null;
  logLevel: string;
  appDir: string;
  // Behind a load balancer: take the client address and https from X-Forwarded-* (PARAPH_TRUST_PROXY=1).
  trustProxy: boolean;
};

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

export function loadConfig(env: Env): Config {
  const bucket = nonEmpty(env.S3_BUCKET);
  return {
    port: integer(env, 'PORT', 8080, 0),
    host: nonEmpty(env.HOST) ?? '127.0.0.1',
    dataDir: path.resolve(nonEmpty(env.PARAPH_DATA_DIR) ?? path.join(ROOT_DIR, 'data')),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    demo: (env.PARAPH_DEMO ?? '1').trim() !== '0',
    maxUploadBytes: integer(env, 'PARAPH_MAX_UPLOAD_BYTES', 52_428_800, 1),
    retentionDays: integer(env, 'PARAPH_RETENTION_DAYS', 365, 1),
    s3:
      bucket === null
        ? null
        : {
            endpoint: nonEmpty(env.S3_ENDPOINT),
            bucket,
            region: nonEmpty(env.S3_REGION) ?? 'us-east-1',
            accessKeyId: nonEmpty(env.S3_ACCESS_KEY_ID),
            secretAccessKey: nonEmpty(env.S3_SECRET_ACCESS_KEY),
          },
    logLevel: nonEmpty(env.PARAPH_LOG_LEVEL) ?? 'info',
    appDir: path.resolve(nonEmpty(env.PARAPH_APP_DIR) ?? path.join(ROOT_DIR, 'dist')),
    trustProxy: (env.PARAPH_TRUST_PROXY ?? '0').trim() === '1',
  };
}
