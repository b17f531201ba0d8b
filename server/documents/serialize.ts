// Turns document rows into the API's document resource for one viewer: signed storage links, permission
// flags and counts. A list's page is read with everything it shows (shown.ts), so serialising it asks the
// database nothing more; other callers read the same for their rows in one query. A page's links are
// signed, or reused, all at once.
import type { AppDeps, AuthUser } from '../context.ts';
import type { DocumentRow, ParticipantRow } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { SMART_CARD_TYPES } from '../signing/smart-card-type.ts';
import { reusableSignedGetUrls, type LinkRequest } from '../storage/link-cache.ts';
import { visibleToViewer } from './list-query.ts';
import { readShownDocuments, type ShownDocument } from './shown.ts';
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

/** The documents with what they show, in the order of `rows` (their own columns as given). */
async function readShown(
  deps: AppDeps,
  rows: readonly DocumentRow[],
  viewer: AuthUser,
): Promise<ShownDocument[]> {
  const byId = await readShownDocuments(
    deps,
    viewer,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const found = byId.get(row.id);
    return found === undefined ? [] : [{ ...found, ...row }];
  });
}

type ShownParticipant = Pick<ParticipantRow, 'role' | 'state' | 'user_id' | 'email' | 'position'>;

// The aggregates of shown.ts: JSON text from SQLite ('[]' when there is nothing), parsed already (or null)
// from PostgreSQL. Most documents have no flow, so no participants: no parse for those.
function jsonValue(value: unknown): unknown {
  if (value === '[]' || value === null) return [];
  return typeof value === 'string' ? JSON.parse(value) : value;
}

// In the flow's order, which the permissions read.
function participantsOf(row: ShownDocument): ShownParticipant[] {
  const list = jsonValue(row.participants);
  if (!Array.isArray(list)) return [];
  const participants = list.map((entry) => {
    const [role, state, userId, email, position] = entry as [
      ParticipantRow['role'],
      ParticipantRow['state'],
      string | null,
      string,
      number,
    ];
    return { role, state, user_id: userId, email, position: Number(position) };
  });
  return participants.sort((a, b) => a.position - b.position);
}

function pageKeysOf(row: ShownDocument): Map<number, string> {
  const list = jsonValue(row.pages);
  const keys = new Map<number, string>();
  if (!Array.isArray(list)) return keys;
  for (const entry of list) {
    const [page, key] = entry as [number, string];
    keys.set(Number(page), key);
  }
  return keys;
}

// What the caller already knows about the rows: a list of one category holds only archived documents
// (`archived`) or only documents the viewer has not archived.
export type KnownState = { archivedByViewer?: boolean };

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
  if (json === '[]') return [];
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
  let lastPage = 0;
  for (const page of keys.keys()) if (page > lastPage) lastPage = page;
  for (const page of unavailable) if (page > lastPage) lastPage = page;
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

// A resource without its links yet, and the links it needs: a page signs (or reuses) all of them at once.
type Prepared = {
  row: ShownDocument;
  participants: ShownParticipant[];
  permissions: DocumentPermissions;
  unavailablePages: number[];
  imageKeys: (string | null)[];
  // Where this row's links start in the page's list of links.
  firstLink: number;
};

const PDF_LINK = { expiresInSeconds: FILE_URL_TTL_SECONDS, contentType: 'application/pdf' };
const IMAGE_LINK = { expiresInSeconds: FILE_URL_TTL_SECONDS, contentType: 'image/png' };

function prepare(row: ShownDocument, viewer: AuthUser, known: KnownState, links: LinkRequest[]): Prepared {
  const participants = participantsOf(row);
  const archivedByViewer = known.archivedByViewer ?? Boolean(row.archived);
  const permissions = permissionsOf({
    document: { ownerId: row.owner_id, state: row.state },
    signFlow:
      row.flow_type === null || row.flow_state === null
        ? null
        : { type: row.flow_type, state: row.flow_state },
    participants: participants.map((participant) => ({
      role: participant.role,
      state: participant.state,
      userId: participant.user_id,
      email: participant.email,
    })),
    viewer,
    archivedByViewer,
  });
  const isReady = row.images_state === 'ready';
  const unavailablePages = isReady ? parsePageNumbers(row.unavailable_pages) : [];
  const imageKeys = pageImageKeys(isReady ? pageKeysOf(row) : new Map(), unavailablePages);
  const firstLink = links.length;
  const file = row.signed_file_key ?? row.file_key;
  links.push({ key: file, options: PDF_LINK });
  for (const key of imageKeys) if (key !== null) links.push({ key, options: IMAGE_LINK });
  if (row.state === 'signed')
    links.push({ key: file, options: { ...PDF_LINK, downloadFilename: row.original_filename } });
  return { row, participants, permissions, unavailablePages, imageKeys, firstLink };
}

function toResource(deps: AppDeps, prepared: Prepared, urls: readonly string[]): DocumentResource {
  const { row, participants, permissions, unavailablePages, imageKeys } = prepared;
  // The row's links in the order prepare() asked for them: the file, each page image, the download.
  let next = prepared.firstLink;
  const pdfUrl = urls[next++] ?? '';
  const publicImagesFileUrls: string[] = [];
  for (const key of imageKeys)
    publicImagesFileUrls.push(key === null ? unavailablePageUrl(deps) : (urls[next++] ?? ''));
  const isSigned = row.state === 'signed';
  const pdfDownloadUrl = isSigned ? (urls[next++] ?? '') : null;
  let signatoryCount = 0;
  let signedCount = 0;
  let reviewerCount = 0;
  let approvedCount = 0;
  for (const participant of participants) {
    if (participant.role === 'signatory') {
      signatoryCount += 1;
      if (participant.state === 'signed') signedCount += 1;
    } else if (participant.role === 'reviewer') {
      reviewerCount += 1;
      if (participant.state === 'approved') approvedCount += 1;
    }
  }
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
      creatorFullName: row.owner_full_name,
      creatorEmailAddress: row.owner_email,
      isSignFlow: row.flow_type !== null,
      processing: row.images_state === 'pending',
      autodeletionAt: row.autodeletion_at,
      autodeletionToogle: true,
      showAutodeleteDate: true,
      signedCount,
      signatoryCount,
      reviewerCount,
      approvedCount,
      publicImagesFileUrls,
      unavailablePages,
      pdfUrl,
      pdfDownloadUrl,
      smartCardType: isSigned ? (SMART_CARD_TYPES.find((type) => type === row.card_type) ?? null) : null,
      ...permissions,
    },
  };
}

/**
 * Resources of rows read with what they show: no query of its own. With them, when the oldest of their
 * links was signed (link-cache.ts): what keeps them keeps them no longer than their links allow.
 */
export async function serializeShownDocuments(
  deps: AppDeps,
  rows: readonly ShownDocument[],
  viewer: AuthUser,
  known: KnownState = {},
): Promise<{ resources: DocumentResource[]; signedAt: number }> {
  const links: LinkRequest[] = [];
  const prepared = rows.map((row) => prepare(row, viewer, known, links));
  const { urls, signedAt } = await reusableSignedGetUrls(deps.store, deps.clock(), links);
  return { resources: prepared.map((entry) => toResource(deps, entry, urls)), signedAt };
}

export async function serializeDocuments(
  deps: AppDeps,
  rows: readonly DocumentRow[],
  viewer: AuthUser,
  known: KnownState = {},
): Promise<DocumentResource[]> {
  const shown = await serializeShownDocuments(deps, await readShown(deps, rows, viewer), viewer, known);
  return shown.resources;
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
