// How a machine's effects table is written and read. A table maps each transition of the machine (the
// gate's keys: "state: event #n [guard] -> target (on definer)") to the effects it must cause, and
// '(start)' to those of starting. An effect is one of:
//   'goToDocument'         a named action that is not a pure assign (navigation, a call the app provides,
//                          a sendTo / sendParent / emit / raise / enqueueActions given a name)
//   'invoke fetchPage'     an actor started, by its invoke id
//   'after PROCESSING_POLL' a delayed event scheduled, by its delay's name
// Assign actions are left out: the gate compares the whole context after every step. Actors stopped and
// timers cancelled on leaving a state are left out too: xstate does it for every state left, and the
// running actors are compared after every step.
//
// A key's state may be a pattern, so that an event an ancestor handles is declared once:
// 'editing.*: form.cancel -> left (on editing)' is that transition from every state inside editing, and
// '*: notice.dismiss -> (stays) (on (root))' from every state. Each transition must match exactly one
// entry, and each entry some transition.
export type Effects = readonly string[];
export type EffectTable = Readonly<Record<string, Effects>>;

export const START = '(start)';

function splitKey(key: string): { state: string; rest: string } {
  const at = key.indexOf(': ');
  return at < 0 ? { state: key, rest: '' } : { state: key.slice(0, at), rest: key.slice(at + 2) };
}

function matches(pattern: string, key: string): boolean {
  if (pattern === key) return true;
  const declared = splitKey(pattern);
  const actual = splitKey(key);
  if (declared.rest !== actual.rest || !declared.state.endsWith('*')) return false;
  return declared.state === '*' || actual.state.startsWith(declared.state.slice(0, -1));
}

const matching = (table: EffectTable, key: string) =>
  Object.keys(table).filter((pattern) => matches(pattern, key));

/** The effects declared for one transition key (or '(start)'), if exactly one entry declares them. */
export function declaredEffects(table: EffectTable, key: string): Effects | undefined {
  const [only, ...others] = matching(table, key);
  return only !== undefined && others.length === 0 ? table[only] : undefined;
}

/** Transitions with no entry or with two, and entries that match no transition of the machine. */
export function tableProblems(table: EffectTable, keys: readonly string[]): string[] {
  const problems: string[] = [];
  const used = new Set<string>();
  for (const key of [START, ...keys]) {
    const found = matching(table, key);
    found.forEach((pattern) => used.add(pattern));
    if (found.length === 0) problems.push(`no effects declared for '${key}'`);
    if (found.length > 1)
      problems.push(`'${key}' is declared by ${found.map((f) => `'${f}'`).join(' and ')}`);
  }
  for (const pattern of Object.keys(table)) {
    if (!used.has(pattern)) problems.push(`'${pattern}' declares a transition the machine does not have`);
  }
  return problems;
}
