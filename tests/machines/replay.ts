// Replays generated paths on a live actor: every actor the machine invokes is a fake that settles only
// when the path says so (xstate.done/error.actor.<id>), and timers run on a SimulatedClock advanced to
// the moment the path's xstate.after.* event is due. Each step must land on the snapshot the pure
// traversal predicted; the transitions it takes are collected for the coverage gate.
import { createActor, fromPromise, SimulatedClock, type AnyStateMachine, type EventObject } from 'xstate';
import {
  takenTransitions,
  transitionPaths,
  type RegisteredMachine,
  type TransitionPath,
  type TransitionPaths,
} from '../../scripts/lib/transition-paths';

type Settle = { resolve: (output: unknown) => void; reject: (error: unknown) => void };

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

function pendingFakes(machine: AnyStateMachine, pending: Map<string, Settle>) {
  const names = Object.keys(machine.implementations.actors);
  return Object.fromEntries(
    names.map((name) => [
      name,
      fromPromise(
        ({ self }) => new Promise<unknown>((resolve, reject) => pending.set(self.id, { resolve, reject })),
      ),
    ]),
  );
}

export type ReplayResult = { taken: string[]; problems: string[] };

export async function replayPath(machine: AnyStateMachine, path: TransitionPath): Promise<ReplayResult> {
  const pending = new Map<string, Settle>();
  const clock = new SimulatedClock();
  const actor = createActor(machine.provide({ actors: pendingFakes(machine, pending) }), {
    input: path.input,
    clock,
  });
  const seenAt = new Map<object, number>();
  const noteTimers = () => {
    for (const scheduled of Object.values(actor.system.getSnapshot()._scheduledEvents)) {
      if (!seenAt.has(scheduled)) seenAt.set(scheduled, clock.now());
    }
  };
  const taken: string[] = [];
  const problems: string[] = [];
  actor.start();
  noteTimers();
  try {
    for (const [index, step] of path.steps.entries()) {
      const where = `step ${index + 1} (${step.event.type})`;
      if (index > 0) {
        const before = actor.getSnapshot();
        taken.push(...takenTransitions(before, step.event));
        const problem = await play(step.event, before.children as Record<string, unknown>);
        if (problem) {
          problems.push(`${where}: ${problem}`);
          break;
        }
        noteTimers();
      }
      const live = actor.getSnapshot();
      const expectedChildren = Object.keys(step.state.children).sort();
      if (JSON.stringify(live.value) !== JSON.stringify(step.state.value)) {
        problems.push(
          `${where}: live state ${JSON.stringify(live.value)}, expected ${JSON.stringify(step.state.value)}`,
        );
      } else if (!sameJson(live.context, step.state.context)) {
        problems.push(`${where}: live context differs from the traversal's`);
      } else if (live.status !== step.state.status) {
        problems.push(`${where}: live status ${live.status}, expected ${step.state.status}`);
      } else if (JSON.stringify(Object.keys(live.children).sort()) !== JSON.stringify(expectedChildren)) {
        problems.push(
          `${where}: running actors ${Object.keys(live.children).join(', ')}, expected ${expectedChildren.join(', ')}`,
        );
      }
      if (problems.length > 0) break;
    }
  } finally {
    actor.stop();
  }
  return { taken, problems };

  async function play(event: EventObject, children: Record<string, unknown>): Promise<string | null> {
    const actorResult = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (actorResult) {
      const [, outcome, id = ''] = actorResult;
      const settle = pending.get(id);
      if (!children[id] || !settle)
        return `no running actor '${id}' to ${outcome === 'done' ? 'resolve' : 'reject'}`;
      pending.delete(id);
      if (outcome === 'done') settle.resolve((event as EventObject & { output?: unknown }).output);
      else settle.reject((event as EventObject & { error?: unknown }).error);
      await flush();
      return null;
    }
    if (event.type.startsWith('xstate.after.')) {
      const timer = Object.values(actor.system.getSnapshot()._scheduledEvents).find(
        (scheduled) => scheduled.event.type === event.type && scheduled.source === actor,
      );
      if (!timer) return 'no such timer is running';
      clock.increment((seenAt.get(timer) ?? clock.now()) + timer.delay - clock.now());
      await flush();
      return null;
    }
    actor.send(event);
    await flush();
    return null;
  }
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

export type CoverageReport = {
  /** Transitions of the definition that no replayed path took. */
  missing: string[];
  problems: string[];
  paths: number;
};

/** The gate for one machine: generate the covering paths, replay each live, and compare with the definition. */
export async function checkCoverage(
  entry: RegisteredMachine,
  generated: TransitionPaths = transitionPaths(entry),
): Promise<CoverageReport> {
  const { transitions, paths } = generated;
  const taken = new Set<string>();
  const problems: string[] = [];
  for (const [index, path] of paths.entries()) {
    const result = await replayPath(entry.machine, path);
    result.taken.forEach((key) => taken.add(key));
    problems.push(...result.problems.map((problem) => `path ${index + 1}: ${problem}`));
  }
  return {
    missing: transitions.map((transition) => transition.key).filter((key) => !taken.has(key)),
    problems,
    paths: paths.length,
  };
}
