// The app's root actor (machines/shell.machine.ts), created once by App and handed down by context.
// Views read its children with selectors and send it events; they never wire one actor to another.
import { createContext, useContext, useEffect } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { shellMachine, ShellEmitted } from '../../machines/shell.machine';

export type ShellActorRef = ActorRefFrom<typeof shellMachine>;
type Children = ReturnType<ShellActorRef['getSnapshot']>['children'];
export type ShellChildName = keyof Children;
export type ShellChild<Name extends ShellChildName> = NonNullable<Children[Name]>;

export const ShellContext = createContext<ShellActorRef | null>(null);

/** The shell, or null outside it (a bare view in a test): such views offer nothing that needs it. */
export function useOptionalShell(): ShellActorRef | null {
  return useContext(ShellContext);
}

export function useShell(): ShellActorRef {
  const shell = useContext(ShellContext);
  if (!shell) throw new Error('useShell must be used inside the app shell');
  return shell;
}

/** One of the shell's long-lived children (session, modal, documentActions, welcome, language). */
export function useShellChild<Name extends ShellChildName>(name: Name): ShellChild<Name> {
  const child = useSelector(useShell(), (snapshot) => snapshot.children[name]);
  if (!child) throw new Error(`the shell has no '${String(name)}' actor`);
  return child as ShellChild<Name>;
}

/**
 * A screen hears when documents changed elsewhere (an action, an upload, a signature): the shell emits
 * it, and `listener` (stable: wrap it in useCallback) tells the screen's actor.
 */
export function useDocumentChanges(listener: (event: ShellEmitted) => void): void {
  const shell = useOptionalShell();
  useEffect(() => {
    if (!shell) return;
    const subscription = shell.on('documents.changed', listener);
    return () => subscription.unsubscribe();
  }, [shell, listener]);
}
