// Small helpers for the machine unit tests: promises the test settles by hand, and a way to let the
// actors' promise callbacks run.
import { fromPromise } from 'xstate';

export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
};

export function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

/** Lets settled promises reach the actors (a macrotask runs after every pending microtask). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A promise actor whose every call is recorded with its input (and the signal that stopping it aborts)
 * and settled by the test, in call order.
 */
export function controlledPromise<TOutput, TInput = unknown>() {
  const calls: { input: TInput; signal: AbortSignal; result: Deferred<TOutput> }[] = [];
  const logic = fromPromise<TOutput, TInput>(({ input, signal }) => {
    const result = deferred<TOutput>();
    calls.push({ input, signal, result });
    return result.promise;
  });
  const last = () => {
    const call = calls.at(-1);
    if (!call) throw new Error('the actor was never started');
    return call;
  };
  return { logic, calls, last };
}
