// The embedded object store: presigned POST uploads verified like S3 (signature, expiration, conditions,
// size) with nothing left on disk when refused, and signed GET links that cannot be altered or replayed late.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACCESS_KEY_ID } from '../../server/storage/local-store.ts';
import { createS3Store } from '../../server/storage/s3-store.ts';
import { makePdf } from '../fixtures/pdfs.ts';
import { buildTestApp, expectMatchesContract, postUploadRequest, type TestApp } from './helpers.ts';
import { postStorageForm, storageFormFields, type FormPart, type UploadAttributes } from './storage-form.ts';

const MAX_BYTES = 4096;

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('local storage', () => {
  let t: TestApp;
  let token: string;
  let userId: string;
  let clockOffsetMs = 0;
  let storageDir: string;

  beforeEach(async () => {
    clockOffsetMs = 0;
    t = await buildTestApp({
      env: { PARAPH_MAX_UPLOAD_BYTES: String(MAX_BYTES) },
      clock: () => new Date(Date.now() + clockOffsetMs),
    });
    const user = await t.createUser();
    userId = user.id;
    token = await t.signIn(user.email);
    storageDir = path.join(t.config.dataDir, 'storage');
  });

  afterEach(async () => {
    await t.close();
  });

  async function requestUpload(): Promise<UploadAttributes> {
    return (await postUploadRequest(t, token)).data.attributes;
  }

  function post(url: string, parts: FormPart[]) {
    return postStorageForm(t.app, url, parts);
  }

  // The issued fields as they are, then the file.
  function postFile(upload: UploadAttributes, file: Buffer, filename: string) {
    return post(upload.url, [...storageFormFields(upload), ['file', file, filename]]);
  }

  async function expectRefusedLeavingNothing(
    response: Awaited<ReturnType<typeof post>>,
    status: number,
    code: string,
  ): Promise<void> {
    expect(response.statusCode).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    expect(response.body).toContain(`<Code>${code}</Code>`);
    expectMatchesContract('storagePost', status, response.body);
    expect(await filesUnder(storageDir)).toEqual([]);
  }

  it('stores a file posted with the issued fields and answers S3 PostResponse XML', async () => {
    const upload = await requestUpload();
    const pdf = await makePdf({ pages: 1 });
    expect(pdf.length).toBeLessThanOrEqual(MAX_BYTES);

    const response = await postFile(upload, pdf, 'contract.pdf');

    expect(response.statusCode).toBe(201);
    expectMatchesContract('storagePost', 201, response.body);
    expect(response.body).toContain(`<Key>${upload.key}</Key>`);
    expect(response.body).toContain('<Bucket>paraph</Bucket>');
    expect(upload.key).toMatch(new RegExp(`^uploads/${userId}/[0-9a-f-]{36}\\.pdf$`));
    const stored = path.join(storageDir, 'paraph', ...upload.key.split('/'));
    expect(await readFile(stored)).toEqual(pdf);
    expect(await filesUnder(storageDir)).toEqual([stored]);
  });

  it('refuses a signature that is not the server’s', async () => {
    const upload = await requestUpload();
    const forged = upload.xAmzSignature.replace(/^./, (char) => (char === '0' ? '1' : '0'));
    const fields = storageFormFields({ ...upload, xAmzSignature: forged });

    const response = await post(upload.url, [...fields, ['file', await makePdf(), 'a.pdf']]);

    await expectRefusedLeavingNothing(response, 403, 'SignatureDoesNotMatch');
  });

  it('refuses a policy altered after signing', async () => {
    const upload = await requestUpload();
    const policy = JSON.parse(Buffer.from(upload.policy, 'base64').toString('utf8')) as {
      expiration: string;
    };
    policy.expiration = '2099-01-01T00:00:00.000Z';
    const altered = Buffer.from(JSON.stringify(policy)).toString('base64');
    const fields = storageFormFields({ ...upload, policy: altered });

    const response = await post(upload.url, [...fields, ['file', await makePdf(), 'a.pdf']]);

    await expectRefusedLeavingNothing(response, 403, 'SignatureDoesNotMatch');
  });

  it('refuses an expired policy', async () => {
    const upload = await requestUpload();
    clockOffsetMs = 16 * 60 * 1000;

    const response = await postFile(upload, await makePdf(), 'a.pdf');

    await expectRefusedLeavingNothing(response, 403, 'AccessDenied');
    expect(response.body).toContain('Policy expired');
  });

  it('refuses a key outside the policy', async () => {
    const upload = await requestUpload();
    const elsewhere = `uploads/${userId}/00000000-0000-4000-8000-000000000000.pdf`;
    const fields = storageFormFields({ ...upload, key: elsewhere });

    const response = await post(upload.url, [...fields, ['file', await makePdf(), 'a.pdf']]);

    await expectRefusedLeavingNothing(response, 403, 'AccessDenied');
    expect(response.body).toContain('$key');
  });

  it('refuses a form field the policy does not cover', async () => {
    const upload = await requestUpload();

    const response = await post(upload.url, [
      ...storageFormFields(upload),
      ['success_action_redirect', 'https://evil.example/'],
      ['file', await makePdf(), 'a.pdf'],
    ]);

    await expectRefusedLeavingNothing(response, 403, 'AccessDenied');
    expect(response.body).toContain('Extra input fields: success_action_redirect');
  });

  it('refuses a file over the policy’s content-length-range while streaming it', async () => {
    const upload = await requestUpload();

    const response = await postFile(upload, Buffer.alloc(MAX_BYTES + 1, 0x41), 'big.pdf');

    await expectRefusedLeavingNothing(response, 400, 'EntityTooLarge');
  });

  it('accepts a file of exactly the maximum size', async () => {
    const upload = await requestUpload();

    const response = await postFile(upload, Buffer.alloc(MAX_BYTES, 0x41), 'edge.pdf');

    expect(response.statusCode).toBe(201);
  });

  it('refuses an empty file (the range starts at 1 byte)', async () => {
    const upload = await requestUpload();

    const response = await postFile(upload, Buffer.alloc(0), 'empty.pdf');

    await expectRefusedLeavingNothing(response, 400, 'EntityTooSmall');
  });

  it('refuses a form without a file, and an unknown bucket', async () => {
    const upload = await requestUpload();

    await expectRefusedLeavingNothing(
      await post(upload.url, storageFormFields(upload)),
      400,
      'InvalidArgument',
    );
    await expectRefusedLeavingNothing(
      await post('/storage/other-bucket', [...storageFormFields(upload), ['file', await makePdf(), 'a.pdf']]),
      404,
      'NoSuchBucket',
    );
  });

  it('ignores fields sent after the file, as S3 does', async () => {
    const upload = await requestUpload();

    const response = await post(upload.url, [
      ...storageFormFields(upload),
      ['file', await makePdf(), 'a.pdf'],
      ['x-trailing', 'ignored'],
    ]);

    expect(response.statusCode).toBe(201);
  });

  async function storeSecret(): Promise<string> {
    const row = await t.deps.db.selectFrom('server_secrets').select('value').executeTakeFirstOrThrow();
    return row.value;
  }

  // The store takes a file only for a key an upload request issued (one upload per key): forms made here
  // by hand need their key recorded as createUploadRequest would.
  async function recordIssuedKey(key: string): Promise<void> {
    const now = t.deps.clock();
    await t.deps.db
      .insertInto('upload_requests')
      .values({
        id: randomUUID(),
        user_id: userId,
        key,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + 15 * 60 * 1000).toISOString(),
        consumed_at: null,
      })
      .execute();
  }

  async function sdkClientWithStoreCredentials(): Promise<S3Client> {
    return new S3Client({
      region: 'us-east-1',
      endpoint: 'http://localhost/storage',
      forcePathStyle: true,
      credentials: { accessKeyId: LOCAL_ACCESS_KEY_ID, secretAccessKey: await storeSecret() },
    });
  }

  // An independent check of the SigV4 code: a policy signed by the AWS SDK with the store's credentials
  // must pass the store's verification exactly as one the store signed itself.
  it('accepts a presigned POST made by the AWS SDK with the store’s credentials', async () => {
    const client = await sdkClientWithStoreCredentials();
    const key = `uploads/${userId}/11111111-1111-4111-8111-111111111111.pdf`;
    await recordIssuedKey(key);
    const { fields } = await createPresignedPost(client, {
      Bucket: 'paraph',
      Key: key,
      Conditions: [['content-length-range', 1, MAX_BYTES]],
      Fields: { acl: 'private', success_action_status: '201' },
      Expires: 60,
    });
    const pdf = await makePdf();

    const response = await post('/storage/paraph', [...Object.entries(fields), ['file', pdf, 'a.pdf']]);

    expect(response.statusCode).toBe(201);
    expect(await readFile(path.join(storageDir, 'paraph', ...key.split('/')))).toEqual(pdf);
  });

  it('refuses an AWS SDK policy that has already expired', async () => {
    const client = await sdkClientWithStoreCredentials();
    const { fields } = await createPresignedPost(client, {
      Bucket: 'paraph',
      Key: `uploads/${userId}/22222222-2222-4222-8222-222222222222.pdf`,
      Expires: -1,
    });

    const response = await post('/storage/paraph', [
      ...Object.entries(fields),
      ['file', await makePdf(), 'a.pdf'],
    ]);

    await expectRefusedLeavingNothing(response, 403, 'AccessDenied');
  });

  // The S3 store talks to no network to presign, so its fields can be checked here against the local
  // store's verifier, which holds them to what S3 itself would.
  it('gives, as the S3 store, the same form fields that an S3-style verifier accepts', async () => {
    const s3 = createS3Store({
      endpoint: 'http://localhost/storage',
      bucket: 'paraph',
      region: 'us-east-1',
      accessKeyId: LOCAL_ACCESS_KEY_ID,
      secretAccessKey: await storeSecret(),
    });
    const key = `uploads/${userId}/66666666-6666-4666-8666-666666666666.pdf`;
    await recordIssuedKey(key);
    const presigned = await s3.presignPost(key, {
      maxBytes: MAX_BYTES,
      expiresInSeconds: 900,
      contentType: 'application/pdf',
    });

    expect(presigned.url).toBe('http://localhost/storage/paraph');
    expect(Object.keys(presigned.fields).sort()).toEqual(
      [
        'X-Amz-Algorithm',
        'X-Amz-Credential',
        'X-Amz-Date',
        'X-Amz-Signature',
        'acl',
        'key',
        'policy',
        'success_action_status',
      ].sort(),
    );
    const response = await post(new URL(presigned.url).pathname, [
      ...Object.entries(presigned.fields),
      ['file', await makePdf(), 'a.pdf'],
    ]);
    expect(response.statusCode).toBe(201);

    const download = new URL(
      await s3.signedGetUrl(key, { expiresInSeconds: 900, downloadFilename: 'Ünï.pdf' }),
    );
    expect(download.pathname).toBe(`/storage/paraph/${key}`);
    expect(download.searchParams.get('response-content-disposition')).toBe(
      `attachment; filename="Uni.pdf"; filename*=UTF-8''%C3%9Cn%C3%AF.pdf`,
    );
    expect(download.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  describe('signed GET links', () => {
    let key: string;
    let pdf: Buffer;

    beforeEach(async () => {
      const upload = await requestUpload();
      pdf = await makePdf({ pages: 1 });
      key = upload.key;
      const response = await postFile(upload, pdf, 'a.pdf');
      expect(response.statusCode).toBe(201);
    });

    it('serves the file with its type, length, nosniff and private caching', async () => {
      const url = await t.deps.store.signedGetUrl(key, {
        expiresInSeconds: 900,
        contentType: 'application/pdf',
      });
      expect(url).toMatch(/^\/storage\/paraph\/uploads\//);
      expect(url).toContain('X-Amz-Signature=');

      const response = await t.app.inject({ method: 'GET', url });

      expect(response.statusCode).toBe(200);
      expect(response.rawPayload).toEqual(pdf);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-length']).toBe(String(pdf.length));
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(String(response.headers['cache-control'])).toMatch(/^private/);
      expect(response.headers['content-disposition']).toBeUndefined();
      expectMatchesContract('storageGet', 200, response.body);
    });

    it('refuses a link whose signature, key or parameters were changed', async () => {
      const url = await t.deps.store.signedGetUrl(key, {
        expiresInSeconds: 900,
        contentType: 'application/pdf',
      });
      const other = `uploads/${userId}/33333333-3333-4333-8333-333333333333.pdf`;
      await t.deps.store.put(other, Buffer.from('%PDF-1.7 another'), 'application/pdf');
      const tampered = [
        url.replace(
          /X-Amz-Signature=([0-9a-f])/,
          (_match, char: string) => `X-Amz-Signature=${char === '0' ? '1' : '0'}`,
        ),
        url.replace(key, other),
        url.replace('response-content-type=application%2Fpdf', 'response-content-type=text%2Fhtml'),
        url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800'),
        `${url}&response-content-disposition=attachment`,
        url.split('?')[0] ?? '',
      ];
      for (const candidate of tampered) {
        expect(candidate).not.toBe(url);
        const response = await t.app.inject({ method: 'GET', url: candidate });
        expect(response.statusCode, candidate).toBe(403);
        expect(response.body).not.toContain('%PDF');
        expectMatchesContract('storageGet', 403, response.body);
      }
    });

    it('refuses an expired link', async () => {
      const url = await t.deps.store.signedGetUrl(key, { expiresInSeconds: 900 });
      clockOffsetMs = 15 * 60 * 1000 + 1000;

      const response = await t.app.inject({ method: 'GET', url });

      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('expired');
    });

    it('answers 404 for a correctly signed link to nothing', async () => {
      const missing = `uploads/${userId}/44444444-4444-4444-8444-444444444444.pdf`;
      const url = await t.deps.store.signedGetUrl(missing, { expiresInSeconds: 900 });

      const response = await t.app.inject({ method: 'GET', url });

      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<Code>NoSuchKey</Code>');
      expectMatchesContract('storageGet', 404, response.body);
    });

    it('downloads under a safe name: quotes, non-ASCII and path characters (RFC 6266)', async () => {
      const cases: Array<[name: string, header: string]> = [
        [
          'Ünïcödé "quoted" a/b\\c.pdf',
          `attachment; filename="Unicode _quoted_ a_b_c.pdf"; filename*=UTF-8''%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20_quoted_%20a_b_c.pdf`,
        ],
        ['契約書.pdf', `attachment; filename="___.pdf"; filename*=UTF-8''%E5%A5%91%E7%B4%84%E6%9B%B8.pdf`],
        ['../../etc/passwd', `attachment; filename=".._.._etc_passwd"; filename*=UTF-8''.._.._etc_passwd`],
        [
          "it's (100%).pdf\r\nSet-Cookie: x=1",
          `attachment; filename="it's (100_).pdfSet-Cookie_ x=1"; filename*=UTF-8''it%27s%20%28100%25%29.pdfSet-Cookie_%20x%3D1`,
        ],
      ];
      for (const [name, header] of cases) {
        const url = await t.deps.store.signedGetUrl(key, {
          expiresInSeconds: 900,
          downloadFilename: name,
          contentType: 'application/pdf',
        });

        const response = await t.app.inject({ method: 'GET', url });

        expect(response.statusCode, name).toBe(200);
        expect(response.headers['content-disposition'], name).toBe(header);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
    });
  });
});
