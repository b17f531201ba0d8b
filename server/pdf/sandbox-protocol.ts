// The messages between the API process and the PDF sandbox (advanced serialisation: bytes travel as
// Uint8Array without base64).
export type SandboxRequest =
  | { type: 'inspect'; id: number; bytes: Uint8Array }
  | { type: 'open'; id: number; bytes: Uint8Array }
  | { type: 'render'; id: number; pageNumber: number };

export type SandboxReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; reason: 'stream_limit' | 'error'; message: string };
