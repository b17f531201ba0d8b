// Every failed call becomes one shape, whatever went wrong: machines branch on `code`, views turn the
// code into text. `code` is the server's error code when it sent one (decisions.md "API shape").
// `blockedIds` names what stopped a bulk action (or a sign group's members who are not connections).
export type ApiErrorShape = { code: string; status: number; field?: string; blockedIds?: string[] };

export class ApiError extends Error implements ApiErrorShape {
  readonly code: string;
  readonly status: number;
  readonly field?: string;
  readonly blockedIds?: string[];

  constructor({ code, status, field, blockedIds }: ApiErrorShape) {
    super(`API call failed: ${code} (${status})`);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    if (field !== undefined) this.field = field;
    if (blockedIds !== undefined) this.blockedIds = blockedIds;
  }
}

function readBody(body: unknown): { code?: string; field?: string; blockedIds?: string[] } {
  if (typeof body !== 'object' || body === null) return {};
  const code = 'code' in body && typeof body.code === 'string' ? body.code : undefined;
  const field = 'field' in body && typeof body.field === 'string' ? body.field : undefined;
  const blockedIds =
    'blockedIds' in body && Array.isArray(body.blockedIds)
      ? body.blockedIds.filter((id): id is string => typeof id === 'string')
      : undefined;
  return { ...(code ? { code } : {}), ...(field ? { field } : {}), ...(blockedIds ? { blockedIds } : {}) };
}

/** 401 is always `unauthorized` and 5xx always `server`, the two codes the session acts on. */
export function errorFromResponse(status: number, body: unknown): ApiError {
  const { code, field, blockedIds } = readBody(body);
  if (status === 401) return new ApiError({ code: 'unauthorized', status });
  if (status >= 500) return new ApiError({ code: 'server', status });
  return new ApiError({
    code: code ?? 'api',
    status,
    ...(field ? { field } : {}),
    ...(blockedIds ? { blockedIds } : {}),
  });
}

export function networkError(): ApiError {
  return new ApiError({ code: 'network', status: 0 });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
