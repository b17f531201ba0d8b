// What `npm run paths` prints for one machine: numbered steps for people, or JSON for tools.
import type { AnyStateMachine } from 'xstate';
import { toPlainJson, type Json } from './plain-json';
import { createPayloadLegend, describeStep, stateLabel, type TransitionPaths } from './transition-paths';

export type PathsJson = {
  machine: string;
  transitions: number;
  unreached: string[];
  paths: { input: Json; covers: string[]; steps: { event: Json; state: string }[] }[];
};

/** Events and inputs as toPlainJson has them: what JSON cannot carry is tagged, never dropped. */
export function pathsAsJson(name: string, result: TransitionPaths): PathsJson {
  return {
    machine: name,
    transitions: result.transitions.length,
    unreached: result.unreached,
    paths: result.paths.map((path) => ({
      input: toPlainJson(path.input),
      covers: path.covers,
      steps: path.steps.map((step) => ({
        event: toPlainJson(step.event),
        state: stateLabel(step.state.value),
      })),
    })),
  };
}

export function pathsAsText(name: string, machine: AnyStateMachine, result: TransitionPaths): string {
  const { transitions, paths, unreached } = result;
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
  if (legend.entries().length > 0) {
    lines.push('', 'Payloads', ...legend.entries().map(([label, text]) => `  ${label} = ${text}`));
  }
  if (unreached.length > 0) {
    lines.push('', 'No registered event reaches:', ...unreached.map((key) => `  - ${key}`));
  }
  return `${lines.join('\n')}\n`;
}
