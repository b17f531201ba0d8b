// Code loaded on demand, without React's reveal delay. React shows a lazy component's content no sooner
// than 300 ms after any Suspense fallback appeared (to avoid flicker); a screen whose code the start-up
// preload or an earlier visit is already fetching would pay that for nothing. So a loader remembers what
// it loaded, and a component made from it renders at once when it can, or a plain fallback meanwhile.
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';

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

/**
 * A component from a loader's module, rendered at once when the module is here and `fallback` until it
 * arrives. It does not suspend: React would hold the content back for its 300 ms reveal delay after
 * any fallback, and code that a preload is already fetching arrives well before that. A failed load is
 * rethrown during render, so the nearest error boundary shows it as it would for React.lazy.
 */
export function preloadedLazy<M, P extends object>(
  load: Loader<M>,
  pick: (module: M) => ComponentType<P>,
  fallback: ReactNode = null,
): ComponentType<P> {
  let component: ComponentType<P> | null = null;
  // One component per module, so that React never sees a new component type and remounts.
  const componentOf = (module: M) => (component ??= pick(module));
  function Preloaded(props: P) {
    const [module, setModule] = useState<{ value: M } | null>(() => {
      const loaded = load.loaded();
      return loaded === undefined ? null : { value: loaded };
    });
    const [, rethrow] = useState<null>(null);
    useEffect(() => {
      if (module !== null) return undefined;
      let isMounted = true;
      load().then(
        (value) => {
          if (isMounted) setModule({ value });
        },
        (error: unknown) => {
          if (isMounted)
            rethrow(() => {
              throw error;
            });
        },
      );
      return () => {
        isMounted = false;
      };
    }, [module]);
    if (module === null) return <>{fallback}</>;
    const Loaded = componentOf(module.value);
    return <Loaded {...props} />;
  }
  return Preloaded;
}
