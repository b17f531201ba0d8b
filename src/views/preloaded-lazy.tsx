// Code loaded on demand, without React's reveal delay when it is already here. React shows a lazy
// component's content no sooner than 300 ms after its Suspense fallback appeared (to avoid flicker); a
// screen whose code the start-up preload or an earlier visit already fetched would pay that for nothing.
// So a loader remembers what it loaded, and a component made from it renders at once when it can.
import { lazy, type ComponentType } from 'react';

export type Loader<T> = {
  (): Promise<T>;
  /** What the loader resolved to, once it has. */
  loaded(): T | undefined;
};

/** Loads once and remembers the result; a failed load may be tried again. */
export function loader<T>(load: () => Promise<T>): Loader<T> {
  let pending: Promise<T> | null = null;
  let result: { value: T } | null = null;
  const run = () => {
    pending ??= load().then(
      (value) => {
        result = { value };
        return value;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return Object.assign(run, { loaded: () => result?.value });
}

/** A component from a loader's module: rendered at once once loaded, else through React.lazy. */
export function preloadedLazy<M, P extends object>(
  load: Loader<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  let component: ComponentType<P> | null = null;
  // One component per module, so that React never sees a new component type and remounts.
  const componentOf = (module: M) => (component ??= pick(module));
  const Lazy = lazy(async () => ({ default: componentOf(await load()) }));
  function Preloaded(props: P) {
    const module = load.loaded();
    const Loaded = module === undefined ? Lazy : componentOf(module);
    return <Loaded {...props} />;
  }
  return Preloaded;
}
