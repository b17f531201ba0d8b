// The small shapes the machines exchange with their actors. They mirror the API contract
// (docs/decisions.md, openapi/openapi.yaml) so that the real actors can hand API bodies over as they come;
// once openapi/schema.d.ts exists these can be derived from it instead.

/** What every actor rejects with: a stable code, never text (views turn codes into messages). */
export type ApiFailure = { code: string; status?: number; field?: string };

// Hand-written rather than a schema: three fields do not justify shipping a validator on the first
// screen's path (the [1/6] bundle budget).
function readApiFailure(error: unknown): ApiFailure | null {
  if (typeof error !== 'object' || error === null || Array.isArray(error)) return null;
  const { code, status, field } = error as Record<string, unknown>;
  if (typeof code !== 'string' || code.length === 0) return null;
  if (status !== undefined && !Number.isSafeInteger(status)) return null;
  if (field !== undefined && typeof field !== 'string') return null;
  return {
    code,
    ...(typeof status === 'number' ? { status } : {}),
    ...(field !== undefined ? { field } : {}),
  };
}

export function toApiFailure(error: unknown): ApiFailure {
  // Anything that is not an ApiFailure (a TypeError from fetch, an abort) never reached the API.
  return readApiFailure(error) ?? { code: 'network' };
}

export function toErrorCode(error: unknown): string {
  return toApiFailure(error).code;
}

export type Profile = {
  id: string;
  fullName: string;
  initials: string;
  emailAddress: string;
  locale: string | null;
  countryCode: string | null;
  incomingConnectionRequests: number;
  pendingSignFlows: number;
  welcomeScreenWatched: boolean;
};

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

export type SortColumn = 'created_at' | 'autodeletion_at';
export type SortDirection = 'asc' | 'desc';
export type ListSort = { column: SortColumn; direction: SortDirection };

export type DocumentAttributes = {
  originalFilename: string;
  state: string;
  createdAt: string;
  humanFilesize: string;
  creatorFullName: string | null;
  creatorEmailAddress: string;
  isOwner: boolean;
  isSignFlow: boolean;
  autodeletionAt: string | null;
  showAutodeleteDate: boolean;
  processing: boolean;
  publicImagesFileUrls: string[];
  pdfUrl: string | null;
  pdfDownloadUrl: string | null;
  currentUserCanSign: boolean;
  currentUserSigned: boolean;
  currentUserCanReview: boolean;
  currentUserCanRefuse: boolean;
  currentUserCanCreateSignFlow: boolean;
  currentUserCanEditSignFlow: boolean;
  currentUserCanCancel: boolean;
  currentUserCanArchive: boolean;
  currentUserCanDelete: boolean;
  currentUserArchived: boolean;
  signedCount: number;
  signatoryCount: number;
  reviewerCount: number;
  approvedCount: number;
};

/** A document as the API sends it (JSON:API resource). */
export type DocumentResource = { id: string; type: 'documents'; attributes: DocumentAttributes };

export type ListLinks = {
  first: string;
  prev: string | null;
  self: string;
  next: string | null;
  last: string;
};

export type ListMeta = { currentPage: number; totalPages: number; showAutodeleteDate: boolean };

/** One page of a document list, as `GET /documents/{category}` answers it. */
export type DocumentPage = { data: DocumentResource[]; links: ListLinks; meta: ListMeta };

export type FetchPageInput = {
  category: DocumentCategory;
  /** A pagination link from a previous page: it already carries search and sort. */
  url?: string | null;
  search: string;
  sort: ListSort;
};

/** The presigned POST of `POST /upload_requests` (attributes plus the storage url). */
export type UploadTicket = {
  url: string;
  key: string;
  acl: string;
  policy: string;
  successActionStatus: string;
  xAmzCredential: string;
  xAmzSignature: string;
  xAmzAlgorithm: string;
  xAmzDate: string;
  /** The largest file the store accepts, in bytes: a larger one is refused before it is sent. */
  maxFileSize: number;
};

/** A file the user picked or dropped; the blob is opaque to the machines. */
export type SelectedFile = { name: string; type: string; size: number; blob: Blob };

export type SendToStorageInput = { ticket: UploadTicket; file: SelectedFile };

export type CreateDocumentInput = { originalFilename: string; fileUrl: string; filename: string };
