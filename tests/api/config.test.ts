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
      trustProxy: [],
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
      PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test/',
      PARAPH_INVITE_TTL_DAYS: '3',
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
      publicOrigin: 'https://sign.example.test',
      isPublicOriginDerived: false,
      inviteTtlDays: 3,
    });
  });

  it('derives the public origin on a loopback address only, and refuses to start without one elsewhere', () => {
    expect(loadConfig({})).toMatchObject({
      publicOrigin: 'http://localhost:8080',
      isPublicOriginDerived: true,
      inviteTtlDays: 14,
    });
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      expect(loadConfig({ HOST: host, PORT: '9000' }).publicOrigin).toBe('http://localhost:9000');
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'paraph.example.test']) {
      expect(() => loadConfig({ HOST: host })).toThrow(/PARAPH_PUBLIC_ORIGIN must be set.*Host header/);
    }
    expect(loadConfig({ HOST: '0.0.0.0', PARAPH_PUBLIC_ORIGIN: 'http://192.168.1.20:8080' })).toMatchObject({
      publicOrigin: 'http://192.168.1.20:8080',
      isPublicOriginDerived: false,
    });
  });

  it('runs demo mode by default only without a public origin; with one, only when asked for', () => {
    expect(loadConfig({}).demo).toBe(true);
    expect(loadConfig({ PARAPH_DEMO: '0' }).demo).toBe(false);
    const deployed = { PARAPH_PUBLIC_ORIGIN: 'https://sign.example.test' };
    expect(loadConfig(deployed).demo).toBe(false);
    expect(loadConfig({ ...deployed, PARAPH_DEMO: '' }).demo).toBe(false);
    expect(loadConfig({ ...deployed, PARAPH_DEMO: '0' }).demo).toBe(false);
    expect(loadConfig({ ...deployed, PARAPH_DEMO: '1' }).demo).toBe(true);
    expect(() => loadConfig({ ...deployed, PARAPH_DEMO: 'yes' })).toThrow(/PARAPH_DEMO must be 0 or 1/);
  });

  it('refuses an invite lifetime under a day', () => {
    expect(() => loadConfig({ PARAPH_INVITE_TTL_DAYS: '0' })).toThrow(/PARAPH_INVITE_TTL_DAYS/);
  });

  it('refuses a port that is not a number', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('refuses a DATABASE_URL that is not a postgres URL with a host, without repeating its password', () => {
    for (const url of [
      'postgres//paraph:s3cret-pw@db.example.test/paraph',
      'mysql://paraph:s3cret-pw@db.example.test/paraph',
      'postgres:///paraph?password=s3cret-pw',
      'postgres://paraph:s3cret/pw@db.example.test/paraph',
      'db.example.test:5432',
    ]) {
      let message = '';
      try {
        loadConfig({ DATABASE_URL: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, url).toMatch(
        /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL with a host/,
      );
      expect(message, url).not.toContain('s3cret');
    }
    for (const url of [
      'postgresql://paraph:p%40ss@db.example.test:5433/paraph',
      'postgres://paraph@127.0.0.1/paraph',
      'postgres:///paraph?host=/run/postgresql',
    ]) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });

  it('takes the trusted proxies as a list of addresses and ranges, and refuses to trust everyone', () => {
    expect(loadConfig({ PARAPH_TRUST_PROXY: '0' }).trustProxy).toEqual([]);
    expect(loadConfig({ PARAPH_TRUST_PROXY: '' }).trustProxy).toEqual([]);
    expect(
      loadConfig({ PARAPH_TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,::1, loopback' }).trustProxy,
    ).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', '::1', 'loopback']);
    expect(() => loadConfig({ PARAPH_TRUST_PROXY: '1' })).toThrow(
      /PARAPH_TRUST_PROXY=1 would believe X-Forwarded-For from any client.*List the addresses or CIDR ranges/,
    );
    for (const wrong of ['true', 'proxy.example.test', '10.0.0.0/33', '0.0.0.0/0', '10.0.0.1/8/1', '2']) {
      expect(() => loadConfig({ PARAPH_TRUST_PROXY: wrong }), wrong).toThrow(/PARAPH_TRUST_PROXY/);
    }
  });

  it('refuses an S3 key without its secret, and an endpoint that is not a URL', () => {
    expect(() => loadConfig({ S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'id' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
    );
    expect(() => loadConfig({ S3_BUCKET: 'docs', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT/);
  });

  it('refuses an error report retention under a day', () => {
    expect(() => loadConfig({ PARAPH_ERROR_REPORT_RETENTION_DAYS: '0' })).toThrow(
      /PARAPH_ERROR_REPORT_RETENTION_DAYS/,
    );
  });
});
