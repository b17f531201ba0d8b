// The upload machine's real actors. The file goes straight to the object store as a presigned POST
// (decisions.md "Upload"): no auth header, fields in the policy's order, the file last.
import { fromCallback, fromPromise } from 'xstate';
import type { CreateDocumentInput, SendToStorageInput, UploadTicket } from '../../machines/types';
import { EMPTY_FILE, FILE_TOO_LARGE, type StorageEvent } from '../../machines/upload.machine';
import { api, unwrap } from '../api/client';

export const requestUpload = fromPromise<UploadTicket>(async ({ signal }) => {
  const { data } = await unwrap(api.POST('/upload_requests', { signal }));
  return data.attributes;
});

export function storageForm({ ticket, file }: SendToStorageInput): FormData {
  const form = new FormData();
  form.append('key', ticket.key);
  form.append('acl', ticket.acl);
  form.append('policy', ticket.policy);
  form.append('success_action_status', ticket.successActionStatus);
  form.append('X-Amz-Credential', ticket.xAmzCredential);
  form.append('X-Amz-Signature', ticket.xAmzSignature);
  form.append('X-Amz-Algorithm', ticket.xAmzAlgorithm);
  form.append('X-Amz-Date', ticket.xAmzDate);
  form.append('file', file.blob, file.name);
  return form;
}

// S3 answers a refusal as `<Error><Code>...</Code>...</Error>`. The machine refuses an empty file and one
// over the limit before sending it, but the store has the last word (its limit may be smaller than the
// API's, the file may have changed on disk since it was chosen), and for these two, unlike any other
// storage failure, retrying the same file could never help. The policy's content-length-range starts at
// 1 byte, so EntityTooSmall means empty.
const STORAGE_REFUSALS = new Map([
  ['EntityTooLarge', FILE_TOO_LARGE],
  ['EntityTooSmall', EMPTY_FILE],
]);

export function storageFailureCode(responseText: string): string {
  const code = /<Code>\s*([^<]*?)\s*<\/Code>/.exec(responseText)?.[1] ?? '';
  return STORAGE_REFUSALS.get(code) ?? 'storage';
}

// XMLHttpRequest rather than fetch: only it reports upload progress.
export const sendToStorage = fromCallback<StorageEvent, SendToStorageInput>(({ input, sendBack }) => {
  const request = new XMLHttpRequest();
  let isSettled = false;
  const settle = (event: StorageEvent) => {
    if (isSettled) return;
    isSettled = true;
    sendBack(event);
  };
  request.upload.onprogress = (event) => {
    if (event.lengthComputable && event.total > 0) {
      sendBack({ type: 'upload.progress', percent: (event.loaded / event.total) * 100 });
    }
  };
  request.onload = () => {
    settle(
      request.status >= 200 && request.status < 300
        ? { type: 'upload.stored' }
        : { type: 'upload.failed', code: storageFailureCode(request.responseText) },
    );
  };
  request.onerror = () => settle({ type: 'upload.failed', code: 'network' });
  request.open('POST', input.ticket.url);
  request.send(storageForm(input));
  return () => {
    if (!isSettled) {
      isSettled = true;
      request.abort();
    }
  };
});

export const createDocument = fromPromise<{ id: string }, CreateDocumentInput>(async ({ input, signal }) => {
  const { data } = await unwrap(
    api.POST('/documents', {
      body: { original_filename: input.originalFilename, file_url: input.fileUrl, filename: input.filename },
      signal,
    }),
  );
  return { id: data.id };
});
