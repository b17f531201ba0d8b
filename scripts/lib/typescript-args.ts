// The flags that start one of the project's TypeScript files in a new Node process. Node 22.18 and later
// run TypeScript themselves by erasing the types (the project keeps to erasable syntax: tsconfig.json's
// erasableSyntaxOnly); Node 20 needs tsx's loader, which costs seconds of CPU per process, since it
// transforms every module the process loads. @types/node stays at 20 (docs/decisions.md, "Node
// versions"), which does not know process.features.typescript.
const NODE_RUNS_TYPESCRIPT = Boolean((process.features as { typescript?: unknown }).typescript);

export const TYPESCRIPT_ARGS: readonly string[] = NODE_RUNS_TYPESCRIPT ? [] : ['--import', 'tsx'];
