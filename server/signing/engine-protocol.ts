// The messages between the API process and the sign engine (advanced serialisation: bytes travel as
// Uint8Array).
import type { DssEntry } from './ltv.ts';
import type { SignatureRequest } from './signer.ts';

/** What the stamp and the signature dictionary need of a request: everything but the file. */
export type PlaceRequest = Omit<SignatureRequest, 'pdf'>;

export type EngineRequest =
  | { type: 'place'; id: number; pdf: Uint8Array; request: PlaceRequest }
  | { type: 'dss'; id: number; pdf: Uint8Array; entries: DssEntry[] }
  | { type: 'document-timestamp'; id: number; pdf: Uint8Array };

export type EngineOutcome = { ok: true; value: unknown } | { ok: false; message: string; presign: boolean };

export type EngineReply = { type: 'ready' } | { type: 'result'; id: number; value: EngineOutcome };
