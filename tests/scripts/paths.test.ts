// The QA path exporter, run as QA runs it (a child process), checked against the registry.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MACHINES } from '../../machines/index';
import { listTransitions } from '../../scripts/lib/transition-paths';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function paths(...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/paths.ts', ...args], { cwd: ROOT });
}

type JsonOutput = {
  machine: string;
  unreached: string[];
  paths: { input: unknown; covers: string[]; steps: { event: { type: string }; state: string }[] }[];
};

describe('npm run paths', () => {
  it('prints the upload paths as JSON that together cover every transition', async () => {
    const { stdout } = await paths('upload', '--json');
    const output = JSON.parse(stdout) as JsonOutput;
    expect(output.machine).toBe('upload');
    expect(output.unreached).toEqual([]);
    expect(output.paths.length).toBeGreaterThan(1);
    for (const path of output.paths) {
      expect(path.steps[0]).toEqual({ event: { type: 'xstate.init' }, state: 'waiting.idle' });
    }
    const covered = new Set(output.paths.flatMap((path) => path.covers));
    const all = listTransitions(MACHINES.upload.machine).map((transition) => transition.key);
    expect(all.filter((key) => !covered.has(key))).toEqual([]);

    const finishing = output.paths.find((path) => path.steps.some((step) => step.state === 'finished'));
    expect(finishing?.steps.map((step) => step.event.type).slice(0, 5)).toEqual([
      'xstate.init',
      'file.selected',
      'xstate.done.actor.requestUpload',
      'upload.stored',
      'xstate.done.actor.createDocument',
    ]);
    // The blob is opaque: it is shown by its size, never as raw bytes.
    expect(stdout).toContain('"blob": "Blob(9 bytes)"');
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
    expect(stdout).toMatch(/Wait 3000 ms \(MODAL_CLOSE\) -> closed \(final\)/);
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
