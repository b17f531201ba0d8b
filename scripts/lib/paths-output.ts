// What `npm run paths` prints for one machine: numbered steps for people, or JSON for tools.
import type { AnyStateMachine } from 'xstate';
import { toPlainJson, type Json } from './plain-json.ts';
import {
  createPayloadLegend,
  describeStep,
  stateLabel,
  type TransitionPath,
  type TransitionPaths,
} from './transition-paths.ts';

type PathJson = { input: Json; covers: string[]; steps: { event: Json; state: string }[] };

/**
 * `paths` take every transition; `guardPaths` end where a guard the first ones never find false is
 * false, and send its event there: the machine must not take that transition (`refutes`, by key).
 */
export type PathsJson = {
  machine: string;
  transitions: number;
  unreached: string[];
  paths: PathJson[];
  guardPaths: (PathJson & { refutes: string[] })[];
  unrefuted: string[];
};

function pathAsJson(path: TransitionPath): PathJson {
  return {
    input: toPlainJson(path.input),
    covers: path.covers,
    steps: path.steps.map((step) => ({
      event: toPlainJson(step.event),
      state: stateLabel(step.state.value),
    })),
  };
}

/** Events and inputs as toPlainJson has them: what JSON cannot carry is tagged, never dropped. */
export function pathsAsJson(name: string, result: TransitionPaths): PathsJson {
  return {
    machine: name,
    transitions: result.transitions.length,
    unreached: result.unreached,
    paths: result.paths.map(pathAsJson),
    guardPaths: result.guardPaths.map((path) => ({ ...pathAsJson(path), refutes: path.refutes })),
    unrefuted: result.unrefuted,
  };
}

export function pathsAsText(name: string, machine: AnyStateMachine, result: TransitionPaths): string {
  const { transitions, paths, unreached, guardPaths, unrefuted } = result;
  const lines = [
    `${name}: ${paths.length} paths take all ${transitions.length - unreached.length} reachable transitions` +
      ` of ${transitions.length}.`,
  ];
  const legend = createPayloadLegend();
  for (const [index, path] of paths.entries()) {
    lines.push('', `Path ${index + 1}`);
    path.steps.forEach((step, stepIndex) => {
      lines.push(`  ${stepIndex + 1}. ${describeStep(machine, step, path.input, legend)}`);
    });
  }
  const guardOf = new Map(transitions.map((transition) => [transition.key, transition.guard]));
  for (const [index, path] of guardPaths.entries()) {
    lines.push('', `Guard path ${index + 1}`);
    path.steps.forEach((step, stepIndex) => {
      const guards = [...new Set(step.refutes.map((key) => guardOf.get(key) ?? key))];
      const refuted = guards.length > 0 ? ` (${guards.join(', ')}: false)` : '';
      lines.push(`  ${stepIndex + 1}. ${describeStep(machine, step, path.input, legend)}${refuted}`);
    });
  }
  if (legend.entries().length > 0) {
    lines.push('', 'Payloads', ...legend.entries().map(([label, text]) => `  ${label} = ${text}`));
  }
  if (unreached.length > 0) {
    lines.push('', 'No registered event reaches:', ...unreached.map((key) => `  - ${key}`));
  }
  if (unrefuted.length > 0) {
    lines.push('', 'No registered event finds these guards false:', ...unrefuted.map((key) => `  - ${key}`));
  }
  return `${lines.join('\n')}\n`;
}
