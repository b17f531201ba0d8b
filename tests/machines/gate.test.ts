// The model-based gate: for every registered machine, generated paths take every transition of its
// definition (done/error/after included) and replay on a live actor with fake actors and a simulated clock.
// It prints each machine's time, slowest first; no test asserts a time (the machine is shared and noisy).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assign, fromPromise, raise, setup, StateMachine } from 'xstate';
import { afterAll, describe, expect, it } from 'vitest';
import { MACHINES, type MachineName } from '../../machines/index';
import { transitionPaths } from '../../scripts/lib/transition-paths';
import { unkeyedGuardReads } from './context-key';
import { registeredMachine } from './events';
import { checkCoverage } from './replay';

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
  key: string[];
};

const timings: Timing[] = [];

function timingTable(rows: Timing[]): string {
  const header = ['machine', 'total ms', 'traverse', 'replay', 'key check', 'states', 'paths', 'keyed on'];
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
      row.key.join(', ') || '(state value only)',
    ]);
  const cells = [header, ...lines].map((line) => line.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  return cells
    .map((line) =>
      line
        .map((cell, column) =>
          column === 0 || column === 7 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
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

describe('model-based gate', () => {
  afterAll(() => {
    if (timings.length > 0) console.log(`Model-based gate, slowest first:\n${timingTable(timings)}`);
  });

  for (const name of Object.keys(MACHINES) as MachineName[]) {
    it(`${name}: generated paths take every transition and replay live; guards read only keyed context`, async () => {
      const entry = registeredMachine(name);
      let start = performance.now();
      const generated = transitionPaths(entry);
      const traverse = since(start);
      start = performance.now();
      const report = await checkCoverage(entry, generated);
      const replay = since(start);
      start = performance.now();
      const unkeyed = unkeyedGuardReads(entry, generated);
      const keyCheck = since(start);
      timings.push({
        machine: name,
        traverse,
        replay,
        keyCheck,
        states: generated.explored,
        paths: generated.paths.length,
        key: generated.contextKey,
      });
      expect(report.problems, `${name}: paths that did not replay`).toEqual([]);
      expect(report.missing, `${name}: transitions no path reached`).toEqual([]);
      expect(report.paths).toBeGreaterThan(0);
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
