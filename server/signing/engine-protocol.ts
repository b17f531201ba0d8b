// The messages between the API process and the sign engine (advanced serialisation: bytes travel as
// Uint8Array).
import type { DssEntry } from './ltv.ts';

export type EngineRequest =
  | { type: 'dss'; id: number; pdf: Uint8Array; entries: DssEntry[] }
  | { type: 'document-timestamp'; id: number; pdf: Uint8Array };

export type EngineOutcome = { ok: true; value: unknown } | { ok: false; message: string; presign: boolean };

export type EngineReply = { type: 'ready' } | { type: 'result'; id: number; value: EngineOutcome };
