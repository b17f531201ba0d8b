// The messages between the API process and the sign engine (advanced serialisation: bytes travel as
// Uint8Array).
import type { Placeholder } from './increment.ts';
import type { DssEntry } from './ltv.ts';
import type { SignatureRequest } from './signer.ts';

/** What the stamp and the signature dictionary need of a request: everything but the file. */
export type PlaceRequest = Omit<SignatureRequest, 'pdf'>;

/**
 * A PDF on its way between the processes: in the message when it is small, else in a file of the engine's
 * folder (the message channel copies its bytes on the event loop, tens of milliseconds a megabyte).
 */
export type PdfBytes = { bytes: Uint8Array } | { file: string };

/** Where the engine writes a result too large for the message. */
type Output = { output: string };

export type EngineRequest =
  | ({ type: 'place'; id: number; pdf: PdfBytes; request: PlaceRequest } & Output)
  | ({ type: 'dss'; id: number; pdf: PdfBytes; entries: DssEntry[] } & Output)
  | ({ type: 'document-timestamp'; id: number; pdf: PdfBytes } & Output);

/** A placeholder (increment.ts) as the engine answers it. */
export type PlaceholderReply = Omit<Placeholder, 'pdf'> & { pdf: PdfBytes };

export type EngineOutcome = { ok: true; value: unknown } | { ok: false; message: string; presign: boolean };

export type EngineReply = { type: 'ready' } | { type: 'result'; id: number; value: EngineOutcome };

/** Above this size a PDF travels through a file rather than in a message. */
export const INLINE_PDF_BYTES = 256 * 1024;
