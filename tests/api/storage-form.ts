// The storage POST as the browser sends it (docs/decisions.md "Upload"): the presigned fields of an upload
// request in the policy's order, the file last. Plain functions with no test runner in them, so the upload
// bench shares the field list while it streams its own body.
import type { FastifyInstance } from 'fastify';
import type { components } from '../../openapi/schema';

export type UploadAttributes = components['schemas']['UploadRequest']['attributes'];

type StorageFieldName = Exclude<keyof components['schemas']['StoragePostForm'], 'file'>;

export function storageFormFields(upload: UploadAttributes): [StorageFieldName, string][] {
  return [
    ['key', upload.key],
    ['acl', upload.acl],
    ['policy', upload.policy],
    ['success_action_status', upload.successActionStatus],
    ['X-Amz-Credential', upload.xAmzCredential],
    ['X-Amz-Signature', upload.xAmzSignature],
    ['X-Amz-Algorithm', upload.xAmzAlgorithm],
    ['X-Amz-Date', upload.xAmzDate],
  ];
}

export type FormPart = [name: string, value: string] | [name: 'file', value: Buffer, filename: string];

export function multipartForm(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----paraph-test-boundary-7d1f';
  const chunks: Buffer[] = [];
  for (const [name, value, filename] of parts) {
    const disposition =
      filename === undefined
        ? `form-data; name="${name}"`
        : `form-data; name="${name}"; filename="${filename}"`;
    const type = filename === undefined ? '' : 'Content-Type: application/pdf\r\n';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push(typeof value === 'string' ? Buffer.from(value) : value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export function postStorageForm(app: FastifyInstance, url: string, parts: FormPart[]) {
  const { payload, headers } = multipartForm(parts);
  return app.inject({ method: 'POST', url, payload, headers });
}
