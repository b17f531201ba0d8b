// The small shapes the machines exchange with their actors. Those the API sends are derived from the
// contract (openapi/schema.d.ts), so the real actors hand API bodies over as they come and a change to the
// contract shows up here as a type error rather than as a drifted copy.
import type { components } from '../openapi/schema';

type Schemas = components['schemas'];
type ContractDocumentAttributes = Schemas['DocumentAttributes'];

/** What every actor rejects with: a stable code, never text (views turn codes into messages). */
export type ApiFailure = Pick<Schemas['Error'], 'code' | 'field' | 'blockedIds'> & { status?: number };

// Hand-written rather than a schema: four fields do not justify shipping a validator on the first
// screen's path (the [1/6] bundle budget).
function readApiFailure(error: unknown): ApiFailure | null {
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return null;
  const { code, status, field, blockedIds } = error as Record<string, unknown>;
  if (typeof code !== 'string' || code.length === 0) return null;
  if (status !== undefined && !Number.isSafeInteger(status)) return null;
  if (field !== undefined && typeof field !== 'string') return null;
  const ids = Array.isArray(blockedIds)
    ? blockedIds.filter((id): id is string => typeof id === 'string')
    : undefined;
  return {
    code,
    ...(typeof status === 'number' ? { status } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(ids !== undefined ? { blockedIds: ids } : {}),
  };
}

export function toApiFailure(error: unknown): ApiFailure {
  // Anything that is not an ApiFailure (a TypeError from fetch, an abort) never reached the API.
  return readApiFailure(error) ?? { code: 'network' };
}

export function toErrorCode(error: unknown): string {
  return toApiFailure(error).code;
}

export type Profile = Pick<Schemas['Profile'], 'id'> & Schemas['Profile']['attributes'];

/** `GET /tokens` as the fetchToken actor resolves it. */
export type TokenGrant = { accessToken: string };

export const DOCUMENT_CATEGORIES = [
  'active',
  'to_do',
  'in_progress',
  'uploaded',
  'done',
  'failed',
  'archived',
] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];

export type SortColumn = components['parameters']['SortColumn'];
export type SortDirection = components['parameters']['SortDirection'];
export type ListSort = { column: SortColumn; direction: SortDirection };

// What the list and the document page show: the contract's attributes less those no view reads yet. The API
// sends '' for a creator without a name; null is accepted too, and both are shown by the e-mail address.
// `fileSize` is optional here only so that samples may leave it out; the views fall back to `humanFilesize`.
export type DocumentAttributes = Omit<
  ContractDocumentAttributes,
  'updatedAt' | 'fileSize' | 'pageCount' | 'autodeletionToogle' | 'smartCardType' | 'creatorFullName'
> & {
  creatorFullName: ContractDocumentAttributes['creatorFullName'] | null;
  fileSize?: ContractDocumentAttributes['fileSize'];
};

/** A document as the API sends it (JSON:API resource). */
export type DocumentResource = Omit<Schemas['Document'], 'attributes'> & { attributes: DocumentAttributes };

export type ListLinks = Schemas['DocumentListResponse']['links'];
export type ListMeta = Schemas['DocumentListResponse']['meta'];

/** One page of a document list, as `GET /documents/{category}` answers it. */
export type DocumentPage = { data: DocumentResource[]; links: ListLinks; meta: ListMeta };

export type FetchPageInput = {
  category: DocumentCategory;
  /** A pagination link from a previous page: it already carries search and sort. */
  url?: string | null;
  /** Without a link: the page to load (1 unless the list was opened at another page). */
  page?: number;
  search: string;
  sort: ListSort;
};

/** The presigned POST of `POST /upload_requests` (attributes plus the storage url). */
export type UploadTicket = Schemas['UploadRequest']['attributes'];

/** A file the user picked or dropped; the blob is opaque to the machines. */
export type SelectedFile = { name: string; type: string; size: number; blob: Blob };

export type SendToStorageInput = { ticket: UploadTicket; file: SelectedFile };

export type CreateDocumentInput = { originalFilename: string; fileUrl: string; filename: string };
