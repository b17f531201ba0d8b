// The sign engine seen from the API process: each PDF step of a signature is a request to a sandboxed
// child (engine-child.ts) with the PDF sandbox's memory cap and a time limit, so no step blocks the event
// loop, and a file that takes too long or too much memory fails its signature alone. Keys, signing and
// the calls to time-stamp and OCSP services stay here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PdfSandboxLimits } from '../config.ts';
import { PdfSandbox, SANDBOX_TSX_LOADER, SandboxFailure } from '../pdf/sandbox.ts';
import type { EngineOutcome, EngineRequest, PlaceRequest } from './engine-protocol.ts';
import type { Placeholder } from './increment.ts';
import type { DssEntry } from './ltv.ts';
import { PresignError } from './signer.ts';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'engine-boot.mjs');
// pdf-lib reads and rewrites a 50 MB file in a few seconds; far longer is a file built to be slow.
const STEP_TIMEOUT_MS = 60_000;

type RequestBody = EngineRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class SignEngine {
  readonly #sandbox: PdfSandbox;

  constructor(limits: PdfSandboxLimits) {
    this.#sandbox = new PdfSandbox(limits, 0, {
      entry: ENTRY,
      env: () => ({ PARAPH_SANDBOX_LOADER: SANDBOX_TSX_LOADER }),
    });
  }

  async #run<T>(request: RequestBody): Promise<T> {
    let outcome: EngineOutcome;
    try {
      outcome = (await this.#sandbox.request(request, STEP_TIMEOUT_MS)) as EngineOutcome;
    } catch (error) {
      // Over the time or memory limit: the file, not the server, is the problem.
      if (error instanceof SandboxFailure && (error.reason === 'timeout' || error.reason === 'memory')) {
        throw new PresignError(`The PDF cannot be signed: ${error.message}`);
      }
      throw error;
    }
    if (!outcome.ok) {
      if (outcome.presign) throw new PresignError(outcome.message);
      throw new Error(`The sign engine failed: ${outcome.message}`);
    }
    return outcome.value as T;
  }

  /** The file ready for its next signature (rewritten once before the first), stamped, with its value empty. */
  async placeSignature(pdf: Uint8Array, request: PlaceRequest): Promise<Placeholder> {
    return placeholderFrom(await this.#run<Placeholder>({ type: 'place', pdf, request }));
  }

  async appendDss(pdf: Uint8Array, entries: DssEntry[]): Promise<Buffer> {
    return toBuffer(await this.#run<Uint8Array>({ type: 'dss', pdf, entries }));
  }

  async placeDocumentTimeStamp(pdf: Uint8Array): Promise<Placeholder> {
    return placeholderFrom(await this.#run<Placeholder>({ type: 'document-timestamp', pdf }));
  }

  stop(): void {
    this.#sandbox.stop();
  }
}

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

// Buffers cross the process boundary as plain Uint8Arrays.
const placeholderFrom = (value: Placeholder): Placeholder => ({
  ...value,
  pdf: toBuffer(value.pdf),
  digest: toBuffer(value.digest),
});

// pdf-lib holds a whole file and its objects in memory: a 50 MB upload with many objects needs several
// times its size. The uploads were inspected at upload under the sandbox's own cap already.
const SIGN_ENGINE_LIMITS: PdfSandboxLimits = {
  memoryMb: 1024,
  pageTimeoutMs: STEP_TIMEOUT_MS,
  maxStreamBytes: 0,
};

let shared: SignEngine | null = null;

/** The process's sign engine, shared by the apps of one process (tests build many). */
export function signEngine(): SignEngine {
  shared ??= new SignEngine(SIGN_ENGINE_LIMITS);
  return shared;
}
