// The audit trail's download. The PDF needs the bearer token, so it is fetched through the API client
// (never a link with a token in it) and saved from memory through an object URL.
import { fromPromise } from 'xstate';
import { api, unwrap } from '../api/client';

// Revoking the URL in the same task as the click can cancel the download in some browsers; the file is
// small and handed over long before this.
const REVOKE_DELAY_MS = 10_000;

export const fetchAuditTrail = fromPromise<Blob, { documentId: string }>(async ({ input, signal }) =>
  unwrap(
    api.GET('/documents/{id}/audit_trail', {
      params: { path: { id: input.documentId } },
      parseAs: 'blob',
      signal,
    }),
  ),
);

export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
}
