// The one place that decides whether actors report to the Stately inspector. Every actor the app
// creates takes its options from `actorOptions`, so turning the flag on covers all of them; with the
// flag off the inspector package is never imported and stays out of every chunk that loads.
import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let inspect: Inspect | undefined;

export function isInspectorRequested(search: string, envFlag: string | undefined): boolean {
  return new URLSearchParams(search).has('inspect') || envFlag === 'true';
}

export async function startInspector(): Promise<void> {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  inspect = createBrowserInspector().inspect;
}

/** Adds the inspector (when it runs) to an actor's options. */
export function actorOptions<T extends object>(options: T): T & { inspect?: Inspect } {
  return inspect ? { ...options, inspect } : options;
}
