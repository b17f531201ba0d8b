// The two ways a signature can fail on the way for reasons outside Paraph: the time-stamping authority or
// the revocation service did not answer in time, answered an error, or answered something that does not
// check out. Both are retryable: the caller ends the signature in a clear state and tries again later.

export type ServiceErrorOptions = {
  /** Where the service was asked (a URL), or a short name for an embedded one. */
  service?: string;
  cause?: unknown;
};

function describe(kind: string, detail: string, service: string | undefined): string {
  return service ? `${kind} (${service}): ${detail}` : `${kind}: ${detail}`;
}

/** The time-stamping authority gave no usable time-stamp token. */
export class TimeStampUnavailableError extends Error {
  readonly service: string | undefined;

  constructor(detail: string, options: ServiceErrorOptions = {}) {
    super(describe('No time-stamp from the time-stamping authority', detail, options.service), {
      cause: options.cause,
    });
    this.name = 'TimeStampUnavailableError';
    this.service = options.service;
  }
}

/** The revocation service (OCSP) gave no usable answer for a certificate. */
export class RevocationUnavailableError extends Error {
  readonly service: string | undefined;

  constructor(detail: string, options: ServiceErrorOptions = {}) {
    super(describe('No revocation status from the OCSP responder', detail, options.service), {
      cause: options.cause,
    });
    this.name = 'RevocationUnavailableError';
    this.service = options.service;
  }
}
