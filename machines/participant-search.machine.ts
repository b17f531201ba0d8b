// The sign flow form's participant search (spec 001 §2 "Participant search"): suggestions from 3 typed
// characters, searched locally over what the form loaded (the user, their connections and sign groups,
// the people already in the flow), plus a typed address nobody known has. Someone already in the flow is
// listed with a mark and cannot be chosen (a reviewer cannot also be a signatory); a sign group expands
// into its people, those already added left out. Arrow keys move over the choosable entries and Enter
// picks; a pick is emitted (`participants.picked`) for the form, which owns the lists.
import { assign, emit, setup } from 'xstate';

export type ParticipantRole = 'reviewer' | 'signatory';

/** Someone who can join a flow: an account's name, or null for an address without one. */
export type Person = { emailAddress: string; fullName: string | null };

export type SearchGroup = { id: string; name: string; members: Person[] };

/** What the search runs over; the form's view sends it again whenever the lists change. */
export type SearchSources = {
  self: Person | null;
  connections: Person[];
  groups: SearchGroup[];
  reviewers: Person[];
  signatories: Person[];
  canChangeReviewers: boolean;
};

export type SuggestionKind = 'self' | 'email' | 'connection' | 'group';

export type Suggestion = {
  /** Unique in a list: the kind and the address, or the group's id. */
  key: string;
  kind: SuggestionKind;
  label: string;
  detail: string | null;
  /** Who a pick adds: one person, or a group's people not yet in the flow. */
  people: Person[];
  /** Already in the flow: in which role (a group: every member is), else null. */
  addedAs: ParticipantRole | null;
};

export type ParticipantSearchContext = {
  query: string;
  role: ParticipantRole;
  highlightedKey: string | null;
  sources: SearchSources;
};

export type ParticipantSearchInput = { sources: SearchSources };

export type ParticipantSearchEvent =
  | { type: 'query.changed'; query: string }
  | { type: 'role.changed'; role: ParticipantRole }
  | { type: 'sources.changed'; sources: SearchSources }
  | { type: 'highlight.next' }
  | { type: 'highlight.previous' }
  | { type: 'suggestion.pick'; key?: string }
  | { type: 'search.dismiss' };

export type ParticipantsPicked = { type: 'participants.picked'; role: ParticipantRole; people: Person[] };

/** Spec 001 §5 and §9: suggestions need 3 characters. */
export const SEARCH_MIN_LENGTH = 3;

/** Spec 001 §5: letters, digits and _ . + - before the @, then a domain with a dot. */
export const EMAIL_PATTERN = /^[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export function isValidEmail(text: string): boolean {
  return EMAIL_PATTERN.test(text.trim());
}

export const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function isSearchable(query: string): boolean {
  return query.trim().length >= SEARCH_MIN_LENGTH;
}

function roleOf(sources: SearchSources, emailAddress: string): ParticipantRole | null {
  if (sources.signatories.some((person) => sameAddress(person.emailAddress, emailAddress)))
    return 'signatory';
  if (sources.reviewers.some((person) => sameAddress(person.emailAddress, emailAddress))) return 'reviewer';
  return null;
}

function matches(person: Person, needle: string): boolean {
  return (
    person.emailAddress.toLowerCase().includes(needle) ||
    (person.fullName ?? '').toLowerCase().includes(needle)
  );
}

function personSuggestion(kind: SuggestionKind, person: Person, sources: SearchSources): Suggestion {
  return {
    key: `${kind}:${person.emailAddress.toLowerCase()}`,
    kind,
    label: person.fullName || person.emailAddress,
    detail: person.fullName ? person.emailAddress : null,
    people: [person],
    addedAs: roleOf(sources, person.emailAddress),
  };
}

/** The suggestions for a query and a role, in the spec's order: the user, an address, connections, groups. */
export function suggestionsOf(
  context: Pick<ParticipantSearchContext, 'query' | 'role' | 'sources'>,
): Suggestion[] {
  const { sources, role } = context;
  if (!isSearchable(context.query)) return [];
  const needle = context.query.trim().toLowerCase();
  const suggestions: Suggestion[] = [];
  const known = new Set<string>();
  const self = sources.self;
  if (self) {
    known.add(self.emailAddress.toLowerCase());
    if (matches(self, needle) && roleOf(sources, self.emailAddress) !== role) {
      suggestions.push(personSuggestion('self', self, sources));
    }
  }
  const people = [...sources.connections, ...sources.reviewers, ...sources.signatories].filter(
    (person) => !known.has(person.emailAddress.toLowerCase()),
  );
  const typed = context.query.trim();
  const isTypedKnown = people.some((person) => sameAddress(person.emailAddress, typed)) || known.has(needle);
  if (isValidEmail(typed) && !isTypedKnown) {
    suggestions.push(personSuggestion('email', { emailAddress: typed, fullName: null }, sources));
  }
  for (const person of people) {
    const address = person.emailAddress.toLowerCase();
    if (known.has(address)) continue;
    known.add(address);
    if (matches(person, needle)) suggestions.push(personSuggestion('connection', person, sources));
  }
  for (const group of sources.groups) {
    if (!group.name.toLowerCase().includes(needle)) continue;
    const newcomers = group.members.filter((member) => roleOf(sources, member.emailAddress) === null);
    suggestions.push({
      key: `group:${group.id}`,
      kind: 'group',
      label: group.name,
      detail: null,
      people: newcomers,
      addedAs: newcomers.length === 0 ? role : null,
    });
  }
  return suggestions;
}

export function isChoosable(suggestion: Suggestion): boolean {
  return suggestion.addedAs === null && suggestion.people.length > 0;
}

export function choosableOf(
  context: Pick<ParticipantSearchContext, 'query' | 'role' | 'sources'>,
): Suggestion[] {
  return suggestionsOf(context).filter(isChoosable);
}

function firstKey(context: Pick<ParticipantSearchContext, 'query' | 'role' | 'sources'>): string | null {
  return choosableOf(context)[0]?.key ?? null;
}

function stepKey(context: ParticipantSearchContext, step: 1 | -1): string | null {
  const keys = choosableOf(context).map((suggestion) => suggestion.key);
  if (keys.length === 0) return null;
  const at = context.highlightedKey === null ? -1 : keys.indexOf(context.highlightedKey);
  const next = at === -1 ? (step === 1 ? 0 : keys.length - 1) : (at + step + keys.length) % keys.length;
  return keys[next] ?? null;
}

function pickedOf(context: ParticipantSearchContext, key: string | undefined): Suggestion | undefined {
  const wanted = key ?? context.highlightedKey;
  return choosableOf(context).find((suggestion) => suggestion.key === wanted);
}

const EMPTY_SOURCES: SearchSources = {
  self: null,
  connections: [],
  groups: [],
  reviewers: [],
  signatories: [],
  canChangeReviewers: false,
};

export const participantSearchMachine = setup({
  types: {
    context: {} as ParticipantSearchContext,
    events: {} as ParticipantSearchEvent,
    input: {} as ParticipantSearchInput,
    emitted: {} as ParticipantsPicked,
  },
  actions: {
    keepQuery: assign(({ context }, params: { query: string }) => {
      const next = { ...context, query: params.query };
      return { query: params.query, highlightedKey: firstKey(next) };
    }),
    keepRole: assign(({ context }, params: { role: ParticipantRole }) => ({
      role: params.role,
      highlightedKey: firstKey({ ...context, role: params.role }),
    })),
    keepSources: assign(({ context }, params: { sources: SearchSources }) => {
      const role = params.sources.canChangeReviewers ? context.role : 'signatory';
      const next = { ...context, role, sources: params.sources };
      const isStillThere = choosableOf(next).some((s) => s.key === context.highlightedKey);
      return {
        sources: params.sources,
        role,
        highlightedKey: isStillThere ? context.highlightedKey : firstKey(next),
      };
    }),
    highlightNext: assign({ highlightedKey: ({ context }) => stepKey(context, 1) }),
    highlightPrevious: assign({ highlightedKey: ({ context }) => stepKey(context, -1) }),
    notifyPicked: emit(({ context }, params: { key: string | undefined }) => {
      const picked = pickedOf(context, params.key);
      return { type: 'participants.picked', role: context.role, people: picked?.people ?? [] } as const;
    }),
    clearQuery: assign({ query: '', highlightedKey: null }),
  },
  guards: {
    isSearchable: (_, params: { query: string }) => isSearchable(params.query),
    isAllowedRole: ({ context }, params: { role: ParticipantRole }) =>
      params.role === 'signatory' || context.sources.canChangeReviewers,
    isChoosable: ({ context }, params: { key: string | undefined }) =>
      pickedOf(context, params.key) !== undefined,
  },
}).createMachine({
  id: 'participantSearch',
  context: ({ input }) => ({
    query: '',
    role: 'signatory',
    highlightedKey: null,
    sources: input.sources ?? EMPTY_SOURCES,
  }),
  initial: 'idle',
  on: {
    'query.changed': [
      {
        guard: { type: 'isSearchable', params: ({ event }) => ({ query: event.query }) },
        target: '.suggesting',
        actions: { type: 'keepQuery', params: ({ event }) => ({ query: event.query }) },
      },
      { target: '.idle', actions: { type: 'keepQuery', params: ({ event }) => ({ query: event.query }) } },
    ],
    'role.changed': {
      guard: { type: 'isAllowedRole', params: ({ event }) => ({ role: event.role }) },
      actions: { type: 'keepRole', params: ({ event }) => ({ role: event.role }) },
    },
    'sources.changed': {
      actions: { type: 'keepSources', params: ({ event }) => ({ sources: event.sources }) },
    },
  },
  states: {
    idle: {},
    suggesting: {
      on: {
        'highlight.next': { actions: 'highlightNext' },
        'highlight.previous': { actions: 'highlightPrevious' },
        'suggestion.pick': {
          guard: { type: 'isChoosable', params: ({ event }) => ({ key: event.key }) },
          target: 'idle',
          actions: [{ type: 'notifyPicked', params: ({ event }) => ({ key: event.key }) }, 'clearQuery'],
        },
        'search.dismiss': 'dismissed',
      },
    },
    dismissed: {},
  },
});
