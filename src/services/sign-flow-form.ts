// The sign flow form's real actors: the load (the document, the flow being edited, the connections and
// sign groups the participant search runs over, and a draft kept across a lost session), the save (POST
// for a new flow, PUT for an edit) and the invite acceptance. The draft lives in session storage per
// document, only while a 401 has sent the user to sign in again; it holds what the form shows, never a
// token.
import { fromPromise } from 'xstate';
import type { Person, SearchGroup } from '../../machines/participant-search.machine';
import type {
  DraftReviewer,
  ExistingFlow,
  LoadSignFlowFormInput,
  SaveSignFlowInput,
  SavedDraft,
  SignFlowFormData,
} from '../../machines/sign-flow-form.machine';
import type { DraftSignatory, Placement } from '../../machines/sign-flow-draft';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { loadConnections } from './connections';

type Schemas = components['schemas'];

function toExistingFlow(body: Schemas['SignFlowResponse']): ExistingFlow {
  const { data, included } = body;
  const signatories = new Map<string, DraftSignatory>();
  const reviewers = new Map<string, DraftReviewer>();
  const placements: Placement[] = [];
  for (const resource of included) {
    if (resource.type === 'signatories') {
      const { emailAddress, fullName, state } = resource.attributes;
      signatories.set(resource.id, { emailAddress, fullName, hasSigned: state === 'signed' });
    } else if (resource.type === 'reviewers') {
      const { emailAddress, fullName, state } = resource.attributes;
      reviewers.set(resource.id, { emailAddress, fullName, hasApproved: state === 'approved' });
    } else {
      const { emailAddress, top, left, signPageNumber } = resource.attributes;
      placements.push({ emailAddress, pageNumber: signPageNumber, top: Number(top), left: Number(left) });
    }
  }
  // The relationships give the order (signing order for an ordered flow); included items have none.
  const inOrder = <T>(byId: Map<string, T>, order: { id: string }[]) => {
    const named = order.flatMap((entry) => byId.get(entry.id) ?? []);
    const ids = new Set(order.map((entry) => entry.id));
    return [...named, ...[...byId].filter(([id]) => !ids.has(id)).map(([, value]) => value)];
  };
  return {
    isOrdered: data.type === 'orderedSignFlows',
    state: data.attributes.state,
    comment: data.attributes.comment,
    minimumRequiredSigns: data.attributes.minimumRequiredSigns,
    signPageNumber: data.attributes.signPageNumber,
    reviewers: inOrder(reviewers, data.relationships.reviewers.data),
    signatories: inOrder(signatories, data.relationships.signatories.data),
    placements,
  };
}

async function loadGroups(signal: AbortSignal): Promise<SearchGroup[]> {
  const body = await unwrap(api.GET('/sign_groups', { signal }));
  const profiles = new Map(body.included.map((profile) => [profile.id, profile.attributes]));
  return body.data.map((group) => ({
    id: group.id,
    name: group.attributes.description,
    members: group.relationships.profiles.data.flatMap((entry) => {
      const profile = profiles.get(entry.id);
      return profile ? [{ emailAddress: profile.emailAddress, fullName: profile.fullName || null }] : [];
    }),
  }));
}

export const loadSignFlowForm = fromPromise<SignFlowFormData, LoadSignFlowFormInput>(
  async ({ input, signal }) => {
    const id = { params: { path: { id: input.documentId } }, signal };
    const [document, flow, connections, groups] = await Promise.all([
      unwrap(api.GET('/documents/{id}', id)),
      input.mode === 'edit' ? unwrap(api.GET('/documents/{id}/sign_flow', id)) : Promise.resolve(null),
      loadConnections(signal),
      loadGroups(signal),
    ]);
    const people: Person[] = connections.map(({ profile }) => ({
      emailAddress: profile.emailAddress,
      fullName: profile.fullName || null,
    }));
    return {
      document: document.data,
      pageCount: document.data.attributes.pageCount,
      flow: flow ? toExistingFlow(flow) : null,
      connections: people,
      groups,
      draft: readDraft(input.documentId),
    };
  },
);

export const saveSignFlow = fromPromise<void, SaveSignFlowInput>(async ({ input, signal }) => {
  const options = { params: { path: { id: input.documentId } }, body: input.body, signal };
  if (input.mode === 'new') await unwrap(api.POST('/documents/{id}/sign_flow', options));
  else await unwrap(api.PUT('/documents/{id}/sign_flow', options));
});

/** PATCH /invites/accept: resolves the first document the invite opens, or null when it names none. */
export const acceptInvite = fromPromise<string | null, { inviteId: string }>(async ({ input, signal }) => {
  const body = await unwrap(api.PATCH('/invites/accept', { body: { invite_id: input.inviteId }, signal }));
  return body.included[0]?.id ?? null;
});

const DRAFT_KEY_PREFIX = 'paraph.signFlowDraft.';

function draftStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function storeDraft(documentId: string, draft: SavedDraft): void {
  try {
    draftStorage()?.setItem(DRAFT_KEY_PREFIX + documentId, JSON.stringify(draft));
  } catch {
    // A full or disabled storage only loses the convenience of finding the form as it was.
  }
}

export function clearDraft(documentId: string): void {
  try {
    draftStorage()?.removeItem(DRAFT_KEY_PREFIX + documentId);
  } catch {
    // Nothing was kept, then.
  }
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isFlag = (value: unknown): value is boolean => typeof value === 'boolean';
const isFraction = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;

function listOf<T>(value: unknown, read: (item: Json) => T | null): T[] | null {
  if (!Array.isArray(value)) return null;
  const items: T[] = [];
  for (const item of value) {
    const read1 = isRecord(item) ? read(item) : null;
    if (read1 === null) return null;
    items.push(read1);
  }
  return items;
}

const readPerson = (item: Json): Person | null =>
  isText(item.emailAddress) && (item.fullName === null || isText(item.fullName))
    ? { emailAddress: item.emailAddress, fullName: item.fullName }
    : null;

function oneOf<T extends string>(value: unknown, options: readonly T[]): value is T {
  return typeof value === 'string' && (options as readonly string[]).includes(value);
}

/** The kept draft, or null when there is none or it is not one this version wrote. */
export function readDraft(documentId: string): SavedDraft | null {
  let parsed: unknown;
  try {
    const text = draftStorage()?.getItem(DRAFT_KEY_PREFIX + documentId);
    if (!text) return null;
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const reviewers = listOf(parsed.reviewers, (item) => {
    const person = readPerson(item);
    return person && isFlag(item.hasApproved) ? { ...person, hasApproved: item.hasApproved } : null;
  });
  const signatories = listOf(parsed.signatories, (item) => {
    const person = readPerson(item);
    return person && isFlag(item.hasSigned) ? { ...person, hasSigned: item.hasSigned } : null;
  });
  const placements = listOf(parsed.placements, (item) =>
    isText(item.emailAddress) &&
    Number.isInteger(item.pageNumber) &&
    isFraction(item.left) &&
    isFraction(item.top)
      ? {
          emailAddress: item.emailAddress,
          pageNumber: item.pageNumber as number,
          left: item.left,
          top: item.top,
        }
      : null,
  );
  const { mode, isOrdered, isMinimumOn, minimumText, signatureMode, pagePosition, afterPageText, comment } =
    parsed;
  if (
    !reviewers ||
    !signatories ||
    !placements ||
    !oneOf(mode, ['new', 'edit'] as const) ||
    !isFlag(isOrdered) ||
    !isFlag(isMinimumOn) ||
    !isText(minimumText) ||
    !oneOf(signatureMode, ['inline', 'page'] as const) ||
    !oneOf(pagePosition, ['first', 'after', 'last'] as const) ||
    !isText(afterPageText) ||
    !isText(comment)
  ) {
    return null;
  }
  return {
    mode,
    reviewers,
    signatories,
    isOrdered,
    isMinimumOn,
    minimumText,
    signatureMode,
    pagePosition,
    afterPageText,
    comment,
    placements,
  };
}
