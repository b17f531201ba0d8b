// Transition-covering paths for a registered machine, shared by the model-based gate
// (tests/machines/gate.test.ts) and the QA path exporter (scripts/paths.ts).
//
// A transition is one (atomic state, event, guarded alternative) of the machine's definition: an event
// handled by an ancestor counts once per atomic state that can receive it, and each alternative of a
// guarded list counts separately. A breadth-first traversal finds, for every transition, a shortest path
// that takes it (a transition that loops back to a visited state too); a greedy cover then keeps few paths
// that take them all. xstate/graph's getShortestPaths gives one path per state, so it needed the whole
// context and the way in as its key (STACK.md): the state space grew with every field an event can set.
// The traversal also notes, for every guarded transition, the nearest state where an event finds its guard
// false, and adds a path there for each one the covering paths never find false.
import {
  createEmptyActor,
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
} from 'xstate';
import { formatValue, toPlainJson } from './plain-json.ts';

export type RegisteredMachine = {
  machine: AnyStateMachine;
  events: readonly EventObject[];
  inputs?: readonly unknown[];
};

export type TransitionInfo = {
  key: string;
  /** The atomic state the transition leaves. */
  state: string;
  event: string;
  guard: string | null;
  targets: string[];
  /** The state node that defines it (an ancestor of `state`, or `state` itself). */
  definedOn: string;
  /** The transition as its state node defines it, whichever atomic state takes it: its key from there. */
  definition: string;
};

/** `refutes`: the guarded transitions this step's event reaches and passes by, its guard being false. */
export type PathStep = {
  event: EventObject;
  state: AnyMachineSnapshot;
  transitions: string[];
  refutes: string[];
};
export type TransitionPath = { input: unknown; steps: PathStep[]; covers: string[]; refutes: string[] };

type TransitionDefinition = ReturnType<AnyStateMachine['getTransitionData']>[number];

export function statePath(node: AnyStateNode): string {
  return node.path.length > 0 ? node.path.join('.') : '(root)';
}

/** 'uploading.sending' for { uploading: 'sending' }; parallel regions are joined with ', '. */
export function stateLabel(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  return Object.entries(value)
    .map(([key, child]) => {
      const rest = stateLabel(child);
      return rest.includes(', ')
        ? rest
            .split(', ')
            .map((part) => `${key}.${part}`)
            .join(', ')
        : `${key}.${rest}`;
    })
    .join(', ');
}

/** A guard's name; higher-order guards (and/or/not) are spelt out from their parts. */
function describeGuard(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard !== 'object' && typeof guard !== 'function') return String(guard);
  const { type, guards, name } = guard as { type?: unknown; guards?: unknown; name?: unknown };
  if (Array.isArray(guards)) {
    // xstate's and() / or() / not() are functions named after themselves that carry their parts.
    const parts = guards.map((child) => describeGuard(child) ?? '?');
    if (name === 'not') return `not ${parts.join(', ')}`;
    return parts.join(name === 'or' ? ' or ' : ' and ');
  }
  return typeof type === 'string' ? type : 'inline guard';
}

function isInert(definition: TransitionDefinition): boolean {
  return !definition.target && definition.actions.length === 0 && !definition.reenter;
}

function transitionKey(leaf: AnyStateNode, definition: TransitionDefinition): string {
  const source = definition.source;
  const alternatives = (source.transitions.get(definition.eventType) ?? []).filter(
    (candidate: TransitionDefinition) => !isInert(candidate),
  );
  const index = alternatives.indexOf(definition);
  const guard = describeGuard(definition.guard);
  const targets = definition.target?.map((target: AnyStateNode) => statePath(target)).join(', ') ?? '(stays)';
  return [
    `${statePath(leaf)}: ${definition.eventType}`,
    alternatives.length > 1 ? ` #${index + 1}` : '',
    guard ? ` [${guard}]` : '',
    ` -> ${targets}`,
    source === leaf ? '' : ` (on ${statePath(source)})`,
  ].join('');
}

function atomicNodes(node: AnyStateNode): AnyStateNode[] {
  const children = Object.values(node.states) as AnyStateNode[];
  if (children.length === 0) return [node];
  return children.flatMap(atomicNodes);
}

function ancestry(node: AnyStateNode): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) nodes.push(current);
  return nodes;
}

/** Every transition of the definition, including actor results (done/error) and timers (after). */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const transitions: TransitionInfo[] = [];
  for (const leaf of atomicNodes(machine.root)) {
    for (const node of ancestry(leaf)) {
      for (const [event, definitions] of node.transitions as Map<string, TransitionDefinition[]>) {
        for (const definition of definitions) {
          if (isInert(definition)) continue;
          transitions.push({
            key: transitionKey(leaf, definition),
            state: statePath(leaf),
            event,
            guard: describeGuard(definition.guard),
            targets: definition.target?.map((target: AnyStateNode) => statePath(target)) ?? [],
            definedOn: statePath(node),
            definition: transitionKey(node, definition),
          });
        }
      }
      for (const definition of node.always ?? []) {
        // Eventless transitions are taken inside a step, so no event list can name them: listed so that
        // the gate fails loudly if a machine starts using them.
        const targets = definition.target?.map(statePath).join(', ') ?? '(stays)';
        transitions.push({
          key: `${statePath(leaf)}: (always) -> ${targets}`,
          state: statePath(leaf),
          event: '(always)',
          guard: describeGuard(definition.guard),
          targets: definition.target?.map(statePath) ?? [],
          definedOn: statePath(node),
          definition: `${statePath(node)}: (always) -> ${targets}`,
        });
      }
    }
  }
  return transitions;
}

/** The transitions `event` takes from `snapshot`, as keys of listTransitions. */
export function takenTransitions(snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  return keysOf(snapshot, snapshot.machine.getTransitionData(snapshot, event));
}

/** The atomic (or final) states a snapshot is in. */
export function leavesOf(snapshot: AnyMachineSnapshot): AnyStateNode[] {
  return (snapshot._nodes as AnyStateNode[]).filter(
    (node) => node.type === 'atomic' || node.type === 'final',
  );
}

/** The atomic states a machine starts in, before any event its entry actions raise. */
export function initialLeaves(node: AnyStateNode): AnyStateNode[] {
  if (node.type === 'parallel') return (Object.values(node.states) as AnyStateNode[]).flatMap(initialLeaves);
  if (node.type === 'compound') return node.initial.target.flatMap(initialLeaves);
  return [node];
}

/** `definitions` (transitions taken together) as keys of listTransitions, from the states in `leaves`. */
export function transitionKeysFrom(
  leaves: readonly AnyStateNode[],
  definitions: readonly TransitionDefinition[],
): string[] {
  // An alternative that does nothing (a guard that only stops the later ones) is not a transition here.
  return definitions
    .filter((definition) => !isInert(definition))
    .map((definition) => {
      const leaf =
        leaves.find((candidate) => ancestry(candidate).includes(definition.source)) ?? definition.source;
      return transitionKey(leaf, definition);
    });
}

function keysOf(snapshot: AnyMachineSnapshot, definitions: readonly TransitionDefinition[]): string[] {
  return transitionKeysFrom(leavesOf(snapshot), definitions);
}

type GuardedTransition = { key: string; leaf: AnyStateNode; definition: TransitionDefinition };

const guardedIndexes = new WeakMap<AnyStateMachine, Map<string, GuardedTransition[]>>();

/** The machine's guarded transitions by event type (one per atomic state that can take it, as keys are). */
function guardedIndex(machine: AnyStateMachine): Map<string, GuardedTransition[]> {
  const known = guardedIndexes.get(machine);
  if (known) return known;
  const index = new Map<string, GuardedTransition[]>();
  for (const leaf of atomicNodes(machine.root)) {
    for (const node of ancestry(leaf)) {
      for (const [event, definitions] of node.transitions as Map<string, TransitionDefinition[]>) {
        for (const definition of definitions) {
          if (isInert(definition) || !definition.guard) continue;
          const list = index.get(event) ?? [];
          list.push({ key: transitionKey(leaf, definition), leaf, definition });
          index.set(event, list);
        }
      }
    }
  }
  guardedIndexes.set(machine, index);
  return index;
}

/**
 * The guarded transitions whose guard `event` finds false in the states `leaves`: xstate looked at them
 * (no nearer state and no earlier alternative took the event) and went on to the next candidate, an
 * ancestor's transition or nothing. `chosen` is what getTransitionData answered.
 */
function refutedAmong(
  machine: AnyStateMachine,
  leaves: readonly AnyStateNode[],
  event: EventObject,
  chosen: readonly TransitionDefinition[],
): string[] {
  const refuted: string[] = [];
  for (const guarded of guardedIndex(machine).get(event.type) ?? []) {
    if (!leaves.includes(guarded.leaf)) continue;
    const path = ancestry(guarded.leaf);
    const own = path.indexOf(guarded.definition.source);
    const taken = chosen.find((definition) => path.includes(definition.source));
    if (taken === guarded.definition) continue;
    if (taken) {
      const depth = path.indexOf(taken.source);
      if (depth < own) continue;
      const alternatives = guarded.definition.source.transitions.get(guarded.definition.eventType) ?? [];
      if (depth === own && alternatives.indexOf(taken) < alternatives.indexOf(guarded.definition)) continue;
    } else if (chosen.length > 0 && path.slice(1, own + 1).some((node) => node.type === 'parallel')) {
      // Another region took the event, so xstate never looked above the parallel state for this one.
      continue;
    }
    refuted.push(guarded.key);
  }
  return refuted;
}

/** The guarded transitions whose guard is false when `event` is sent in `snapshot` (see refutedAmong). */
export function refutedTransitions(snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  const machine = snapshot.machine;
  return refutedAmong(machine, leavesOf(snapshot), event, machine.getTransitionData(snapshot, event));
}

/** Nodes (state value and keyed context) explored per input before giving up. */
export const TRAVERSAL_LIMIT = 100_000;

/**
 * Records the context fields guards read: a proxy over the context passed to them notes every field
 * looked up, tested with `in`, or listed (a spread or Object.keys lists them all).
 */
type GuardReads = { fields: Set<string>; watch: <T>(context: T) => T };

function watchGuardReads(): GuardReads {
  const fields = new Set<string>();
  const proxies = new WeakSet<object>();
  const note = (key: string | symbol) => {
    if (typeof key === 'string') fields.add(key);
  };
  const watch = <T>(context: T): T => {
    if (context === null || typeof context !== 'object' || proxies.has(context)) return context;
    const proxy = new Proxy(context, {
      get: (target, key, receiver) => (note(key), Reflect.get(target, key, receiver)),
      has: (target, key) => (note(key), Reflect.has(target, key)),
      getOwnPropertyDescriptor: (target, key) => (note(key), Reflect.getOwnPropertyDescriptor(target, key)),
      ownKeys: (target) => {
        const keys = Reflect.ownKeys(target);
        keys.forEach(note);
        return keys;
      },
    });
    proxies.add(proxy);
    return proxy;
  };
  return { fields, watch };
}

type GuardImplementation = ((args: { context: unknown }, params: unknown) => boolean) | { check: unknown };

/**
 * The machine with each named guard reading through `reads`, so guards evaluated inside a step (for an
 * event an action raises) are seen too. and()/or()/not() are left as they are: they call named guards.
 */
function watchedMachine(machine: AnyStateMachine, reads: GuardReads): AnyStateMachine {
  const guards = machine.implementations.guards as Record<string, GuardImplementation>;
  const watched = Object.fromEntries(
    Object.entries(guards).map(([name, guard]) => [
      name,
      typeof guard === 'function'
        ? (args: { context: unknown }, params: unknown) =>
            guard({ ...args, context: reads.watch(args.context) }, params)
        : guard,
    ]),
  );
  return machine.provide({ guards: watched } as Parameters<AnyStateMachine['provide']>[0]);
}

/** What a traversal keys its states on: the state value and only the context fields guards read. */
export function traversalKey(snapshot: AnyMachineSnapshot, fields: readonly string[]): string {
  const context = (snapshot.context ?? {}) as Record<string, unknown>;
  return JSON.stringify([
    snapshot.value,
    snapshot.status,
    fields.map((field) => (Object.hasOwn(context, field) ? [field, toPlainJson(context[field])] : [field])),
  ]);
}

/** The snapshot `event` leads to, with nothing run: actions and actors are the test's or the app's. */
export function nextSnapshot(snapshot: AnyMachineSnapshot, event: EventObject): AnyMachineSnapshot {
  return snapshot.machine.transition(snapshot, event, inertScope());
}

function inertScope(): AnyActorScope {
  const self = createEmptyActor();
  return {
    self,
    id: '',
    sessionId: '',
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  };
}

/** A set of transitions as bits, by their index in listTransitions. */
type Bits = Uint32Array;

function bitsWith(base: Bits, indexes: readonly number[]): Bits {
  const bits = base.slice();
  for (const index of indexes) bits[index >>> 5]! |= 1 << (index & 31);
  return bits;
}

function or(left: Bits, right: Bits): Bits {
  return left.map((word, index) => word | right[index]!);
}

function countCommon(left: Bits, right: Bits): number {
  let count = 0;
  for (let word = 0; word < left.length; word++) {
    let bits = left[word]! & right[word]!;
    while (bits !== 0) {
      bits &= bits - 1;
      count++;
    }
  }
  return count;
}

type Node = {
  snapshot: AnyMachineSnapshot;
  key: string;
  via: Edge | null;
  depth: number;
  covers: Bits;
  out: Edge[];
};
/** One event sent in one node, to the node it leads to (`via` that edge if it found it first). */
type Edge = { from: Node; event: EventObject; taken: string[]; own: Bits; covers: Bits; to: Node };

type Exploration = {
  input: unknown;
  machine: AnyStateMachine;
  fields: readonly string[];
  known: Map<string, Node>;
  edges: Edge[];
  /** For each guarded transition, the first (so nearest) node where an event finds its guard false. */
  refutations: Map<string, { node: Node; event: EventObject }>;
};

/**
 * Breadth first from the input's initial state, one node per key (traversalKey): every edge is then the
 * end of a shortest path that takes its transitions. Stops early, answering null, as soon as a guard reads
 * a field that is not in `fields`: nodes merged on the smaller key may not be alike.
 */
function explore(
  entry: RegisteredMachine,
  input: unknown,
  fields: readonly string[],
  reads: GuardReads,
  indexOf: Map<string, number>,
): Exploration | null {
  const machine = watchedMachine(entry.machine, reads);
  const scope = inertScope();
  const snapshot = machine.getInitialSnapshot(scope, input);
  const none = new Uint32Array(Math.ceil(indexOf.size / 32));
  const root: Node = {
    snapshot,
    key: traversalKey(snapshot, fields),
    via: null,
    depth: 0,
    covers: none,
    out: [],
  };
  const known = new Map<string, Node>([[root.key, root]]);
  const queue = [root];
  const edges: Edge[] = [];
  const refutations: Exploration['refutations'] = new Map();
  const isKeyed = (field: string) => fields.includes(field);
  for (let next = 0; next < queue.length; next++) {
    if (queue.length > TRAVERSAL_LIMIT) {
      throw new Error(
        `${entry.machine.id}: more than ${TRAVERSAL_LIMIT} states explored; a context field the guards read ` +
          `(${fields.join(', ') || 'none'}) probably grows without end (a counter, a growing list): give ` +
          'the registered events payloads that keep it bounded',
      );
    }
    const node = queue[next]!;
    if (node.snapshot.status !== 'active') continue;
    const probe = { ...node.snapshot, context: reads.watch(node.snapshot.context) } as AnyMachineSnapshot;
    const leaves = leavesOf(node.snapshot);
    for (const event of entry.events) {
      const definitions = machine.getTransitionData(probe, event);
      for (const key of refutedAmong(machine, leaves, event, definitions)) {
        if (!refutations.has(key)) refutations.set(key, { node, event });
      }
      // snapshot.can(event): an event whose only transitions do nothing is not offered.
      if (!definitions.some((definition) => definition.target !== undefined || definition.actions.length > 0))
        continue;
      const snapshot = machine.transition(node.snapshot, event, scope);
      const taken = keysOf(node.snapshot, definitions);
      const own = bitsWith(
        none,
        taken.flatMap((key) => indexOf.get(key) ?? []),
      );
      const key = traversalKey(snapshot, fields);
      const seen = known.get(key);
      const edge: Edge = { from: node, event, taken, own, covers: or(node.covers, own), to: seen ?? root };
      if (!seen) {
        edge.to = { snapshot, key, via: edge, depth: node.depth + 1, covers: edge.covers, out: [] };
        known.set(key, edge.to);
        queue.push(edge.to);
      }
      node.out.push(edge);
      edges.push(edge);
    }
    if (![...reads.fields].every(isKeyed)) return null;
  }
  return { input, machine, fields, known, edges, refutations };
}

/**
 * The steps from the initial state through `last` (the edge into `node`, or none at the start), each with
 * the snapshot it really leads to.
 */
function stepsTo(last: Edge | null, node: Node): PathStep[] {
  const chain: Edge[] = [];
  for (let current = last; current; current = current.from.via) chain.unshift(current);
  const root = chain[0]?.from ?? node;
  return [
    { event: { type: 'xstate.init' }, state: root.snapshot, transitions: [], refutes: [] },
    ...chain.map((link) => ({
      event: link.event,
      state: link.to.via === link ? link.to.snapshot : nextSnapshot(link.from.snapshot, link.event),
      transitions: link.taken,
      refutes: refutedTransitions(link.from.snapshot, link.event),
    })),
  ];
}

/** `steps` and then `event`, sent in the last step's state (it may take nothing). */
function stepOn(steps: PathStep[], event: EventObject): PathStep[] {
  const state = steps.at(-1)!.state;
  return [
    ...steps,
    {
      event,
      state: nextSnapshot(state, event),
      transitions: takenTransitions(state, event),
      refutes: refutedTransitions(state, event),
    },
  ];
}

/** Paths are made longer to take more transitions while they stay this short: a test case QA can follow. */
const EXTENDED_PATH_STEPS = 9;

/** The shortest way on from `start` to an edge that takes a transition still uncovered, if near enough. */
function routeOn(start: Node, uncovered: Bits, maxEdges: number): Edge[] | null {
  const cameBy = new Map<Node, Edge | null>([[start, null]]);
  let frontier = [start];
  for (let depth = 0; depth < maxEdges && frontier.length > 0; depth++) {
    const next: Node[] = [];
    for (const node of frontier) {
      for (const edge of node.out) {
        if (countCommon(edge.own, uncovered) > 0) {
          const route = [edge];
          for (let back = cameBy.get(node); back; back = cameBy.get(back.from)) route.unshift(back);
          return route;
        }
        if (!cameBy.has(edge.to)) {
          cameBy.set(edge.to, edge);
          next.push(edge.to);
        }
      }
    }
    frontier = next;
  }
  return null;
}

/**
 * Goes on from the end of `steps` to the nearest transitions still uncovered, replaying each step on the
 * path's own snapshot (its unkeyed context may differ from the node's); stops where they part.
 */
function extend(exploration: Exploration, steps: PathStep[], uncovered: Bits): void {
  const scope = inertScope();
  const { machine, fields, known } = exploration;
  for (;;) {
    const current = steps.at(-1)!.state;
    const node = current.status === 'active' ? known.get(traversalKey(current, fields)) : undefined;
    const route = node && routeOn(node, uncovered, EXTENDED_PATH_STEPS - steps.length);
    if (!route) return;
    let snapshot = current;
    for (const edge of route) {
      const chosen = machine.getTransitionData(snapshot, edge.event);
      const taken = keysOf(snapshot, chosen);
      const after = machine.transition(snapshot, edge.event, scope);
      if (taken.join('\n') !== edge.taken.join('\n') || traversalKey(after, fields) !== edge.to.key) return;
      const refutes = refutedAmong(machine, leavesOf(snapshot), edge.event, chosen);
      steps.push({ event: edge.event, state: after, transitions: taken, refutes });
      edge.own.forEach((word, index) => (uncovered[index]! &= ~word));
      snapshot = after;
    }
  }
}

export type TransitionPaths = {
  transitions: TransitionInfo[];
  paths: TransitionPath[];
  unreached: string[];
  /** Paths that end where guards the covering paths never find false are false, and send their event. */
  guardPaths: TransitionPath[];
  /**
   * Guarded transitions (as defined: TransitionInfo's `definition`) whose guard no registered event finds
   * false in a state the traversal reached.
   */
  unrefuted: string[];
  /** The context fields the traversal was keyed on with the state value: those its guards read. */
  contextKey: string[];
  /** Distinct (state value, keyed context) nodes explored, over all inputs. */
  explored: number;
};

/**
 * A small set of paths that together take every transition reachable with the registered events.
 *
 * The traversal keys a state on its value and the context fields the guards read, found as it goes: it
 * starts keyed on the value alone and, whenever a guard reads a field the key lacks, starts again with
 * that field. Two snapshots with one key offer the same transitions to every event, so exploring one of
 * them is enough; keying on the whole context made every search term, selection or sort a state of its own.
 */
export function transitionPaths(entry: RegisteredMachine): TransitionPaths {
  const transitions = listTransitions(entry.machine);
  const indexOf = new Map(transitions.map((transition, index) => [transition.key, index]));
  const inputs = entry.inputs ?? [undefined];
  let fields: string[] = [];
  let explorations: Exploration[] = [];
  while (explorations.length < inputs.length) {
    const reads = watchGuardReads();
    explorations = [];
    for (const input of inputs) {
      const exploration = explore(entry, input, fields, reads, indexOf);
      if (!exploration) break;
      explorations.push(exploration);
    }
    fields = [...new Set([...fields, ...reads.fields])].sort();
  }

  const candidates = explorations.flatMap((exploration) =>
    exploration.edges.map((edge) => ({ exploration, edge })),
  );
  const uncovered = new Uint32Array(Math.ceil(transitions.length / 32));
  for (const { edge } of candidates) edge.own.forEach((word, index) => (uncovered[index]! |= word));
  const isReached = (index: number) => (uncovered[index >>> 5]! & (1 << (index & 31))) !== 0;
  const reached = new Set(
    transitions.filter((_, index) => isReached(index)).map((transition) => transition.key),
  );
  const chosen: TransitionPath[] = [];
  for (;;) {
    let best: (typeof candidates)[number] | undefined;
    let bestGain = 0;
    for (const candidate of candidates) {
      const gain = countCommon(candidate.edge.covers, uncovered);
      if (
        gain > bestGain ||
        (gain === bestGain && best && gain > 0 && candidate.edge.from.depth < best.edge.from.depth)
      ) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (!best) break;
    best.edge.covers.forEach((word, index) => (uncovered[index]! &= ~word));
    const steps = stepsTo(best.edge, best.edge.to);
    extend(best.exploration, steps, uncovered);
    chosen.push(pathOf(best.exploration.input, steps, indexOf));
  }
  // A path chosen early may be made redundant by later, longer ones.
  const paths = removeRedundant(chosen);
  const guarded = transitions.filter((transition) => transition.guard !== null);
  const guardPaths = refutingPaths(explorations, guarded, paths, indexOf);
  const refuted = refutedDefinitions(transitions, [...paths, ...guardPaths]);
  return {
    transitions,
    paths,
    unreached: transitions.map((transition) => transition.key).filter((key) => !reached.has(key)),
    guardPaths,
    unrefuted: [...new Set(guarded.map(({ definition }) => definition))].filter((name) => !refuted.has(name)),
    contextKey: fields,
    explored: explorations.reduce((sum, exploration) => sum + exploration.known.size, 0),
  };
}

function pathOf(input: unknown, steps: PathStep[], indexOf: Map<string, number>): TransitionPath {
  const covers = [...new Set(steps.flatMap((step) => step.transitions))].filter((key) => indexOf.has(key));
  return { input, steps, covers, refutes: [...new Set(steps.flatMap((step) => step.refutes))] };
}

/** The guarded transitions (as defined: TransitionInfo's `definition`) that `paths` find false somewhere. */
export function refutedDefinitions(
  transitions: readonly TransitionInfo[],
  paths: readonly Pick<TransitionPath, 'refutes'>[],
): Set<string> {
  const definitionOf = new Map(transitions.map((transition) => [transition.key, transition.definition]));
  return new Set(paths.flatMap((path) => path.refutes.flatMap((key) => definitionOf.get(key) ?? [])));
}

/**
 * Paths to the nearest state where each guarded transition's guard is false (from any atomic state that
 * can take it), for those the covering paths never find false: the event is sent there and the machine
 * must pass the transition by. Guards found false in one state share a path while their events leave
 * that state as it was.
 */
function refutingPaths(
  explorations: readonly Exploration[],
  guarded: readonly TransitionInfo[],
  covering: readonly TransitionPath[],
  indexOf: Map<string, number>,
): TransitionPath[] {
  type Site = { exploration: Exploration; node: Node; event: EventObject };
  const sites = new Map<string, Site>();
  const definitionOf = new Map(guarded.map((transition) => [transition.key, transition.definition]));
  for (const exploration of explorations) {
    for (const [key, site] of exploration.refutations) {
      const definition = definitionOf.get(key);
      const known = definition === undefined ? undefined : sites.get(definition);
      if (definition !== undefined && (!known || site.node.depth < known.node.depth)) {
        sites.set(definition, { exploration, ...site });
      }
    }
  }
  const definitions = [...new Set(guarded.map((transition) => transition.definition))];
  const refuted = refutedDefinitions(guarded, covering);
  const paths: TransitionPath[] = [];
  for (const definition of definitions) {
    const site = sites.get(definition);
    if (refuted.has(definition) || !site) continue;
    let steps = stepOn(stepsTo(site.node.via, site.node), site.event);
    for (const other of definitions) {
      const there = sites.get(other);
      const isStill = traversalKey(steps.at(-1)!.state, site.exploration.fields) === site.node.key;
      if (there?.node !== site.node || !isStill || refuted.has(other)) continue;
      if (refutedDefinitions(guarded, [pathOf(site.exploration.input, steps, indexOf)]).has(other)) continue;
      steps = stepOn(steps, there.event);
    }
    const path = pathOf(site.exploration.input, steps, indexOf);
    refutedDefinitions(guarded, [path]).forEach((name) => refuted.add(name));
    paths.push(path);
  }
  return paths;
}

function removeRedundant(paths: TransitionPath[]): TransitionPath[] {
  const kept = [...paths];
  for (let index = kept.length - 1; index >= 0; index--) {
    const path = kept[index];
    if (!path) continue;
    const others = new Set(kept.filter((_, other) => other !== index).flatMap((other) => other.covers));
    if (path.covers.every((key) => others.has(key))) kept.splice(index, 1);
  }
  return kept;
}

/** Payloads too long for a step line are named once (P1, P2, ...) and spelt out in a legend. */
export type PayloadLegend = {
  refer: (value: unknown) => string;
  entries: () => [label: string, text: string][];
};

const INLINE_PAYLOAD_LIMIT = 120;

export function createPayloadLegend(): PayloadLegend {
  const labels = new Map<string, string>();
  return {
    refer(value) {
      const text = formatValue(value);
      if (text.length <= INLINE_PAYLOAD_LIMIT) return text;
      const label = labels.get(text) ?? `P${labels.size + 1}`;
      labels.set(text, label);
      return label;
    },
    entries: () => [...labels].map(([text, label]) => [label, text]),
  };
}

/** One line per step, for QA: "Send file.selected {...} -> uploading.requesting". */
export function describeStep(
  machine: AnyStateMachine,
  step: PathStep,
  input: unknown,
  legend: PayloadLegend,
): string {
  const { type, ...payload } = step.event as EventObject & Record<string, unknown>;
  const state = stateLabel(step.state.value) + (step.state.status === 'done' ? ' (final)' : '');
  if (type === 'xstate.init') {
    return `Start in ${state}` + (input === undefined ? '' : ` with input ${legend.refer(input)}`);
  }
  // An actor that resolves with nothing (a save answered 204) just succeeds.
  const result = (value: unknown) => (value === undefined ? '' : ` with ${legend.refer(value)}`);
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) return `${done[1]} succeeds${result(payload.output)} -> ${state}`;
  const failed = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (failed) return `${failed[1]} fails${result(payload.error)} -> ${state}`;
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after?.[1]) {
    const delay = (machine.implementations.delays as Record<string, unknown>)[after[1]];
    return `Wait ${typeof delay === 'number' ? `${delay} ms` : 'the delay'} (${after[1]}) -> ${state}`;
  }
  return `Send ${type}${Object.keys(payload).length > 0 ? ` ${legend.refer(payload)}` : ''} -> ${state}`;
}
