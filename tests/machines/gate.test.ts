// The model-based gate: for every registered machine, generated paths take every transition of its
// definition (done/error/after included) and replay on a live actor with fake actors and a simulated clock.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assign, fromPromise, setup, StateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MACHINES } from '../../machines/index';
import { checkCoverage } from './replay';

const MACHINES_DIR = fileURLToPath(new URL('../../machines/', import.meta.url));
const MACHINE_MODULES = import.meta.glob<Record<string, unknown>>('../../machines/*.machine.ts', {
  eager: true,
});

describe('model-based gate', () => {
  for (const [name, entry] of Object.entries(MACHINES)) {
    it(`${name}: generated paths take every transition and replay live`, async () => {
      const report = await checkCoverage(entry);
      expect(report.problems, `${name}: paths that did not replay`).toEqual([]);
      expect(report.missing, `${name}: transitions no path reached`).toEqual([]);
      expect(report.paths).toBeGreaterThan(0);
    });
  }

  it('registers every machines/*.machine.ts under its file name', () => {
    const files = readdirSync(MACHINES_DIR).filter((file) => file.endsWith('.machine.ts'));
    expect(files.length).toBeGreaterThan(0);
    const registered: Record<string, unknown> = Object.fromEntries(
      Object.entries(MACHINES).map(([name, entry]) => [name, entry.machine]),
    );
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
