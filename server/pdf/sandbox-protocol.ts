// The messages between the API process and the PDF sandbox (advanced serialisation: bytes travel as
// Uint8Array without base64).
export type SandboxRequest =
  | { type: 'inspect'; id: number; bytes: Uint8Array }
  | { type: 'open'; id: number; bytes: Uint8Array }
  | { type: 'render'; id: number; pageNumber: number }
  // A signature report (server/verification/): the trust anchors' DER, the deployment CA's current CRLs,
  // and the time it is made at.
  | {
      type: 'verify';
      id: number;
      bytes: Uint8Array;
      anchors: Uint8Array[];
      currentCrls: Uint8Array[];
      now: string;
    };

export type SandboxReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; reason: 'stream_limit' | 'error'; message: string };
