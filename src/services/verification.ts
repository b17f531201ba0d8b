// The verification machine's real actor: the chosen PDF goes to POST /verifications as the body itself
// (application/pdf), with no account needed. The API client adds the bearer token when someone is signed
// in; the server answers the same report either way.
import { fromPromise } from 'xstate';
import type { SelectedFile } from '../../machines/types';
import type { VerificationReport } from '../../machines/verification.machine';
import { api, unwrap } from '../api/client';

export const verifyPdf = fromPromise<VerificationReport, SelectedFile>(async ({ input, signal }) => {
  const { data } = await unwrap(
    api.POST('/verifications', {
      body: input.blob,
      // The file's bytes as they are: the client would otherwise send the body as JSON.
      bodySerializer: (body) => body as Blob,
      headers: { 'Content-Type': 'application/pdf' },
      signal,
    }),
  );
  return data.attributes;
});
