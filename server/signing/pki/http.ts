// One DER request, one DER answer over HTTP POST, as RFC 3161 3.4 and RFC 6960 A.1 carry them, with one
// deadline for the whole exchange (connecting, the status line and the body): a service that hangs halfway
// through its answer is as unavailable as one that never answers.

export type Fetch = typeof globalThis.fetch;

export type PostDerOptions = {
  url: string;
  body: Uint8Array;
  contentType: string;
  accept: string;
  timeoutMs: number;
  fetch?: Fetch;
  /** Answers longer than this are refused unread (a time-stamp token or an OCSP response is a few KiB). */
  maxBytes?: number;
};

/** The answer's body. Throws an Error saying what went wrong (the callers wrap it in their own error). */
export async function postDer({
  url,
  body,
  contentType,
  accept,
  timeoutMs,
  fetch = globalThis.fetch,
  maxBytes = 1024 * 1024,
}: PostDerOptions): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(timeoutMs);
  const failure = (what: string, cause: unknown) =>
    new Error(signal.aborted ? `no answer within ${timeoutMs} ms` : `${what}: ${String(cause)}`, { cause });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': contentType, accept },
      body: body.slice(),
      signal,
    });
  } catch (error) {
    throw failure('the request failed', error);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the answer is ${declared} bytes long, more than ${maxBytes}`);
  }
  let answer: ArrayBuffer;
  try {
    answer = await response.arrayBuffer();
  } catch (error) {
    throw failure('the answer could not be read', error);
  }
  if (answer.byteLength > maxBytes) throw new Error(`the answer is longer than ${maxBytes} bytes`);
  if (answer.byteLength === 0) throw new Error('the answer is empty');
  return new Uint8Array(answer);
}
