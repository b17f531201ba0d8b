// The QA path exporter: every registered machine's paths, as text and as JSON, and the command run as QA
// runs it (a child process), checked against the registry.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MACHINES, type MachineName } from '../../machines/index';
import { pathsAsJson, pathsAsText, type PathsJson } from '../../scripts/lib/paths-output';
import { toPlainJson } from '../../scripts/lib/plain-json';
import { TYPESCRIPT_ARGS } from '../../scripts/lib/typescript-args.ts';
import { listTransitions, transitionPaths } from '../../scripts/lib/transition-paths';
import { registeredMachine } from '../machines/events';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function paths(...args: string[]) {
  return run(process.execPath, [...TYPESCRIPT_ARGS, 'scripts/paths.ts', ...args], { cwd: ROOT });
}

describe('every machine’s paths', () => {
  for (const name of Object.keys(MACHINES) as MachineName[]) {
    it(`${name}: as JSON that round-trips and as numbered steps, taking every transition`, () => {
      const entry = registeredMachine(name);
      const result = transitionPaths(entry);
      const all = listTransitions(entry.machine).map((transition) => transition.key);

      const output = pathsAsJson(name, result);
      const json = JSON.stringify(output, null, 2);
      const parsed = JSON.parse(json) as PathsJson;
      expect(parsed).toEqual(output);
      expect(JSON.stringify(parsed, null, 2)).toBe(json);
      expect(parsed.transitions).toBe(all.length);
      expect(parsed.unreached).toEqual([]);
      const covered = new Set(parsed.paths.flatMap((path) => path.covers));
      expect(all.filter((key) => !covered.has(key))).toEqual([]);
      // Each step is a registered event as sent, payload included (an undefined output is not dropped).
      const sent = new Set(entry.events.map((event) => JSON.stringify(toPlainJson(event))));
      const inputs = new Set(
        (entry.inputs ?? [undefined]).map((input) => JSON.stringify(toPlainJson(input))),
      );
      for (const path of [...parsed.paths, ...parsed.guardPaths]) {
        expect(inputs).toContain(JSON.stringify(path.input));
        expect(path.steps[0]?.event).toEqual({ type: 'xstate.init' });
        for (const step of path.steps.slice(1)) expect(sent).toContain(JSON.stringify(step.event));
      }
      // Each guard path finds false a guard of the machine that the covering paths never do.
      const guarded = new Set(listTransitions(entry.machine).flatMap((t) => (t.guard ? [t.key] : [])));
      for (const path of parsed.guardPaths) {
        expect(path.refutes.length).toBeGreaterThan(0);
        for (const key of path.refutes) expect(guarded).toContain(key);
      }

      const text = pathsAsText(name, entry.machine, result);
      expect(text).toMatch(
        new RegExp(
          `^${name}: ${parsed.paths.length} paths take all ${all.length} reachable transitions of ${all.length}\\.\\n`,
        ),
      );
      expect(text.match(/\n\nGuard path \d+\n/g) ?? []).toHaveLength(parsed.guardPaths.length);
      const blocks = text.split(/\n\n(?:Guard p|P)ath \d+\n/).slice(1, parsed.paths.length + 1);
      expect(blocks).toHaveLength(parsed.paths.length);
      blocks.forEach((block, index) => {
        const steps = block.split('\n\n')[0]!.trimEnd().split('\n');
        expect(steps).toHaveLength(parsed.paths[index]!.steps.length);
        steps.forEach((line, step) => expect(line).toMatch(new RegExp(`^ {2}${step + 1}\\. \\S`)));
        expect(steps[0]).toMatch(/^ {2}1\. Start in /);
      });
      expect(text).not.toContain('No registered event reaches');
    });
  }
});

describe('npm run paths', () => {
  it('prints the upload paths as JSON that together cover every transition', async () => {
    const { stdout } = await paths('upload', '--json');
    const output = JSON.parse(stdout) as PathsJson;
    expect(output.machine).toBe('upload');
    expect(output.unreached).toEqual([]);
    expect(output.paths.length).toBeGreaterThan(1);
    for (const path of output.paths) {
      expect(path.steps[0]).toEqual({ event: { type: 'xstate.init' }, state: 'waiting.idle' });
    }
    const covered = new Set(output.paths.flatMap((path) => path.covers));
    const all = listTransitions(MACHINES.upload).map((transition) => transition.key);
    expect(all.filter((key) => !covered.has(key))).toEqual([]);

    const finishing = output.paths.find((path) => path.steps.some((step) => step.state === 'finished'));
    expect(finishing?.steps.map((step) => (step.event as { type: string }).type).slice(0, 5)).toEqual([
      'xstate.init',
      'file.selected',
      'xstate.done.actor.requestUpload',
      'upload.stored',
      'xstate.done.actor.createDocument',
    ]);
    // The blob is described by its size and type, tagged so that no tool takes it for a string or {}.
    const selected = output.paths[0]?.steps[1]?.event as { files: { blob: unknown }[] };
    expect(selected.files[0]?.blob).toEqual({ $type: 'Blob', size: 9, type: 'application/pdf' });
  });

  it('prints numbered, readable steps by default', async () => {
    const { stdout } = await paths('upload');
    // Every transition of the machine is reachable and taken: the two counts must agree.
    expect(stdout).toMatch(/^upload: \d+ paths take all (\d+) reachable transitions of \1\./);
    expect(stdout).toContain('  1. Start in waiting.idle\n');
    expect(stdout).toMatch(
      / {2}2\. Send file\.selected \{"files":\[\{"name":"contract\.pdf".*-> uploading\.requesting\n/,
    );
    // The presigned ticket is too long for a step: it is named once and spelt out under "Payloads".
    const ticketLabel = /requestUpload succeeds with (P\d+) -> uploading\.sending/.exec(stdout)?.[1];
    expect(ticketLabel).toBeDefined();
    expect(stdout).toContain(`\nPayloads\n`);
    expect(stdout).toContain(
      `  ${ticketLabel} = {"url":"http://localhost:8080/storage/paraph","key":"uploads/`,
    );
    expect(stdout).toContain('"blob":Blob(9 bytes, application/pdf)');
    expect(stdout).toMatch(/Wait 3000 ms \(MODAL_CLOSE\) -> closed \(final\)/);
  });

  it('prints the machines whose actors succeed with nothing', async () => {
    const { stdout } = await paths('welcome');
    expect(stdout).toMatch(/^welcome: \d+ paths take all (\d+) reachable transitions of \1\./);
    expect(stdout).toMatch(/ {2}\d\. saveWelcomeScreenWatched succeeds -> /);
    const { stdout: json } = await paths('error-report', '--json');
    const events = (JSON.parse(json) as PathsJson).paths.flatMap((path) =>
      path.steps.map((step) => step.event),
    );
    expect(events).toContainEqual({
      type: 'xstate.done.actor.sendErrorReport',
      output: { $type: 'undefined' },
    });
  });

  it('starts each session path from its input', async () => {
    const { stdout } = await paths('session');
    expect(stdout).toContain('Start in anonymous with input {"storedToken":"stored-token"}');
    expect(stdout).toContain('Start in anonymous with input {"storedToken":null}');
  });

  it('refuses an unknown machine and lists the known ones', async () => {
    const failure = await paths('nope').then(
      () => null,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("Unknown machine 'nope'.");
    expect(failure?.stderr).toContain(`Machines: ${Object.keys(MACHINES).join(', ')}`);
  });
});
