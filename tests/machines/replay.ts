// Replays generated paths on a live actor and records what each transition does. Every promise or callback
// actor the machine invokes is a fake that settles only when the path says so (xstate.done/error.actor.<id>);
// an invoked machine runs for real, with its own actors faked the same way, and is driven to the output
// the path says it ends with. Timers run on a SimulatedClock advanced to the moment the path's
// xstate.after.* event is due. Each step must land on the snapshot the machine's definition predicts (the
// traversal's, with any event a child sent the parent applied too), and each microstep of every machine
// in the system runs the effects its table (tests/machines/effects) declares for the transitions it took.
import {
  createActor,
  fromPromise,
  SimulatedClock,
  StateMachine,
  type AnyActor,
  type AnyActorRef,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type InspectionEvent,
} from 'xstate';
import { toPlainJson } from '../../scripts/lib/plain-json';
import {
  initialLeaves,
  leavesOf,
  nextSnapshot,
  refutedTransitions,
  transitionKeysFrom,
  transitionPaths,
  type RegisteredMachine,
  type TransitionPath,
  type TransitionPaths,
} from '../../scripts/lib/transition-paths';
import { START, declaredEffects, type EffectTable } from './effects/table';

/** What the replay knows of a machine it meets: the one under test, or one that it invokes. */
export type KnownMachine = { name: string; events: readonly EventObject[]; effects?: EffectTable };
export type Registry = (machine: AnyStateMachine) => KnownMachine | undefined;

type Settle = { resolve: (output: unknown) => void; reject: (error: unknown) => void };

/** The effects of the transitions one machine took in one microstep (or in starting). */
type Microstep = { actor: AnyActorRef; event: EventObject; keys: string[]; effects: string[] };

type ActorLog = {
  machine: AnyStateMachine;
  isStarting: boolean;
  /** The atomic states the machine is in before its next microstep. */
  leaves: AnyStateNode[];
  startKeys: string[];
  effects: string[];
};

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
const sameJson = (left: unknown, right: unknown) =>
  JSON.stringify(toPlainJson(left)) === JSON.stringify(toPlainJson(right));

/** An actor's done and error events also name the actor (`actorId`), which the registered ones leave out. */
function isSameEvent(received: EventObject | undefined, sent: EventObject): boolean {
  if (!received) return false;
  const plain = (event: EventObject) => Object.entries(event).filter(([field]) => field !== 'actorId');
  return sameJson(Object.fromEntries(plain(received)), Object.fromEntries(plain(sent)));
}

/**
 * Records, for every machine actor in the system, the effects each microstep runs: the named actions
 * (assign aside: the context is compared instead), the actors it starts and the delayed events it schedules.
 */
class Recorder {
  readonly logs = new Map<AnyActorRef, ActorLog>();
  microsteps: Microstep[] = [];
  /** The events the actor under test received, from the test, its timers or its children. */
  received: EventObject[] = [];
  root: AnyActorRef | null = null;

  record(actor: AnyActorRef, effect: string): void {
    this.logs.get(actor)?.effects.push(effect);
  }

  readonly inspect = (inspection: InspectionEvent): void => {
    const actor = inspection.actorRef as AnyActorRef;
    if (inspection.type === '@xstate.actor') {
      const logic = (actor as AnyActor).logic;
      if (logic instanceof StateMachine) {
        const machine = logic as AnyStateMachine;
        const leaves = initialLeaves(machine.root);
        this.logs.set(actor, { machine, isStarting: true, leaves, startKeys: [], effects: [] });
      }
      return;
    }
    if (inspection.type === '@xstate.event') {
      if (actor === this.root && inspection.event.type !== 'xstate.init')
        this.received.push(inspection.event);
      return;
    }
    const log = this.logs.get(actor);
    if (!log) return;
    switch (inspection.type) {
      case '@xstate.microstep': {
        const keys = transitionKeysFrom(log.leaves, inspection._transitions);
        log.leaves = leavesOf(inspection.snapshot as AnyMachineSnapshot);
        if (log.isStarting) log.startKeys.push(...keys);
        else this.microsteps.push({ actor, event: inspection.event, keys, effects: log.effects.splice(0) });
        return;
      }
      case '@xstate.snapshot':
        log.leaves = leavesOf(inspection.snapshot as AnyMachineSnapshot);
        if (log.isStarting && inspection.event.type === 'xstate.init') {
          // An actor's first actions run when it starts, after the microsteps of the events its entry
          // actions raised: they are checked together.
          log.isStarting = false;
          const keys = [START, ...log.startKeys.splice(0)];
          this.microsteps.push({ actor, event: inspection.event, keys, effects: log.effects.splice(0) });
        }
        return;
      case '@xstate.action': {
        const { type, params } = inspection.action;
        if (type === 'xstate.spawnChild') {
          const child = (params as { actorRef?: AnyActorRef } | undefined)?.actorRef;
          if (child) log.effects.push(`invoke ${child.id}`);
        } else if (type === 'xstate.raise') {
          const { event, delay } = params as { event: EventObject; delay?: unknown };
          if (typeof delay === 'number') log.effects.push(`after ${delayName(event.type)}`);
        } else if (!type.startsWith('xstate.')) {
          const isNamed = Object.hasOwn(log.machine.implementations.actions, type);
          log.effects.push(isNamed ? type : `inline ${type}`);
        }
        return;
      }
    }
  };
}

/** 'PROCESSING_POLL' of 'xstate.after.PROCESSING_POLL.document.processing'. */
function delayName(eventType: string): string {
  return /^xstate\.after\.([^.]+)\./.exec(eventType)?.[1] ?? eventType;
}

type BuiltinAction = {
  type: string;
  execute?: (scope: AnyActorScope, params: unknown) => void;
  resolve: unknown;
};

function isBuiltin(action: unknown): action is BuiltinAction {
  return typeof action === 'function' && 'resolve' in action && 'type' in action;
}

/** Shared by the fakes and the named actions of one replayed path's system. */
type Session = { pending: Map<AnyActorRef, Settle>; recorder: Recorder };

/**
 * The machine with every promise or callback actor faked (settled by the path), every invoked machine
 * prepared the same way, and its named built-in actions (raise, sendTo, emit, enqueueActions) reporting
 * their names: xstate's inspection names only the built-in.
 */
function prepare(machine: AnyStateMachine, session: { current: Session }): AnyStateMachine {
  const actors = Object.fromEntries(
    Object.entries(machine.implementations.actors).map(([name, logic]) => [
      name,
      logic instanceof StateMachine
        ? prepare(logic as AnyStateMachine, session)
        : fromPromise(
            ({ self }) =>
              new Promise<unknown>((resolve, reject) =>
                session.current.pending.set(self, { resolve, reject }),
              ),
          ),
    ]),
  );
  const actions = Object.fromEntries(
    Object.entries(machine.implementations.actions).map(([name, action]) => {
      if (!isBuiltin(action) || action.type === 'xstate.assign') return [name, action];
      const named = Object.assign(function named() {}, action, {
        execute: (scope: AnyActorScope, params: unknown) => {
          session.current.recorder.record(scope.self, name);
          action.execute?.(scope, params);
        },
      });
      return [name, named];
    }),
  );
  return machine.provide({ actors, actions } as Parameters<AnyStateMachine['provide']>[0]);
}

export type ReplayResult = {
  taken: string[];
  /** Guarded transitions a step found false, and passed by. */
  refuted: string[];
  /** Microsteps whose effects were compared with a table. */
  checked: number;
  problems: string[];
};

/** Drives the paths of one machine; `prepared` is built once, each path gets a fresh session. */
function replayer(entry: RegisteredMachine, registry: Registry) {
  const session: { current: Session } = { current: { pending: new Map(), recorder: new Recorder() } };
  const prepared = prepare(entry.machine, session);

  return async function replayPath(path: TransitionPath): Promise<ReplayResult> {
    const recorder = new Recorder();
    const pending = new Map<AnyActorRef, Settle>();
    session.current = { pending, recorder };
    const clock = new SimulatedClock();
    const actor = createActor(prepared, { input: path.input, clock, inspect: recorder.inspect });
    recorder.root = actor;
    const seenAt = new Map<object, number>();
    const noteTimers = () => {
      for (const scheduled of Object.values(actor.system.getSnapshot()._scheduledEvents)) {
        if (!seenAt.has(scheduled)) seenAt.set(scheduled, clock.now());
      }
    };
    const result: ReplayResult = { taken: [], refuted: [], checked: 0, problems: [] };
    const refuted = new Set<string>();

    /** Compares each microstep's effects with its machine's table; answers the problems. */
    const checkEffects = (where: string): string[] => {
      const problems: string[] = [];
      for (const step of recorder.microsteps.splice(0)) {
        const logic = (step.actor as AnyActor).logic as AnyStateMachine;
        const known = registry(logic);
        if (step.actor === actor) result.taken.push(...step.keys.filter((key) => key !== START));
        if (!known?.effects) continue;
        const owner = step.actor === actor ? '' : ` (${known.name} '${step.actor.id}')`;
        const expected: string[] = [];
        for (const key of step.keys) {
          const declared = declaredEffects(known.effects, key);
          if (declared) expected.push(...declared);
          else problems.push(`${where}${owner}: no effects declared for '${key}'`);
        }
        const ran = [...step.effects].sort();
        if (JSON.stringify(ran) !== JSON.stringify(expected.sort())) {
          problems.push(
            `${where}${owner}: ${step.keys.join(' + ') || `${step.event.type} (nothing taken)`} ran ` +
              `[${ran.join(', ')}], the table says [${expected.join(', ')}]`,
          );
        }
        result.checked++;
      }
      return problems;
    };

    const play = async (target: AnyActor, event: EventObject): Promise<string | null> => {
      const children = target.getSnapshot().children as Record<string, AnyActorRef | undefined>;
      const actorResult = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
      if (actorResult) {
        const [, outcome, id = ''] = actorResult;
        const child = children[id];
        const settle = child && pending.get(child);
        if (child && settle) {
          pending.delete(child);
          if (outcome === 'done') settle.resolve((event as EventObject & { output?: unknown }).output);
          else settle.reject((event as EventObject & { error?: unknown }).error);
          await flush();
          return null;
        }
        if (child && outcome === 'done' && (child as AnyActor).logic instanceof StateMachine) {
          return driveToDone(child as AnyActor, (event as EventObject & { output?: unknown }).output);
        }
        return `no running actor '${id}' to ${outcome === 'done' ? 'resolve' : 'reject'}`;
      }
      if (event.type.startsWith('xstate.after.')) {
        const timer = Object.values(actor.system.getSnapshot()._scheduledEvents).find(
          (scheduled) => scheduled.event.type === event.type && scheduled.source === target,
        );
        if (!timer) return 'no such timer is running';
        clock.increment((seenAt.get(timer) ?? clock.now()) + timer.delay - clock.now());
        await flush();
        noteTimers();
        return null;
      }
      target.send(event);
      await flush();
      noteTimers();
      return null;
    };

    /** Ends an invoked machine with `output` through its own registered events, as its view would. */
    const driveToDone = async (child: AnyActor, output: unknown): Promise<string | null> => {
      const known = registry(child.logic as AnyStateMachine);
      if (!known) return `no registered events to drive the machine '${child.id}' with`;
      const route = routeToDone(child.getSnapshot() as AnyMachineSnapshot, known.events, output);
      if (!route) {
        return `${known.name} ('${child.id}') cannot end with ${JSON.stringify(output)} through its registered events`;
      }
      for (const [index, { event, state }] of route.entries()) {
        const where = `${known.name} step ${index + 1} (${event.type})`;
        const problem = await play(child, event);
        if (problem) return `${where}: ${problem}`;
        result.problems.push(...checkEffects(where));
        const parted = parting(child.getSnapshot() as AnyMachineSnapshot, state);
        if (parted) return `${where}: ${parted}`;
      }
      return null;
    };

    actor.start();
    noteTimers();
    await flush();
    let expected = path.steps[0]!.state;
    try {
      for (const [index, step] of path.steps.entries()) {
        const where = `step ${index + 1} (${step.event.type})`;
        if (index > 0) {
          const before = actor.getSnapshot() as AnyMachineSnapshot;
          const passedBy = refutedTransitions(before, step.event);
          const problem = await play(actor, step.event);
          if (problem) {
            result.problems.push(`${where}: ${problem}`);
            break;
          }
          const first = recorder.microsteps.find((microstep) => microstep.actor === actor);
          const wronglyTaken = passedBy.filter((key) => first?.keys.includes(key));
          if (wronglyTaken.length > 0) {
            result.problems.push(`${where}: took ${wronglyTaken.join(', ')} though its guard is false`);
          }
          passedBy.forEach((key) => refuted.add(key));
          const [sent, ...fromChildren] = recorder.received.splice(0);
          if (!isSameEvent(sent, step.event)) {
            result.problems.push(
              `${where}: the machine received ${JSON.stringify(toPlainJson(sent))}, not the path's event`,
            );
          }
          // What a child sent the machine in the step is applied too: the traversal cannot know it.
          expected = [step.event, ...fromChildren].reduce(nextSnapshot, expected);
        } else {
          expected = recorder.received.splice(0).reduce(nextSnapshot, expected);
        }
        result.problems.push(...checkEffects(where));
        // A path whose live state parts from the definition's is not followed further.
        const parted = parting(actor.getSnapshot() as AnyMachineSnapshot, expected);
        if (parted) {
          result.problems.push(`${where}: ${parted}`);
          break;
        }
      }
    } finally {
      actor.stop();
    }
    result.refuted = [...refuted];
    return result;
  };
}

function parting(live: AnyMachineSnapshot, expected: AnyMachineSnapshot): string | null {
  const expectedChildren = Object.keys(expected.children).sort();
  if (!sameJson(live.value, expected.value)) {
    return `live state ${JSON.stringify(live.value)}, expected ${JSON.stringify(expected.value)}`;
  }
  if (!sameJson(live.context, expected.context)) return "live context differs from the definition's";
  if (live.status !== expected.status) return `live status ${live.status}, expected ${expected.status}`;
  if (!sameJson(Object.keys(live.children).sort(), expectedChildren)) {
    return `running actors ${Object.keys(live.children).join(', ')}, expected ${expectedChildren.join(', ')}`;
  }
  return null;
}

const ROUTE_LIMIT = 5_000;

/** The shortest run of `events` from `start` to a final state whose output is `output`, if any. */
function routeToDone(
  start: AnyMachineSnapshot,
  events: readonly EventObject[],
  output: unknown,
): { event: EventObject; state: AnyMachineSnapshot }[] | null {
  type Visit = { state: AnyMachineSnapshot; route: { event: EventObject; state: AnyMachineSnapshot }[] };
  const keyOf = (state: AnyMachineSnapshot) => JSON.stringify(toPlainJson([state.value, state.context]));
  const seen = new Set([keyOf(start)]);
  const queue: Visit[] = [{ state: start, route: [] }];
  for (let next = 0; next < queue.length && seen.size < ROUTE_LIMIT; next++) {
    const { state, route } = queue[next]!;
    for (const event of events) {
      if (!state.can(event)) continue;
      const after = nextSnapshot(state, event);
      const steps = [...route, { event, state: after }];
      if (after.status === 'done' && sameJson(after.output, output)) return steps;
      const key = keyOf(after);
      if (after.status !== 'active' || seen.has(key)) continue;
      seen.add(key);
      queue.push({ state: after, route: steps });
    }
  }
  return null;
}

export type CoverageReport = {
  /** Transitions of the definition that no replayed path took. */
  missing: string[];
  /** Guarded transitions a replayed step found false and passed by. */
  refuted: string[];
  /** Microsteps whose effects were compared with a table, children's included. */
  checked: number;
  problems: string[];
  paths: number;
};

/**
 * The gate for one machine: generate the covering paths and the paths that find guards false, replay
 * each live, and compare with the definition and the effects tables.
 */
export async function checkCoverage(
  entry: RegisteredMachine,
  generated: TransitionPaths = transitionPaths(entry),
  registry: Registry = () => undefined,
): Promise<CoverageReport> {
  const { transitions } = generated;
  const paths = [...generated.paths, ...generated.guardPaths];
  const replayPath = replayer(entry, registry);
  const taken = new Set<string>();
  const refuted = new Set<string>();
  const problems: string[] = [];
  let checked = 0;
  for (const [index, path] of paths.entries()) {
    const result = await replayPath(path);
    result.taken.forEach((key) => taken.add(key));
    result.refuted.forEach((key) => refuted.add(key));
    checked += result.checked;
    problems.push(...result.problems.map((problem) => `path ${index + 1}: ${problem}`));
  }
  return {
    missing: transitions.map((transition) => transition.key).filter((key) => !taken.has(key)),
    refuted: [...refuted],
    checked,
    problems,
    paths: paths.length,
  };
}
