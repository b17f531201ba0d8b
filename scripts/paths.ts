// `npm run paths -- <machine> [--json]`: the paths that together take every transition of a registered
// machine, as numbered steps QA can turn into test cases, or as JSON for tools:
// { machine, transitions, unreached, paths: [{ input, covers, steps: [{ event, state }] }] }, where a
// value JSON cannot carry (undefined, a Blob, a Date...) is an object tagged with "$type" (README, "QA").
// The events and inputs each machine is sent are the gate's (tests/machines/events.ts).
import { MACHINES, type MachineName } from '../machines/index.ts';
import { registeredMachine } from '../tests/machines/events.ts';
import { pathsAsJson, pathsAsText } from './lib/paths-output.ts';
import { transitionPaths } from './lib/transition-paths.ts';

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
  const entry = registeredMachine(name as MachineName);
  const result = transitionPaths(entry);
  process.stdout.write(
    isJson
      ? `${JSON.stringify(pathsAsJson(name, result), null, 2)}\n`
      : pathsAsText(name, entry.machine, result),
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
