// The model-based gate: for every registered machine, generated paths take every transition of its
// definition (done/error/after included), find every guard false where an event reaches it, and replay on
// a live actor with fake actors, real child machines and a simulated clock. Every microstep must run the
// effects the machine's table declares for the transitions it took (tests/machines/effects).
// It prints each machine's time, slowest first; no test asserts a time (the machine is shared and noisy).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assign, fromPromise, raise, setup, StateMachine } from 'xstate';
import { afterAll, describe, expect, it } from 'vitest';
import { MACHINES, type MachineName } from '../../machines/index';
import { listTransitions, refutedDefinitions, transitionPaths } from '../../scripts/lib/transition-paths';
import { unkeyedGuardReads } from './context-key';
import { EFFECTS, GUARDS_NEVER_FALSE } from './effects/index';
import { tableProblems, type EffectTable } from './effects/table';
import { MACHINE_EVENTS, registeredMachine } from './events';
import { checkCoverage, type Registry } from './replay';

const MACHINES_DIR = fileURLToPath(new URL('../../machines/', import.meta.url));
const MACHINE_MODULES = import.meta.glob<Record<string, unknown>>('../../machines/*.machine.ts', {
  eager: true,
});

type Timing = {
  machine: string;
  traverse: number;
  replay: number;
  keyCheck: number;
  states: number;
  paths: number;
  microsteps: number;
  guardsFalse: string;
  key: string[];
};

const timings: Timing[] = [];

function timingTable(rows: Timing[]): string {
  const header = [
    'machine',
    'total ms',
    'traverse',
    'replay',
    'key check',
    'states',
    'paths',
    'effects checked',
    'guards false',
    'keyed on',
  ];
  const lines = [...rows]
    .sort((left, right) => total(right) - total(left))
    .map((row) => [
      row.machine,
      total(row),
      row.traverse,
      row.replay,
      row.keyCheck,
      row.states,
      row.paths,
      row.microsteps,
      row.guardsFalse,
      row.key.join(', ') || '(state value only)',
    ]);
  const cells = [header, ...lines].map((line) => line.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  return cells
    .map((line) =>
      line
        .map((cell, column) =>
          column === 0 || column === header.length - 1
            ? cell.padEnd(widths[column]!)
            : cell.padStart(widths[column]!),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function total(row: Timing): number {
  return row.traverse + row.replay + row.keyCheck;
}

const since = (start: number) => Math.round(performance.now() - start);

const NAME_OF_ID = new Map(
  Object.entries(MACHINES).map(([name, machine]) => [machine.id, name as MachineName]),
);

/** A machine met in a replay (under test, or invoked by it), known by its id: its events and its table. */
const registry: Registry = (machine) => {
  const name = NAME_OF_ID.get(machine.id);
  return name && { name, events: MACHINE_EVENTS[name].events, effects: EFFECTS[name] };
};

describe('model-based gate', () => {
  afterAll(() => {
    if (timings.length > 0) console.log(`Model-based gate, slowest first:\n${timingTable(timings)}`);
  });

  for (const name of Object.keys(MACHINES) as MachineName[]) {
    it(`${name}: generated paths take every transition, find its guards false, and replay live with the declared effects`, async () => {
      const entry = registeredMachine(name);
      let start = performance.now();
      const generated = transitionPaths(entry);
      const traverse = since(start);
      start = performance.now();
      const report = await checkCoverage(entry, generated, registry);
      const replay = since(start);
      start = performance.now();
      const unkeyed = unkeyedGuardReads(entry, generated);
      const keyCheck = since(start);
      const neverFalse = GUARDS_NEVER_FALSE[name] ?? {};
      const guarded = new Set(
        generated.transitions.filter((transition) => transition.guard !== null).map((t) => t.definition),
      );
      const refuted = refutedDefinitions(generated.transitions, [{ refutes: report.refuted }]);
      timings.push({
        machine: name,
        traverse,
        replay,
        keyCheck,
        states: generated.explored,
        paths: generated.paths.length + generated.guardPaths.length,
        microsteps: report.checked,
        guardsFalse: `${refuted.size}/${guarded.size}`,
        key: generated.contextKey,
      });
      const keys = listTransitions(entry.machine).map((transition) => transition.key);
      expect(tableProblems(EFFECTS[name], keys), `${name}: its effects table`).toEqual([]);
      expect(report.problems, `${name}: paths that did not replay as declared`).toEqual([]);
      expect(report.missing, `${name}: transitions no path reached`).toEqual([]);
      expect(report.paths).toBeGreaterThan(0);
      expect(
        [...guarded].filter(
          (definition) => !refuted.has(definition) && !Object.hasOwn(neverFalse, definition),
        ),
        `${name}: guarded transitions no replayed step found false`,
      ).toEqual([]);
      expect(
        Object.keys(neverFalse).filter((definition) => refuted.has(definition) || !guarded.has(definition)),
        `${name}: listed as never false, but found false or not a guarded transition`,
      ).toEqual([]);
      expect(unkeyed, `${name}: context outside the traversal's key that changes a step`).toEqual([]);
    });
  }

  it('registers every machines/*.machine.ts under its file name', () => {
    const files = readdirSync(MACHINES_DIR).filter((file) => file.endsWith('.machine.ts'));
    expect(files.length).toBeGreaterThan(0);
    const registered: Record<string, unknown> = MACHINES;
    for (const file of files) {
      const name = file.replace(/\.machine\.ts$/, '');
      const module = MACHINE_MODULES[`../../machines/${file}`] ?? {};
      const machines = Object.values(module).filter((value) => value instanceof StateMachine);
      expect(machines, `${file} exports one machine`).toHaveLength(1);
      expect(registered[name], `${file} is registered as '${name}'`).toBe(machines[0]);
    }
  });

  it('names the transitions an incomplete event list cannot reach', async () => {
    const machine = setup({
      types: { context: {} as { isTouched: boolean }, events: {} as { type: 'touch' } | { type: 'reset' } },
      actors: { load: fromPromise(async () => 1) },
      actions: { touch: assign({ isTouched: true }) },
      delays: { SOON: 10 },
    }).createMachine({
      id: 'probe',
      context: { isTouched: false },
      initial: 'loading',
      states: {
        loading: { invoke: { id: 'load', src: 'load', onDone: 'ready', onError: 'ready' } },
        ready: { on: { touch: { actions: 'touch' }, reset: 'loading' }, after: { SOON: 'loading' } },
      },
    });
    const events = [{ type: 'touch' }, { type: 'xstate.done.actor.load', output: 1 }];
    const report = await checkCoverage({ machine, events });
    expect(report.problems).toEqual([]);
    expect(report.missing).toEqual([
      'loading: xstate.error.actor.load -> ready',
      'ready: reset -> loading',
      'ready: xstate.after.SOON.probe.ready -> loading',
    ]);
  });
});

describe('effects, guards found false and child machines in the replay', () => {
  // A parent that loads, counts to a threshold a guard reads, waits after it, and hands work to a child
  // machine whose output it is told.
  const child = setup({
    types: {
      context: {} as { isDone: boolean },
      events: {} as { type: 'child.finish' } | { type: 'child.quit' },
      output: {} as { isDone: boolean },
    },
    actions: { ping: () => {}, finish: assign({ isDone: true }) },
  }).createMachine({
    id: 'probeChild',
    context: { isDone: false },
    initial: 'working',
    output: ({ context }) => ({ isDone: context.isDone }),
    states: {
      working: {
        entry: 'ping',
        on: { 'child.finish': { target: 'finished', actions: 'finish' }, 'child.quit': 'finished' },
      },
      finished: { type: 'final' },
    },
  });
  const parent = setup({
    types: {
      context: {} as { count: number; isReady: boolean },
      events: {} as { type: 'add' } | { type: 'go' } | { type: 'check' },
    },
    actors: { load: fromPromise(async () => 1), child },
    actions: {
      notify: () => {},
      add: assign(({ context }) => ({ count: Math.min(context.count + 1, 2) })),
    },
    guards: { isFull: ({ context }) => context.count >= 2, isReady: ({ context }) => context.isReady },
    delays: { SOON: 10 },
  }).createMachine({
    id: 'probeParent',
    context: { count: 0, isReady: true },
    initial: 'loading',
    states: {
      loading: { invoke: { id: 'load', src: 'load', onDone: 'idle' } },
      idle: {
        on: {
          add: [{ guard: 'isFull', target: 'full', actions: 'notify' }, { actions: 'add' }],
          go: 'delegating',
          check: { guard: 'isReady', actions: 'notify' },
        },
      },
      delegating: { invoke: { id: 'work', src: 'child', onDone: { target: 'idle', actions: 'notify' } } },
      full: { after: { SOON: 'idle' } },
    },
  });
  const PARENT_EFFECTS = {
    '(start)': ['invoke load'],
    'loading: xstate.done.actor.load -> idle': [],
    'idle: add #1 [isFull] -> full': ['notify', 'after SOON'],
    'idle: add #2 -> (stays)': [],
    'idle: go -> delegating': ['invoke work'],
    'idle: check [isReady] -> (stays)': ['notify'],
    'delegating: xstate.done.actor.work -> idle': ['notify'],
    'full: xstate.after.SOON.probeParent.full -> idle': [],
  };
  const CHILD_EFFECTS = {
    '(start)': ['ping'],
    'working: child.finish -> finished': [],
    'working: child.quit -> finished': [],
  };
  const childEvents = [{ type: 'child.finish' }, { type: 'child.quit' }];
  const parentEvents = [
    { type: 'add' },
    { type: 'go' },
    { type: 'check' },
    { type: 'xstate.done.actor.load', output: 1 },
    { type: 'xstate.done.actor.work', output: { isDone: true } },
    { type: 'xstate.after.SOON.probeParent.full' },
  ];
  const registryWith =
    (parentEffects: EffectTable, childEffects: EffectTable = CHILD_EFFECTS): Registry =>
    (machine) => {
      if (machine.id === 'probeParent')
        return { name: 'parent', events: parentEvents, effects: parentEffects };
      if (machine.id === 'probeChild') return { name: 'child', events: childEvents, effects: childEffects };
      return undefined;
    };
  const entry = { machine: parent, events: parentEvents };

  it('replays clean when every microstep runs what the tables declare, the child machine included', async () => {
    const generated = transitionPaths(entry);
    const report = await checkCoverage(entry, generated, registryWith(PARENT_EFFECTS));
    expect(report.problems).toEqual([]);
    expect(report.missing).toEqual([]);
    expect(
      tableProblems(
        PARENT_EFFECTS,
        generated.transitions.map(({ key }) => key),
      ),
    ).toEqual([]);
    // The threshold's guard is found false (count below 2), isReady never is: nothing sets it false.
    expect(report.refuted).toContain('idle: add #1 [isFull] -> full');
    expect(generated.unrefuted).toEqual(['idle: check [isReady] -> (stays)']);
  });

  it('names an effect that runs undeclared, and one declared that does not run', async () => {
    const report = await checkCoverage(
      entry,
      transitionPaths(entry),
      registryWith({
        ...PARENT_EFFECTS,
        'idle: go -> delegating': [],
        'delegating: xstate.done.actor.work -> idle': ['notify', 'refreshList'],
      }),
    );
    expect(report.problems).toContainEqual(
      expect.stringContaining('idle: go -> delegating ran [invoke work], the table says []'),
    );
    expect(report.problems).toContainEqual(
      expect.stringContaining('delegating: xstate.done.actor.work -> idle ran [notify], the table says'),
    );
  });

  it("checks the child machine's own microsteps against its table", async () => {
    const report = await checkCoverage(
      entry,
      transitionPaths(entry),
      registryWith(PARENT_EFFECTS, { ...CHILD_EFFECTS, '(start)': [] }),
    );
    expect(report.problems).toContainEqual(
      expect.stringContaining("(child 'work'): (start) ran [ping], the table says []"),
    );
  });

  it('drives the child machine to the output the path names, and says when it cannot end so', async () => {
    const withOutput = (output: unknown) => {
      const events = parentEvents.map((event) =>
        event.type === 'xstate.done.actor.work' ? { ...event, output } : event,
      );
      return { machine: parent, events };
    };
    const quitting = withOutput({ isDone: false });
    const quit = await checkCoverage(quitting, transitionPaths(quitting), registryWith(PARENT_EFFECTS));
    expect(quit.problems).toEqual([]);
    const impossible = withOutput({ isDone: 'maybe' });
    const report = await checkCoverage(impossible, transitionPaths(impossible), registryWith(PARENT_EFFECTS));
    expect(report.problems).toContainEqual(
      expect.stringContaining(
        `child ('work') cannot end with {"isDone":"maybe"} through its registered events`,
      ),
    );
  });

  it('requires one entry per transition and no entry for a transition the machine lacks', () => {
    const keys = transitionPaths(entry).transitions.map(({ key }) => key);
    const { 'idle: add #2 -> (stays)': _dropped, ...withoutOne } = PARENT_EFFECTS;
    expect(tableProblems(withoutOne, keys)).toEqual(["no effects declared for 'idle: add #2 -> (stays)'"]);
    expect(tableProblems({ ...PARENT_EFFECTS, '*: add #2 -> (stays)': [] }, keys)).toEqual([
      "'idle: add #2 -> (stays)' is declared by 'idle: add #2 -> (stays)' and '*: add #2 -> (stays)'",
    ]);
    expect(tableProblems({ ...PARENT_EFFECTS, 'idle: reset -> loading': [] }, keys)).toEqual([
      "'idle: reset -> loading' declares a transition the machine does not have",
    ]);
  });
});

describe("the traversal's key", () => {
  // A counter only a guard's threshold cares about, a note no guard reads, and a flag read by the guard
  // of an event that an action raises within the step.
  type Context = { count: number; note: string; isArmed: boolean };
  type Event =
    | { type: 'add' }
    | { type: 'noted'; note: string }
    | { type: 'arm' }
    | { type: 'fire' }
    | { type: 'check' };
  const probe = setup({
    types: { context: {} as Context, events: {} as Event },
    actions: {
      add: assign(({ context }) => ({ count: Math.min(context.count + 1, 2) })),
      note: assign((_, params: { note: string }) => ({ note: params.note })),
      arm: assign({ isArmed: true }),
      check: raise({ type: 'check' }),
    },
    guards: {
      isFull: ({ context }) => context.count >= 2,
      isArmed: ({ context }) => context.isArmed,
    },
  }).createMachine({
    id: 'keyProbe',
    context: { count: 0, note: '', isArmed: false },
    initial: 'counting',
    states: {
      counting: {
        on: {
          add: [{ guard: 'isFull', target: 'full' }, { actions: 'add' }],
          noted: { actions: { type: 'note', params: ({ event }) => ({ note: event.note }) } },
          arm: { actions: 'arm' },
          fire: { actions: 'check' },
          check: { guard: 'isArmed', target: 'fired' },
        },
      },
      full: {},
      fired: {},
    },
  });
  const events = [
    { type: 'add' },
    { type: 'noted', note: 'a' },
    { type: 'noted', note: 'b' },
    { type: 'arm' },
    { type: 'fire' },
  ];

  it('holds the state value and the fields guards read, also for an event an action raises', () => {
    const generated = transitionPaths({ machine: probe, events });
    expect(generated.contextKey).toEqual(['count', 'isArmed']);
    // counting: count 0, 1 or 2, armed or not (6); full: count 2, armed or not (2); fired: armed, any
    // count (3). The note would triple the counting states if it were keyed.
    expect(generated.explored).toBe(11);
    expect(generated.unreached).toEqual(['counting: check [isArmed] -> fired']);
    const states = generated.paths.flatMap((path) => path.steps.map((step) => step.state.value));
    expect(states).toContain('full');
    expect(states).toContain('fired');
  });

  it('is checked: a guard that reads a field outside the key is found', () => {
    const generated = transitionPaths({ machine: probe, events });
    expect(unkeyedGuardReads({ machine: probe, events }, generated)).toEqual([]);
    const problems = unkeyedGuardReads(
      { machine: probe, events },
      { paths: generated.paths, contextKey: ['isArmed'] },
    );
    expect(problems).toContain('"counting" on add depends on count');
    const withoutArmed = unkeyedGuardReads(
      { machine: probe, events },
      { paths: generated.paths, contextKey: ['count'] },
    );
    expect(withoutArmed).toContain('"counting" on fire depends on isArmed');
  });
});
