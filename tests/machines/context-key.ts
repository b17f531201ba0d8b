// The check behind the traversal's key (scripts/lib/transition-paths.ts keys a state on its value and the
// context fields its guards read): on the snapshots of the generated paths, a context whose fields outside
// the key are another snapshot's must get the same answer from every guard, for every registered event,
// and the step must end in the same state. If not, two snapshots the traversal took for one differ.
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { toPlainJson } from '../../scripts/lib/plain-json';
import {
  nextSnapshot,
  takenTransitions,
  type RegisteredMachine,
  type TransitionPaths,
} from '../../scripts/lib/transition-paths';

const THREW = Symbol('threw');

function attempt<T>(run: () => T): T | typeof THREW {
  try {
    return run();
  } catch {
    return THREW;
  }
}

type Answer = { guards: string | typeof THREW; end: string | typeof THREW | null };

function answerTo(snapshot: AnyMachineSnapshot, event: EventObject): Answer {
  return {
    guards: attempt(() => takenTransitions(snapshot, event).join('\n')),
    // An event an action raises is handled within the step: its guards show in where the step ends.
    end: snapshot.can(event) ? attempt(() => JSON.stringify(nextSnapshot(snapshot, event).value)) : null,
  };
}

function differ(before: Answer, after: Answer): boolean {
  if (before.guards !== after.guards) return true;
  // A step the other context cannot take (an actor's input that needs another field) proves nothing.
  return before.end !== THREW && after.end !== THREW && before.end !== after.end;
}

type Context = Record<string, unknown>;

const encoded = (value: unknown) => JSON.stringify(toPlainJson(value));

/** Each guard that told apart two contexts differing only outside `contextKey`, with the fields it read. */
export function unkeyedGuardReads(
  entry: RegisteredMachine,
  result: Pick<TransitionPaths, 'paths' | 'contextKey'>,
): string[] {
  const snapshots = [...new Set(result.paths.flatMap((path) => path.steps.map((step) => step.state)))].filter(
    (snapshot) => snapshot.status === 'active',
  );
  const contextOf = (snapshot: AnyMachineSnapshot) => (snapshot.context ?? {}) as Context;
  const unkeyed = (snapshot: AnyMachineSnapshot) =>
    Object.keys(contextOf(snapshot)).filter((field) => !result.contextKey.includes(field));
  const problems = new Set<string>();
  snapshots.forEach((snapshot, index) => {
    const own = contextOf(snapshot);
    // Other snapshots along the paths lend their unkeyed fields: the next one, and two further away.
    const count = snapshots.length;
    const partners = [1, Math.floor(count / 3), Math.floor((2 * count) / 3)].map(
      (offset) => snapshots[(index + offset) % count],
    );
    for (const partner of new Set(partners)) {
      if (!partner || partner === snapshot) continue;
      const lent = contextOf(partner);
      const fields = unkeyed(snapshot).filter((field) => encoded(own[field]) !== encoded(lent[field]));
      if (fields.length === 0) continue;
      const withFields = (names: string[]) =>
        ({
          ...snapshot,
          context: { ...own, ...Object.fromEntries(names.map((name) => [name, lent[name]])) },
        }) as AnyMachineSnapshot;
      const mixed = withFields(fields);
      for (const event of entry.events) {
        const before = answerTo(snapshot, event);
        if (!differ(before, answerTo(mixed, event))) continue;
        const alone = fields.filter((field) => differ(before, answerTo(withFields([field]), event)));
        const culprits = (alone.length > 0 ? alone : fields).join(', ');
        problems.add(`${JSON.stringify(snapshot.value)} on ${event.type} depends on ${culprits}`);
      }
    }
  });
  return [...problems];
}
