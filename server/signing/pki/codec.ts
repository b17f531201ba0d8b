// The protocols' ASN.1 work runs on a worker thread, the codec thread (codec-thread.ts): writing and
// reading CMS signatures, time-stamp tokens and OCSP responses with @peculiar/asn1-schema is synchronous
// and costs milliseconds a structure. On the event loop, ten signatures at once put tens of them into one
// turn of the loop (their RSA signatures come back from the thread pool together), and every request
// waited that long.
// The keys stay on this thread: the codec thread is given certificates and digests, and asks this thread
// for each RSA signature (made in the thread pool, crypto.sign with a callback) and for what only this
// thread has (a time-stamp from the TSA, a certificate's status from the database). One thread serves the
// process: it starts at the first call, and never keeps the process alive when idle.
import { Worker } from 'node:worker_threads';
import type { CodecOperations } from './codec-thread.ts';
import { RevocationUnavailableError, TimeStampUnavailableError } from './errors.ts';

/** An error as it crosses between the threads (its class, by name, for the two the callers tell apart). */
export type CodecError = { name: string; message: string; service?: string };

type Calls = Record<string, ((...args: never[]) => Promise<unknown>) | undefined>;

export type CodecRequest =
  | { type: 'run'; id: number; operation: string; input: unknown; calls: string[] }
  | { type: 'return'; id: number; call: number; value: unknown }
  | { type: 'throw'; id: number; call: number; error: CodecError };

export type CodecReply =
  | { type: 'call'; id: number; call: number; name: string; args: unknown[] }
  | { type: 'done'; id: number; value: unknown }
  // `call`: the operation failed with what one of this thread's calls threw, passed on unchanged.
  | { type: 'failed'; id: number; error: CodecError; call?: number };

export function codecError(error: unknown): CodecError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const service = (error as { service?: unknown }).service;
  return {
    name: error.name,
    message: error.message,
    ...(typeof service === 'string' ? { service } : {}),
  };
}

function revive({ name, message, service }: CodecError): Error {
  const error =
    name === 'TimeStampUnavailableError'
      ? new TimeStampUnavailableError('', { service })
      : name === 'RevocationUnavailableError'
        ? new RevocationUnavailableError('', { service })
        : Object.assign(new Error(), { name });
  error.message = message;
  return error;
}

type Pending = {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  calls: Calls;
  // What this thread's calls threw, by call: an operation that fails with it rejects with the very error.
  thrown: Map<number, unknown>;
};

const BOOT = new URL('./codec-boot.mjs', import.meta.url);
const ENTRY = new URL('./codec-thread.ts', import.meta.url).href;

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 1;

function stopped(gone: Worker, reason: string): void {
  if (worker !== gone) return;
  worker = null;
  const failed = [...pending.values()];
  pending.clear();
  for (const call of failed) call.reject(new Error(`The PKI codec thread stopped: ${reason}`));
}

/**
 * `value` with every byte array that is a view into a larger buffer copied out: postMessage copies a
 * view's whole buffer (a Buffer from node's pool, a digest cut from a file).
 */
function compact(value: unknown): unknown {
  if (ArrayBuffer.isView(value)) {
    return value instanceof Uint8Array && value.byteLength !== value.buffer.byteLength
      ? new Uint8Array(value)
      : value;
  }
  if (Array.isArray(value)) return value.map(compact);
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, compact(item)]));
  }
  return value;
}

function post(target: Worker, message: CodecRequest): void {
  target.postMessage(compact(message));
}

function answerCall(target: Worker, message: Extract<CodecReply, { type: 'call' }>): void {
  const call = pending.get(message.id);
  const fn = call?.calls[message.name];
  if (call === undefined) return;
  const reply = fn
    ? (fn as (...args: unknown[]) => Promise<unknown>)(...message.args)
    : Promise.reject(new Error(`The codec thread asked for ${message.name}, which it was not given`));
  reply.then(
    (value) => {
      if (pending.has(message.id))
        post(target, { type: 'return', id: message.id, call: message.call, value });
    },
    (error: unknown) => {
      if (!pending.has(message.id)) return;
      call.thrown.set(message.call, error);
      post(target, { type: 'throw', id: message.id, call: message.call, error: codecError(error) });
    },
  );
}

function start(): Worker {
  // Worker threads do not inherit the process's TypeScript loader (node 20): the boot script loads it.
  const started = new Worker(BOOT, { workerData: { entry: ENTRY }, execArgv: [] });
  started.unref();
  started.on('message', (message: CodecReply) => {
    if (message.type === 'call') {
      answerCall(started, message);
      return;
    }
    const call = pending.get(message.id);
    if (call === undefined) return;
    pending.delete(message.id);
    if (pending.size === 0) started.unref();
    if (message.type === 'done') call.resolve(message.value);
    else if (message.call !== undefined && call.thrown.has(message.call))
      call.reject(call.thrown.get(message.call));
    else call.reject(revive(message.error));
  });
  started.on('error', (error) => stopped(started, error.message));
  started.on('exit', (code) => stopped(started, `exit code ${code}`));
  return started;
}

type Operation = keyof CodecOperations;

/** Runs `operation` (codec-thread.ts) on the codec thread; `calls` are what it may ask this thread for. */
export function offThread<O extends Operation>(
  operation: O,
  input: Parameters<CodecOperations[O]>[0],
  calls: Parameters<CodecOperations[O]>[1],
): Promise<Awaited<ReturnType<CodecOperations[O]>>> {
  worker ??= start();
  const target = worker;
  const id = nextId++;
  const given = (calls ?? {}) as Calls;
  return new Promise((resolve, reject) => {
    pending.set(id, {
      resolve: resolve as (value: unknown) => void,
      reject,
      calls: given,
      thrown: new Map(),
    });
    // A call in flight keeps the process alive, as any other pending I/O does.
    if (pending.size === 1) target.ref();
    try {
      post(target, {
        type: 'run',
        id,
        operation,
        input,
        calls: Object.keys(given).filter((name) => given[name] !== undefined),
      });
    } catch (error) {
      // An input that cannot be copied to the thread (a programming error) fails this call alone.
      pending.delete(id);
      if (pending.size === 0) target.unref();
      reject(error);
    }
  });
}

/** Stops the codec thread (a later call starts another): calls in flight fail. */
export async function stopCodecThread(): Promise<void> {
  const current = worker;
  if (current === null) return;
  await current.terminate();
  stopped(current, 'stopped');
}
