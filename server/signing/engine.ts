// The sign engine seen from the API process: each PDF step of a signature is a request to a sandboxed
// child (engine-child.ts) with the PDF sandbox's memory cap and a time limit, so no step blocks the event
// loop, and a file that takes too long or too much memory fails its signature alone. Keys, signing and
// the calls to time-stamp and OCSP services stay here.
// A PDF larger than INLINE_PDF_BYTES goes to the child and back through a file in a private folder: the
// message channel would serialise, join and copy its bytes on the event loop (on this project's machines
// a 29 MB file held it for 0.3 to 1.4 s), where a file is written and read in libuv's thread pool.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PdfSandboxLimits } from '../config.ts';
import { PdfSandbox, SANDBOX_TSX_LOADER, SandboxFailure } from '../pdf/sandbox.ts';
import {
  INLINE_PDF_BYTES,
  type EngineOutcome,
  type EngineRequest,
  type PdfBytes,
  type PlaceRequest,
  type PlaceholderReply,
} from './engine-protocol.ts';
import type { Placeholder } from './increment.ts';
import type { DssEntry } from './ltv.ts';
import { PresignError } from './signer.ts';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'engine-boot.mjs');
// pdf-lib reads and rewrites a 50 MB file in a few seconds; far longer is a file built to be slow.
const STEP_TIMEOUT_MS = 60_000;

type RequestBody = EngineRequest extends infer R
  ? R extends { id: number }
    ? Omit<R, 'id' | 'pdf' | 'output'>
    : never
  : never;

const toBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class SignEngine {
  readonly #sandbox: PdfSandbox;

  constructor(limits: PdfSandboxLimits) {
    this.#sandbox = new PdfSandbox(limits, 0, {
      entry: ENTRY,
      env: () => ({ PARAPH_SANDBOX_LOADER: SANDBOX_TSX_LOADER }),
    });
  }

  /**
   * One step: `pdf` to the engine, and its answer through `read`. A step's files are in a folder of its
   * own, which only this process's user can read (mkdtemp makes it 0700) and which goes when the step ends.
   */
  async #run<T>(request: RequestBody, pdf: Uint8Array, read: (value: unknown) => Promise<T>): Promise<T> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'paraph-sign-'));
    try {
      const input = pdf.length > INLINE_PDF_BYTES ? path.join(folder, 'in.pdf') : null;
      if (input !== null) await writeFile(input, pdf);
      let outcome: EngineOutcome;
      try {
        outcome = (await this.#sandbox.request(
          // Where the engine writes its answer when that is large (a small file can grow past the limit).
          {
            ...request,
            pdf: input === null ? { bytes: pdf } : { file: input },
            output: path.join(folder, 'out.pdf'),
          },
          STEP_TIMEOUT_MS,
        )) as EngineOutcome;
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
      return await read(outcome.value);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** The PDF's bytes, from the message or from the file the engine wrote. */
  static async #bytes(pdf: PdfBytes): Promise<Buffer> {
    return 'bytes' in pdf ? toBuffer(pdf.bytes) : readFile(pdf.file);
  }

  static async #placeholder(value: unknown): Promise<Placeholder> {
    const reply = value as PlaceholderReply;
    return { ...reply, pdf: await SignEngine.#bytes(reply.pdf), digest: toBuffer(reply.digest) };
  }

  /** The file ready for its next signature (rewritten once before the first), stamped, with its value empty. */
  async placeSignature(pdf: Uint8Array, request: PlaceRequest): Promise<Placeholder> {
    return this.#run({ type: 'place', request }, pdf, SignEngine.#placeholder);
  }

  async appendDss(pdf: Uint8Array, entries: DssEntry[]): Promise<Buffer> {
    return this.#run({ type: 'dss', entries }, pdf, (value) => SignEngine.#bytes(value as PdfBytes));
  }

  async placeDocumentTimeStamp(pdf: Uint8Array): Promise<Placeholder> {
    return this.#run({ type: 'document-timestamp' }, pdf, SignEngine.#placeholder);
  }

  stop(): void {
    this.#sandbox.stop();
  }
}

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
