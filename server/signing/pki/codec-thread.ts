// The codec thread (see codec.ts): runs the protocols' ASN.1 operations for the main thread, and asks it
// for the RSA signatures and the answers only it can give. It holds no key.
import { parentPort } from 'node:worker_threads';
import { codecError, type CodecError, type CodecReply, type CodecRequest } from './codec.ts';
import { assembleCadesSignature } from './cms.ts';
import { answerOcspRequest, ocspResponseFor } from './ocsp.ts';
import { answerTimeStampRequest, issueTimeStampToken, readTimeStampTokenOperation } from './tsa.ts';

export const operations = {
  cades: assembleCadesSignature,
  'time-stamp-token': issueTimeStampToken,
  'time-stamp-answer': answerTimeStampRequest,
  'read-time-stamp-token': readTimeStampTokenOperation,
  'ocsp-response': ocspResponseFor,
  'ocsp-answer': answerOcspRequest,
};

export type CodecOperations = typeof operations;

/** What one of the main thread's calls threw, as the operation sees it. */
class CallFailure extends Error {
  readonly call: number;

  constructor(call: number, error: CodecError) {
    super(error.message);
    this.call = call;
    this.name = error.name;
  }
}

const port = parentPort;
if (port === null) throw new Error('codec-thread.ts runs on the codec thread only (see codec.ts)');

const send = (message: CodecReply) => port.postMessage(message);
const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
let nextCall = 1;

function callsFor(id: number, names: readonly string[]) {
  const calls: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of names) {
    calls[name] = (...args) =>
      new Promise((resolve, reject) => {
        const call = nextCall++;
        waiting.set(call, { resolve, reject });
        send({ type: 'call', id, call, name, args });
      });
  }
  return calls;
}

async function run(request: Extract<CodecRequest, { type: 'run' }>): Promise<void> {
  const operation = operations[request.operation as keyof CodecOperations] as
    ((input: unknown, calls: unknown) => Promise<unknown>) | undefined;
  try {
    if (operation === undefined) throw new Error(`No codec operation ${request.operation}`);
    const value = await operation(request.input, callsFor(request.id, request.calls));
    send({ type: 'done', id: request.id, value });
  } catch (error) {
    send({
      type: 'failed',
      id: request.id,
      error: codecError(error),
      ...(error instanceof CallFailure ? { call: error.call } : {}),
    });
  }
}

port.on('message', (message: CodecRequest) => {
  if (message.type === 'run') {
    void run(message);
    return;
  }
  const call = waiting.get(message.call);
  if (call === undefined) return;
  waiting.delete(message.call);
  if (message.type === 'return') call.resolve(message.value);
  else call.reject(new CallFailure(message.call, message.error));
});
