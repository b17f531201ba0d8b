// `npm run paths -- <machine> [--json]`: the paths that together take every transition of a registered
// machine, as numbered steps QA can turn into test cases, or as JSON for tools:
// { machine, paths: [{ input, covers, steps: [{ event, state }] }] }.
import { MACHINES } from '../machines/index';
import {
  createPayloadLegend,
  describeStep,
  stateLabel,
  toPlainJson,
  transitionPaths,
} from './lib/transition-paths';

function main(argv: string[]): number {
  const args = argv.filter((arg) => arg !== '--json');
  const isJson = args.length !== argv.length;
  const name = args[0];
  const names = Object.keys(MACHINES);
  if (args.length !== 1 || name === undefined || !Object.hasOwn(MACHINES, name)) {
    const given = name === undefined ? 'No machine given.' : `Unknown machine '${name}'.`;
    process.stderr.write(
      `${given}\nUsage: npm run paths -- <machine> [--json]\nMachines: ${names.join(', ')}\n`,
    );
    return 1;
  }
  const entry = MACHINES[name as keyof typeof MACHINES];
  const { transitions, paths, unreached } = transitionPaths(entry);

  if (isJson) {
    const output = {
      machine: name,
      transitions: transitions.length,
      unreached,
      paths: paths.map((path) => ({
        input: toPlainJson(path.input ?? null),
        covers: path.covers,
        steps: path.steps.map((step) => ({
          event: toPlainJson(step.event),
          state: stateLabel(step.state.value),
        })),
      })),
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return 0;
  }

  const lines = [
    `${name}: ${paths.length} paths take all ${transitions.length - unreached.length} reachable transitions` +
      ` of ${transitions.length}.`,
  ];
  const legend = createPayloadLegend();
  for (const [index, path] of paths.entries()) {
    lines.push('', `Path ${index + 1}`);
    path.steps.forEach((step, stepIndex) => {
      lines.push(`  ${stepIndex + 1}. ${describeStep(entry.machine, step, path.input, legend)}`);
    });
  }
  if (legend.entries().length > 0) {
    lines.push('', 'Payloads', ...legend.entries().map(([label, json]) => `  ${label} = ${json}`));
  }
  if (unreached.length > 0) {
    lines.push('', 'No registered event reaches:', ...unreached.map((key) => `  - ${key}`));
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
