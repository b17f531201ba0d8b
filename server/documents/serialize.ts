// Turns document rows into the API's document resource for one viewer: signed storage links, permission
// flags and counts. Lists serialise a page at once with a fixed number of queries, whatever its size.
import type { AppDeps, AuthUser } from '../context.ts';
import type { DocumentRow, ParticipantRow, SignFlowRow } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { SMART_CARD_TYPES } from '../signing/smart-card-type.ts';
import { reusableSignedGetUrl } from '../storage/link-cache.ts';
import { visibleToViewer } from './list-query.ts';
import {
  documentPermissions,
  isViewerParticipant,
  type DocumentPermissions,
  type PermissionParticipant,
} from './permissions.ts';

// Storage links are short-lived: an <img>, pdfjs or a download needs no header and no token.
export const FILE_URL_TTL_SECONDS = 15 * 60;
// A page that could not be rendered keeps its place in `publicImagesFileUrls` (clients index pages by
// position) with this image of the app's, which carries no text to translate.
export const UNAVAILABLE_PAGE_IMAGE_PATH = '/app/page-unavailable.svg';

export type DocumentAttributes = DocumentPermissions & {
  originalFilename: string;
  state: DocumentRow['state'];
  createdAt: string;
  updatedAt: string;
  fileSize: number;
  humanFilesize: string;
  pageCount: number;
  creatorFullName: string;
  creatorEmailAddress: string;
  isSignFlow: boolean;
  processing: boolean;
  autodeletionAt: string;
  autodeletionToogle: boolean;
  showAutodeleteDate: boolean;
  signedCount: number;
  signatoryCount: number;
  reviewerCount: number;
  approvedCount: number;
  publicImagesFileUrls: string[];
  unavailablePages: number[];
  pdfUrl: string | null;
  pdfDownloadUrl: string | null;
  smartCardType: (typeof SMART_CARD_TYPES)[number] | null;
};

export type DocumentResource = {
  id: string;
  type: 'documents';
  attributes: DocumentAttributes;
};

export function humanFilesize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit] ?? 'GB'}`;
}

type RelatedParticipant = Pick<ParticipantRow, 'role' | 'state' | 'user_id' | 'email'>;

type Owner = { email: string; full_name: string };

// A list's rows come with their owner's name and address (list-query.ts), which then need no query.
export type SerializableRow = DocumentRow & Partial<{ owner_full_name: string; owner_email: string }>;

type Related = {
  owners: Map<string, Owner>;
  flows: Map<string, Pick<SignFlowRow, 'type' | 'state'>>;
  participants: Map<string, RelatedParticipant[]>;
  archived: Set<string>;
  pages: Map<string, Map<number, string>>;
  // The level of the last signature of each signed document.
  cardTypes: Map<string, string>;
};

// What the caller already knows about the rows: a list of one category holds only archived documents
// (`archived`) or only documents the viewer has not archived, so that needs no query.
export type KnownState = { archivedByViewer?: boolean };

async function loadRelated(
  deps: AppDeps,
  rows: readonly SerializableRow[],
  viewer: AuthUser,
  known: KnownState,
): Promise<Related> {
  const related: Related = {
    owners: new Map(),
    flows: new Map(),
    participants: new Map(),
    archived: new Set(),
    pages: new Map(),
    cardTypes: new Map(),
  };
  if (rows.length === 0) return related;
  const { db } = deps;
  const documentIds = rows.map((row) => row.id);
  for (const row of rows) {
    if (row.owner_email !== undefined && row.owner_full_name !== undefined)
      related.owners.set(row.owner_id, { email: row.owner_email, full_name: row.owner_full_name });
  }
  const ownerIds = [...new Set(rows.map((row) => row.owner_id))].filter((id) => !related.owners.has(id));
  const readyIds = rows.filter((row) => row.images_state === 'ready').map((row) => row.id);
  const signedIds = rows.filter((row) => row.state === 'signed').map((row) => row.id);

  const [owners, flows, archivedIds, pages, versions] = await Promise.all([
    ownerIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('users').select(['id', 'email', 'full_name']).where('id', 'in', ownerIds).execute(),
    // Each flow with its participants in one round trip (a flow saved without participants yet has one
    // row of nulls).
    db
      .selectFrom('sign_flows')
      .leftJoin('sign_flow_participants', 'sign_flow_participants.sign_flow_id', 'sign_flows.id')
      .select([
        'sign_flows.document_id',
        'sign_flows.type as flow_type',
        'sign_flows.state as flow_state',
        'sign_flow_participants.role',
        'sign_flow_participants.state',
        'sign_flow_participants.user_id',
        'sign_flow_participants.email',
      ])
      .where('sign_flows.document_id', 'in', documentIds)
      .orderBy('sign_flow_participants.position')
      .execute(),
    known.archivedByViewer !== undefined
      ? Promise.resolve(known.archivedByViewer ? documentIds : [])
      : db
          .selectFrom('document_archives')
          .select('document_id')
          .where('user_id', '=', viewer.id)
          .where('document_id', 'in', documentIds)
          .execute()
          .then((archives) => archives.map((archive) => archive.document_id)),
    readyIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('document_pages')
          .select(['document_id', 'page_number', 'image_key'])
          .where('document_id', 'in', readyIds)
          .orderBy('document_id')
          .orderBy('page_number')
          .execute(),
    signedIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('document_versions')
          .select(['document_id', 'smart_card_type'])
          .where('document_id', 'in', signedIds)
          .where('state', '=', 'signed')
          .orderBy('answered_at')
          .orderBy('id')
          .execute(),
  ]);
  // In answer order, so the last one written is the last signature.
  for (const version of versions) related.cardTypes.set(version.document_id, version.smart_card_type);
  for (const owner of owners) related.owners.set(owner.id, owner);
  for (const documentId of archivedIds) related.archived.add(documentId);
  for (const page of pages) {
    const keys = related.pages.get(page.document_id) ?? new Map<number, string>();
    keys.set(page.page_number, page.image_key);
    related.pages.set(page.document_id, keys);
  }
  for (const { document_id: documentId, flow_type: type, flow_state: flowState, ...participant } of flows) {
    related.flows.set(documentId, { type, state: flowState });
    const list = related.participants.get(documentId) ?? [];
    if (participant.role !== null && participant.state !== null && participant.email !== null)
      list.push({
        ...participant,
        role: participant.role,
        state: participant.state,
        email: participant.email,
      });
    related.participants.set(documentId, list);
  }
  return related;
}

// The flags depend on the viewer only through "is this row me" and "am I the owner", and documents share a
// few shapes (states, roles, who is pending), so a page asks the lifecycle once per shape.
const PERMISSION_SHAPES = 5_000;
const permissionsByShape = new Map<string, DocumentPermissions>();

function permissionsOf(input: Parameters<typeof documentPermissions>[0]): DocumentPermissions {
  const { document, signFlow, participants, viewer, archivedByViewer } = input;
  const shape = [
    document.ownerId === viewer.id ? 'owner' : 'other',
    document.state,
    archivedByViewer ? 'archived' : '',
    signFlow === null ? '-' : `${signFlow.type}:${signFlow.state}:${signFlow.minimumRequiredSigns ?? 0}`,
    ...participants.map(
      (participant: PermissionParticipant) =>
        `${participant.role}:${participant.state}:${isViewerParticipant(participant, viewer) ? 'me' : ''}`,
    ),
  ].join('|');
  const found = permissionsByShape.get(shape);
  if (found !== undefined) return found;
  const permissions = documentPermissions(input);
  if (permissionsByShape.size >= PERMISSION_SHAPES) permissionsByShape.clear();
  permissionsByShape.set(shape, permissions);
  return permissions;
}

function parsePageNumbers(json: string): number[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((value): value is number => Number.isInteger(value)) : [];
}

// One entry per page, in page order: the image's key, or null for a page that could not be rendered (or,
// in a re-render, has none yet).
function pageImageKeys(
  keys: ReadonlyMap<number, string>,
  unavailablePages: readonly number[],
): (string | null)[] {
  const unavailable = new Set(unavailablePages);
  const lastPage = Math.max(0, ...keys.keys(), ...unavailable);
  const result: (string | null)[] = [];
  for (let page = 1; page <= lastPage; page += 1) {
    result.push(unavailable.has(page) ? null : (keys.get(page) ?? null));
  }
  return result;
}

function unavailablePageUrl(deps: AppDeps): string {
  const origin = deps.config.publicOrigin;
  return origin === null ? UNAVAILABLE_PAGE_IMAGE_PATH : `${origin}${UNAVAILABLE_PAGE_IMAGE_PATH}`;
}

async function toResource(
  deps: AppDeps,
  row: DocumentRow,
  viewer: AuthUser,
  related: Related,
): Promise<DocumentResource> {
  const { store } = deps;
  const now = deps.clock();
  const flow = related.flows.get(row.id) ?? null;
  const participants = related.participants.get(row.id) ?? [];
  const owner = related.owners.get(row.owner_id);
  const permissions = permissionsOf({
    document: { ownerId: row.owner_id, state: row.state },
    signFlow: flow === null ? null : { type: flow.type, state: flow.state },
    participants: participants.map((participant) => ({
      role: participant.role,
      state: participant.state,
      userId: participant.user_id,
      email: participant.email,
    })),
    viewer,
    archivedByViewer: related.archived.has(row.id),
  });
  const signatories = participants.filter((participant) => participant.role === 'signatory');
  const reviewers = participants.filter((participant) => participant.role === 'reviewer');
  const isReady = row.images_state === 'ready';
  const unavailablePages = isReady ? parsePageNumbers(row.unavailable_pages) : [];
  const imageKeys = pageImageKeys(related.pages.get(row.id) ?? new Map(), unavailablePages);
  const isSigned = row.state === 'signed';

  const [pdfUrl, publicImagesFileUrls, pdfDownloadUrl] = await Promise.all([
    reusableSignedGetUrl(store, now, row.signed_file_key ?? row.file_key, {
      expiresInSeconds: FILE_URL_TTL_SECONDS,
      contentType: 'application/pdf',
    }),
    Promise.all(
      imageKeys.map((key) =>
        key === null
          ? unavailablePageUrl(deps)
          : reusableSignedGetUrl(store, now, key, {
              expiresInSeconds: FILE_URL_TTL_SECONDS,
              contentType: 'image/png',
            }),
      ),
    ),
    isSigned
      ? reusableSignedGetUrl(store, now, row.signed_file_key ?? row.file_key, {
          expiresInSeconds: FILE_URL_TTL_SECONDS,
          contentType: 'application/pdf',
          downloadFilename: row.original_filename,
        })
      : Promise.resolve(null),
  ]);

  return {
    id: row.id,
    type: 'documents',
    attributes: {
      originalFilename: row.original_filename,
      state: row.state,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      fileSize: row.file_size,
      humanFilesize: humanFilesize(row.file_size),
      pageCount: row.page_count,
      creatorFullName: owner?.full_name ?? '',
      creatorEmailAddress: owner?.email ?? '',
      isSignFlow: flow !== null,
      processing: row.images_state === 'pending',
      autodeletionAt: row.autodeletion_at,
      autodeletionToogle: true,
      showAutodeleteDate: true,
      signedCount: signatories.filter((participant) => participant.state === 'signed').length,
      signatoryCount: signatories.length,
      reviewerCount: reviewers.length,
      approvedCount: reviewers.filter((participant) => participant.state === 'approved').length,
      publicImagesFileUrls,
      unavailablePages,
      pdfUrl,
      pdfDownloadUrl,
      smartCardType: isSigned
        ? (SMART_CARD_TYPES.find((type) => type === related.cardTypes.get(row.id)) ?? null)
        : null,
      ...permissions,
    },
  };
}

export async function serializeDocuments(
  deps: AppDeps,
  rows: readonly SerializableRow[],
  viewer: AuthUser,
  known: KnownState = {},
): Promise<DocumentResource[]> {
  const related = await loadRelated(deps, rows, viewer, known);
  return Promise.all(rows.map((row) => toResource(deps, row, viewer, related)));
}

export async function serializeDocument(
  deps: AppDeps,
  row: DocumentRow,
  viewer: AuthUser,
): Promise<DocumentResource> {
  const [resource] = await serializeDocuments(deps, [row], viewer);
  if (resource === undefined) throw new Error('serializeDocuments returned nothing for one row');
  return resource;
}

// The document if the viewer owns it or takes part in its sign flow; anyone else gets the same 404 as for
// an id that does not exist, so ids cannot be probed.
export async function loadVisibleDocument(deps: AppDeps, id: string, viewer: AuthUser): Promise<DocumentRow> {
  const row = await deps.db
    .selectFrom('documents')
    .selectAll('documents')
    .where('documents.id', '=', id)
    .where((eb) => visibleToViewer(eb, viewer))
    .executeTakeFirst();
  if (row === undefined) throw notFound('Document not found.');
  return row;
}
