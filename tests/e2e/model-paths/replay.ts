// QA's generated paths as browser tests: the JSON of `npm run paths -- <machine> --json` is read as QA reads
// it, and each path is replayed against the real app in Chromium. An adapter per machine says what each
// event is in the page (a click, a file chosen, a request the test lets through or fails) and what each
// state looks like there (docs/machines.md "QA's paths in the browser").
import { execFileSync } from 'node:child_process';
import { expect, type Page, type Request, type Route } from '@playwright/test';
import { TYPESCRIPT_ARGS } from '../../../scripts/lib/typescript-args.ts';

export type PathEvent = { type: string } & Record<string, unknown>;
export type PathStep = { event: PathEvent; state: string };
export type ModelPath = { input: unknown; covers: string[]; steps: PathStep[] };
export type MachinePaths = { machine: string; transitions: number; unreached: string[]; paths: ModelPath[] };

/**
 * What QA gets from `npm run paths -- <machine> --json`, run the same way (without npm's banner, and
 * without tsx's loader where Node runs TypeScript itself, 22.18 and later).
 */
export function loadPaths(machine: string): MachinePaths {
  const output = execFileSync(process.execPath, [...TYPESCRIPT_ARGS, 'scripts/paths.ts', machine, '--json'], {
    cwd: process.cwd(),
    encoding: 'utf8',
  });
  return JSON.parse(output) as MachinePaths;
}

/** Every distinct transition the paths take: the replay must take all of them, as the gate does. */
export function coveredTransitions(paths: readonly ModelPath[]): Set<string> {
  return new Set(paths.flatMap((modelPath) => modelPath.covers));
}

/** A short, stable test title: the path's number and the states it goes through. */
export function pathTitle(machine: string, index: number, modelPath: ModelPath): string {
  const states = modelPath.steps.map((step) => step.state);
  return `${machine} path ${index + 1}: ${states.join(' → ')}`;
}

/** What an invoked actor's result is called in a path: `xstate.done.actor.<id>` / `xstate.error.actor.<id>`. */
export function actorOutcome(event: PathEvent): { actor: string; ok: boolean } | null {
  const match = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  return match?.[1] && match[2] ? { actor: match[2], ok: match[1] === 'done' } : null;
}

/** `xstate.after.<DELAY>.<state id>`: a timer of the machine, which the replay lets run out. */
export function delayOf(event: PathEvent): string | null {
  return /^xstate\.after\.([^.]+)\./.exec(event.type)?.[1] ?? null;
}

/**
 * Requests the page makes for an invoked actor, held until the path says how the actor ends. While one is
 * held the machine stays in the state that invoked it, so that state can be checked in the page too.
 */
export class HeldRequests {
  private readonly waiting = new Map<string, Route[]>();
  private readonly arrived = new Map<string, number>();

  async hold(page: Page, actor: string, matches: (url: URL, request: Request) => boolean): Promise<void> {
    await page.route(
      (url) => url.protocol.startsWith('http'),
      async (route) => {
        const request = route.request();
        if (!matches(new URL(request.url()), request)) {
          await route.fallback();
          return;
        }
        this.arrived.set(actor, (this.arrived.get(actor) ?? 0) + 1);
        const queue = this.waiting.get(actor) ?? [];
        queue.push(route);
        this.waiting.set(actor, queue);
      },
    );
  }

  /** How many requests of this actor the page has made so far. */
  count(actor: string): number {
    return this.arrived.get(actor) ?? 0;
  }

  /**
   * Drops this actor's held requests: the machine left the state that invoked it for another reason, so
   * the page stopped the actor and gave up on its request, which nobody answers any more.
   */
  forget(actor: string): void {
    this.waiting.delete(actor);
  }

  /** The oldest held request of this actor, waiting for the page to make it if it has not yet. */
  async next(actor: string): Promise<Route> {
    await expect
      .poll(() => this.waiting.get(actor)?.length ?? 0, { message: `a request of ${actor}` })
      .toBeGreaterThan(0);
    const route = this.waiting.get(actor)?.shift();
    if (!route) throw new Error(`no held request of ${actor}`);
    return route;
  }
}

export type Adapter = {
  /** The event made real in the page; `index` is the step's place in `modelPath.steps`. */
  act(step: PathStep, index: number, modelPath: ModelPath): Promise<void>;
  /** What the page shows in this state, asserted. */
  expectState(state: string, index: number, modelPath: ModelPath): Promise<void>;
  /**
   * A state the real app holds for no time at all (left at once by an actor that fails synchronously):
   * there is nothing in the page to check, and the next step's assertion covers the transition.
   */
  isInstant?(index: number, modelPath: ModelPath): boolean;
};

/** Every step: its event as an action, then its state as an assertion on the page. */
export async function replay(adapter: Adapter, modelPath: ModelPath): Promise<void> {
  for (const [index, step] of modelPath.steps.entries()) {
    await adapter.act(step, index, modelPath);
    if (adapter.isInstant?.(index, modelPath)) continue;
    await adapter.expectState(step.state, index, modelPath);
  }
}
