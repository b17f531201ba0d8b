// Every failed call becomes one shape, whatever went wrong: machines branch on `code`, views turn the
// code into text. `code` is the server's error code when it sent one (decisions.md "API shape").
export type ApiErrorShape = { code: string; status: number; field?: string };

export class ApiError extends Error implements ApiErrorShape {
  readonly code: string;
  readonly status: number;
  readonly field?: string;

  constructor({ code, status, field }: ApiErrorShape) {
    super(`API call failed: ${code} (${status})`);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    if (field !== undefined) this.field = field;
  }
}

function readBody(body: unknown): { code?: string; field?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const code = 'code' in body && typeof body.code === 'string' ? body.code : undefined;
  const field = 'field' in body && typeof body.field === 'string' ? body.field : undefined;
  return { ...(code ? { code } : {}), ...(field ? { field } : {}) };
}

/** 401 is always `unauthorized` and 5xx always `server`, the two codes the session acts on. */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const { code, field } = readBody(body);
  if (status === 401) return new ApiError({ code: 'unauthorized', status });
  if (status >= 500) return new ApiError({ code: 'server', status });
  return new ApiError({ code: code ?? 'api', status, ...(field ? { field } : {}) });
}

export function networkError(): ApiError {
  return new ApiError({ code: 'network', status: 0 });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
