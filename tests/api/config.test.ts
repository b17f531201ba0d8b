import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: null,
      demo: true,
      maxUploadBytes: 52_428_800,
      retentionDays: 365,
      errorReportRetentionDays: 90,
      s3: null,
      logLevel: 'info',
      trustProxy: false,
    });
    expect(path.basename(config.dataDir)).toBe('data');
    expect(path.basename(config.appDir)).toBe('dist');
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      PARAPH_DATA_DIR: '/tmp/paraph-x',
      DATABASE_URL: 'postgres://u@h/db',
      PARAPH_DEMO: '0',
      PARAPH_MAX_UPLOAD_BYTES: '1000',
      PARAPH_RETENTION_DAYS: '30',
      PARAPH_ERROR_REPORT_RETENTION_DAYS: '7',
      S3_BUCKET: 'docs',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      PARAPH_LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/tmp/paraph-x',
      databaseUrl: 'postgres://u@h/db',
      demo: false,
      maxUploadBytes: 1000,
      retentionDays: 30,
      errorReportRetentionDays: 7,
      s3: {
        bucket: 'docs',
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
      },
      logLevel: 'warn',
    });
  });

  it('refuses a port that is not a number', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('refuses an error report retention under a day', () => {
    expect(() => loadConfig({ PARAPH_ERROR_REPORT_RETENTION_DAYS: '0' })).toThrow(
      /PARAPH_ERROR_REPORT_RETENTION_DAYS/,
    );
  });
});
