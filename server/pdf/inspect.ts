// Decides whether uploaded bytes may become a document: a PDF by its header and its parse, not encrypted,
// with at most `maxPages` pages. The parse runs in the PDF sandbox with its memory and time limits; a
// file that breaks them is refused as not a PDF, since no reader could open it here either.
import type { PdfSandboxLimits } from '../config.ts';
import type { PdfInspection } from './inspect-bytes.ts';
import { pdfSandbox, SandboxFailure } from './sandbox.ts';

export type { PdfInspection } from './inspect-bytes.ts';

export type InspectLimits = { maxPages: number; pdfSandbox: PdfSandboxLimits };

export async function inspectPdf(buf: Buffer, limits: InspectLimits): Promise<PdfInspection> {
  if (buf.length === 0) return { ok: false, code: 'empty_file' };
  let inspection: PdfInspection;
  try {
    inspection = await pdfSandbox('inspect', limits.pdfSandbox).inspect(buf);
  } catch (error) {
    if (error instanceof SandboxFailure && error.reason !== 'stopped')
      return { ok: false, code: 'not_a_pdf' };
    throw error;
  }
  if (inspection.ok && inspection.pageCount > limits.maxPages) return { ok: false, code: 'too_many_pages' };
  return inspection;
}

// At start-up: the first upload then does not wait for the sandbox to load pdfjs and pdf-lib.
export function warmUpInspection(limits: PdfSandboxLimits): void {
  void pdfSandbox('inspect', limits).warmUp();
}
