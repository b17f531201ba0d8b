// POST /verifications: a report on the signatures of any PDF, for anyone, signed in or not (a recipient
// checks what they were sent). The call is counted against the client's address before its body is read;
// the file is read in the PDF sandbox (server/verification/verify-pdf.ts) and never stored or logged.
import type { FastifyReply } from 'fastify';
import { consumeAddressRateLimit, type AddressRateLimit } from '../auth/address-rate-limit.ts';
import type { Handlers, OperationRequest } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { pdfSandbox, SandboxFailure } from '../pdf/sandbox.ts';
import type { RefusedFile } from '../verification/report.ts';
import { readRequestPdf } from '../verification/request-pdf.ts';
import { trustContext } from '../verification/trust.ts';
import { sendTooManyRequests } from './connections.ts';

// A person checks a handful of files; a script checking thousands from one address is stopped early.
export const VERIFICATION_LIMIT: AddressRateLimit = {
  action: 'verification',
  max: 20,
  windowMs: 10 * 60_000,
};

const REFUSALS: Record<RefusedFile, string> = {
  empty_file: 'The file is empty.',
  not_a_pdf: 'The file is not a PDF document.',
  encrypted_pdf: 'The PDF is encrypted or password protected; its signatures cannot be checked.',
};

async function createVerification(req: OperationRequest<'createVerification'>, reply: FastifyReply) {
  const deps = req.server.deps;
  const verdict = await consumeAddressRateLimit(deps, req.ip, VERIFICATION_LIMIT);
  if (verdict.limited) {
    // The unread body is not drained for a refused call: the connection closes instead.
    reply.header('connection', 'close');
    return sendTooManyRequests(reply, verdict.retryAfterSeconds);
  }
  let bytes: Buffer;
  try {
    bytes = await readRequestPdf(req, deps.config.maxUploadBytes);
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) reply.header('connection', 'close');
    throw error;
  }
  const trust = await trustContext(deps);
  let outcome;
  try {
    outcome = await pdfSandbox('verify', deps.config.pdfSandbox).verify(bytes, trust, deps.clock());
  } catch (error) {
    if (!(error instanceof SandboxFailure) || error.reason === 'stopped') throw error;
    if (error.reason === 'error' || error.reason === 'crashed') {
      req.log.warn({ reason: error.reason, error: error.message }, 'a verification could not read its file');
      throw new ApiError(422, 'pdf_unreadable', 'The file could not be read as a PDF.');
    }
    throw new ApiError(
      422,
      'pdf_too_complex',
      'The file could not be checked within the memory and time this server allows.',
    );
  }
  if (!outcome.ok) throw new ApiError(422, outcome.code, REFUSALS[outcome.code]);
  req.log.info(
    { verdict: outcome.report.verdict, signatures: outcome.report.signatures.length },
    'verification reported',
  );
  return {
    data: {
      id: outcome.sha256,
      type: 'verifications' as const,
      attributes: outcome.report,
    },
  };
}

export const verificationHandlers: Handlers = { createVerification };
