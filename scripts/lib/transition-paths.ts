// Transition-covering paths for a registered machine, shared by the model-based gate
// (tests/machines/gate.test.ts) and the QA path exporter (scripts/paths.ts).
//
// A transition is one (atomic state, event, guarded alternative) of the machine's definition: an event
// handled by an ancestor counts once per atomic state that can receive it, and each alternative of a
// guarded list counts separately. xstate/graph's shortest paths are keyed on the transition taken (the
// snapshot, the event and the state it came from, as STACK.md recommends), so a transition that loops
// back to a visited state still gets a path; a greedy cover then keeps few paths that take them all.
import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject } from 'xstate';
import { getShortestPaths, serializeSnapshot } from 'xstate/graph';

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
};

export type PathStep = { event: EventObject; state: AnyMachineSnapshot; transitions: string[] };
export type TransitionPath = { input: unknown; steps: PathStep[]; covers: string[] };

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
          });
        }
      }
      for (const definition of node.always ?? []) {
        // Eventless transitions are taken inside a step, so no event list can name them: listed so that
        // the gate fails loudly if a machine starts using them.
        transitions.push({
          key: `${statePath(leaf)}: (always) -> ${definition.target?.map(statePath).join(', ') ?? '(stays)'}`,
          state: statePath(leaf),
          event: '(always)',
          guard: describeGuard(definition.guard),
          targets: definition.target?.map(statePath) ?? [],
          definedOn: statePath(node),
        });
      }
    }
  }
  return transitions;
}

/** The transitions `event` takes from `snapshot`, as keys of listTransitions. */
export function takenTransitions(snapshot: AnyMachineSnapshot, event: EventObject): string[] {
  const definitions = snapshot.machine.getTransitionData(snapshot, event);
  const leaves = (snapshot._nodes as AnyStateNode[]).filter(
    (node) => node.type === 'atomic' || node.type === 'final',
  );
  return definitions.map((definition) => {
    const leaf =
      leaves.find((candidate) => ancestry(candidate).includes(definition.source)) ?? definition.source;
    return transitionKey(leaf, definition);
  });
}

/** JSON for people and tools: a Blob is shown by its size, not as '{}'. */
export function toPlainJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, item: unknown) =>
      item instanceof Blob ? `Blob(${item.size} bytes)` : item,
    ),
  );
}

function serializeEvent(event: EventObject): string {
  return JSON.stringify(toPlainJson(event));
}

/** Steps explored per input before giving up; document-list, the largest machine today, needs ~40 000. */
export const TRAVERSAL_LIMIT = 500_000;

function tryTraversal<T>(machine: AnyStateMachine, traverse: () => T): T {
  try {
    return traverse();
  } catch (error) {
    if (error instanceof Error && error.message === 'Traversal limit exceeded') {
      throw new Error(
        `${machine.id}: more than ${TRAVERSAL_LIMIT} steps explored; the registered events probably let the context ` +
          'grow without end (a counter, a growing list): give them payloads that keep it bounded',
      );
    }
    throw error;
  }
}

function shortestPathsFor(entry: RegisteredMachine, input: unknown): PathStep[][] {
  // Paths share their prefixes' snapshot objects, so each (snapshot, event) is resolved once.
  const taken = new WeakMap<AnyMachineSnapshot, Map<EventObject, string[]>>();
  const takenOnce = (snapshot: AnyMachineSnapshot, event: EventObject): string[] => {
    const byEvent = taken.get(snapshot) ?? new Map<EventObject, string[]>();
    taken.set(snapshot, byEvent);
    const known = byEvent.get(event);
    if (known) return known;
    const keys = takenTransitions(snapshot, event);
    byEvent.set(event, keys);
    return keys;
  };
  const paths = tryTraversal(entry.machine, () =>
    getShortestPaths(entry.machine, {
      input,
      // An unbounded context (a counter the events keep raising) would make the traversal endless.
      limit: TRAVERSAL_LIMIT,
      events: (snapshot) => entry.events.filter((event) => snapshot.can(event)),
      serializeEvent,
      // Keyed on the transition, not only the state reached (see STACK.md "Model-based testing").
      serializeState: (snapshot, event, previous) =>
        serializeSnapshot(snapshot) +
        (event ? ` via ${serializeEvent(event)} from ${JSON.stringify(previous?.value)}` : ''),
    }),
  );
  return paths.map((path) =>
    path.steps.map((step, index) => {
      const previous = path.steps[index - 1];
      return {
        event: step.event,
        state: step.state,
        transitions: previous ? takenOnce(previous.state, step.event) : [],
      };
    }),
  );
}

/** A small set of paths that together take every transition reachable with the registered events. */
export function transitionPaths(entry: RegisteredMachine): {
  transitions: TransitionInfo[];
  paths: TransitionPath[];
  unreached: string[];
} {
  const transitions = listTransitions(entry.machine);
  const candidates: TransitionPath[] = [];
  for (const input of entry.inputs ?? [undefined]) {
    for (const steps of shortestPathsFor(entry, input)) {
      const covers = [...new Set(steps.flatMap((step) => step.transitions))];
      if (covers.length > 0) candidates.push({ input, steps, covers });
    }
  }
  const reachable = new Set(candidates.flatMap((path) => path.covers));
  const uncovered = new Set(reachable);
  const chosen: TransitionPath[] = [];
  while (uncovered.size > 0) {
    let best: TransitionPath | undefined;
    let bestGain = 0;
    for (const candidate of candidates) {
      const gain = candidate.covers.filter((key) => uncovered.has(key)).length;
      if (
        gain > bestGain ||
        (gain === bestGain && best && gain > 0 && candidate.steps.length < best.steps.length)
      ) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.push(best);
    for (const key of best.covers) uncovered.delete(key);
  }
  return {
    transitions,
    // A path chosen early may be made redundant by later, longer ones.
    paths: removeRedundant(chosen),
    unreached: transitions.map((transition) => transition.key).filter((key) => !reachable.has(key)),
  };
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
  entries: () => [label: string, json: string][];
};

const INLINE_PAYLOAD_LIMIT = 100;

export function createPayloadLegend(): PayloadLegend {
  const labels = new Map<string, string>();
  return {
    refer(value) {
      const json = JSON.stringify(toPlainJson(value)) ?? 'nothing';
      if (json.length <= INLINE_PAYLOAD_LIMIT) return json;
      const label = labels.get(json) ?? `P${labels.size + 1}`;
      labels.set(json, label);
      return label;
    },
    entries: () => [...labels].map(([json, label]) => [label, json]),
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
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) return `${done[1]} succeeds with ${legend.refer(payload.output)} -> ${state}`;
  const failed = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (failed) return `${failed[1]} fails with ${legend.refer(payload.error)} -> ${state}`;
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after?.[1]) {
    const delay = (machine.implementations.delays as Record<string, unknown>)[after[1]];
    return `Wait ${typeof delay === 'number' ? `${delay} ms` : 'the delay'} (${after[1]}) -> ${state}`;
  }
  return `Send ${type}${Object.keys(payload).length > 0 ? ` ${legend.refer(payload)}` : ''} -> ${state}`;
}
