// The database as Kysely sees it. Ids are UUID text, times ISO-8601 text and booleans 0/1 integers, so that
// SQLite and PostgreSQL share one query code path.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Flag = 0 | 1;

export type DocumentState =
  | 'uploaded'
  | 'in_review'
  | 'awaiting_signs'
  | 'signing'
  | 'signed'
  | 'refused'
  | 'rejected'
  | 'cancelled'
  | 'error';

export type ImagesState = 'pending' | 'ready' | 'failed';

export type SignFlowType = 'ordered' | 'standard';

export type SignFlowState =
  'in_review' | 'awaiting_signs' | 'signing' | 'signed' | 'refused' | 'rejected' | 'cancelled';

export type ParticipantRole = 'signatory' | 'reviewer';

// Reviewers go pending -> approved | rejected; signatories pending -> signed | refused. `waiting` is a
// participant whose turn has not come yet (an ordered flow, or signatories while the review runs).
export type ParticipantState =
  'waiting' | 'pending' | 'approved' | 'rejected' | 'signed' | 'refused' | 'cancelled';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export type UsersTable = {
  id: string;
  email: string;
  full_name: string;
  initials: string;
  password_hash: string;
  locale: string;
  country_code: string;
  location: string;
  welcome_screen_watched: Flag;
  plan: string;
  created_at: string;
  last_seen_at: string | null;
};

export type SessionsTable = {
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
};

export type AccessTokensTable = {
  token_hash: string;
  user_id: string;
  session_id: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
};

export type SignInAttemptsTable = {
  id: Generated<number>;
  email: string;
  ip: string;
  at: string;
  succeeded: Flag;
};

export type ServerSecretsTable = {
  name: string;
  value: string;
};

export type UploadRequestsTable = {
  id: string;
  user_id: string;
  key: string;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
};

export type DocumentsTable = {
  id: string;
  owner_id: string;
  original_filename: string;
  file_key: string;
  file_size: number;
  sha256: string;
  page_count: number;
  state: DocumentState;
  images_state: ImagesState;
  created_at: string;
  updated_at: string;
  autodeletion_at: string;
  signed_file_key: string | null;
  // Migration 0009: JSON array of the page numbers that could not be rendered.
  unavailable_pages: Generated<string>;
};

export type DocumentPagesTable = {
  document_id: string;
  page_number: number;
  image_key: string;
  width: number;
  height: number;
};

export type DocumentArchivesTable = {
  document_id: string;
  user_id: string;
  archived_at: string;
};

export type SignFlowsTable = {
  id: string;
  document_id: string;
  type: SignFlowType;
  comment: string;
  minimum_required_signs: number;
  sign_page_number: number;
  state: SignFlowState;
  created_at: string;
  updated_at: string;
};

export type SignFlowParticipantsTable = {
  id: string;
  sign_flow_id: string;
  role: ParticipantRole;
  position: number;
  email: string;
  user_id: string | null;
  state: ParticipantState;
  signed_at: string | null;
  refused_at: string | null;
  approved_at: string | null;
  rejected_at: string | null;
  refuse_reason: string | null;
  // Migration 0011: when the participant's turn came, and when they were last reminded of it.
  due_at: Generated<string | null>;
  reminded_at: Generated<string | null>;
};

export type ConnectionsTable = {
  id: string;
  user_a_id: string;
  user_b_id: string;
  created_at: string;
};

export type JobsTable = {
  id: string;
  kind: string;
  document_id: string;
  state: JobState;
  attempts: number;
  run_after: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  // Migration 0009: the first page not yet rendered, and the pages that failed so far (JSON array).
  next_page: Generated<number>;
  failed_pages: Generated<string>;
};

export type AuditEventsTable = {
  id: string;
  document_id: string;
  actor_id: string | null;
  action: string;
  at: string;
  ip: string | null;
  user_agent: string | null;
  sha256_before: string | null;
  sha256_after: string | null;
  details: string;
};

export type MailState = 'queued' | 'sending' | 'sent' | 'kept' | 'failed';

// Migration 0011: a message to send, kept as data (kind, params as JSON, the recipient's language) and
// rendered when it is sent. `kept`: shown at /dev/outbox only (no SMTP server configured).
export type MailQueueTable = {
  id: string;
  to_email: string;
  kind: string;
  locale: string;
  params: string;
  state: MailState;
  attempts: number;
  run_after: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
};

// Migration 0003: invites sent to people without an account, and documents a participant deleted "for
// themselves" (hidden from them only; the owner's document is untouched).
export type InvitesTable = {
  id: string;
  email: string;
  document_id: string;
  sign_flow_id: string | null;
  created_at: string;
  accepted_at: string | null;
  accepted_by: string | null;
  // Migration 0008: when an account was created through the link; it then creates no other.
  used_at: string | null;
};

export type DocumentHidesTable = { document_id: string; user_id: string; hidden_at: string };

// Migration 0004: pending connection requests (a row is deleted when answered), sign groups and
// per-user rate limits. `to_user_id` is null while an invitation waits for its address to get an account.
export type ConnectionRequestsTable = {
  id: string;
  from_user_id: string;
  to_user_id: string | null;
  invitation_email: string | null;
  pair_key: string;
  created_at: string;
};

export type SignGroupsTable = { id: string; owner_id: string; description: string; created_at: string };

export type SignGroupMembersTable = { group_id: string; user_id: string; position: number };

export type RateLimitEventsTable = { id: string; user_id: string; action: string; at: string };

// Migration 0013: calls counted per client address (an IPv6 address by its /64), for what anyone may call
// without an account. The id is a sequence, which ranks the calls.
export type AddressRateLimitEventsTable = {
  id: Generated<number>;
  address: string;
  action: string;
  at: string;
};

// Migration 0005: inline signature placements, one per signatory. The fractions are the strings
// the form sent (4 decimals; rows saved before that was required may have fewer), kept exactly.
export type SignaturePlacementsTable = {
  id: string;
  sign_flow_id: string;
  participant_id: string;
  page_number: number;
  top_fraction: string;
  left_fraction: string;
};

// Migration 0006: the smart cards a user signs with, and document versions: one request to sign,
// from `pending` (awaiting the identity app) through `signing` (confirmed; the signature is being applied)
// to an answer. `participant_id` is null for the owner's own signature of a document without a flow.
export type SmartCardsTable = {
  id: string;
  user_id: string;
  smart_card_type: string;
  description: string;
  created_at: string;
};

export type DocumentVersionState =
  'pending' | 'signing' | 'signed' | 'sign_limit_exceeded' | 'presign_error' | 'denied' | 'cancelled';

export type DocumentVersionsTable = {
  id: string;
  document_id: string;
  user_id: string;
  participant_id: string | null;
  smart_card_id: string;
  smart_card_type: string;
  location: string;
  reason: string;
  sign_page_number: number | null;
  page_number: number | null;
  top_fraction: string | null;
  left_fraction: string | null;
  state: DocumentVersionState;
  file_key: string | null;
  sha256_before: string | null;
  sha256_after: string | null;
  created_at: string;
  answered_at: string | null;
  expires_at: string;
  notified_at: string | null;
};

// Migration 0007: reports from the app's error screen. `route` is a path only.
export type ErrorReportsTable = {
  id: string;
  created_at: string;
  user_id: string | null;
  message: string;
  stack: string | null;
  route: string;
  version: string | null;
  user_agent: string | null;
  ip: string;
};

// Migration 0010: stored objects (or, with is_prefix, folders such as `documents/<id>/`) to remove, written
// in the transaction that made them garbage and removed by the cleanup job once gone from the store.
export type PendingDeletionsTable = {
  id: string;
  object_key: string;
  is_prefix: Flag;
  created_at: string;
  not_before: string;
};

// Migration 0012: the deployment's certificate authority. Certificates are base64 DER, private keys sealed
// text (server/signing/ca/keyring.ts), times ISO text, serials upper-case hex.
export type PkiRole = 'ca' | 'tsa' | 'ocsp';

export type PkiKeysTable = {
  serial_number: string;
  role: PkiRole;
  // The role while this is the key in use; null once replaced (unique: one key per role).
  current_role: PkiRole | null;
  issuer_sha256: string;
  source: 'generated' | 'data-folder';
  public_origin: string | null;
  certificate: string;
  private_key: string;
  not_before: string;
  not_after: string;
  created_at: string;
  revoked_at: string | null;
  revocation_reason: string | null;
};

export type SigningCertificatesTable = {
  serial_number: string;
  user_id: string;
  // The user id while this is the person's certificate in use; null once replaced or revoked (unique).
  current_for: string | null;
  full_name: string;
  email: string;
  issuer_sha256: string;
  public_origin: string | null;
  certificate: string;
  private_key: string;
  not_before: string;
  not_after: string;
  created_at: string;
  revoked_at: string | null;
  revocation_reason: string | null;
};

// Migration 0014: what the document lists read, written only by the database's triggers.
export type DocumentViewersTable = {
  user_id: string;
  document_id: string;
  created_at: string;
  autodeletion_at: string;
  state: DocumentState;
  archived: Flag;
  must_act: Flag;
};

export type DocumentListCountsTable = {
  // A person's id, or '*' for the row that moves when any name or address changes.
  user_id: string;
  archived: Flag;
  state: DocumentState | '';
  must_act: Flag;
  documents: number;
  changes: number;
};

// Migration 0015: how many of a person's documents fall on each day of a sort column, by the same split
// as document_list_counts.
export type DocumentListDaysTable = {
  user_id: string;
  sorted_by: 'created_at' | 'autodeletion_at';
  archived: Flag;
  // The first ten characters of the sort value: 'YYYY-MM-DD'.
  day: string;
  state: DocumentState;
  must_act: Flag;
  documents: number;
};

// Migration 0016: moves with anything a list shows of the document.
export type DocumentListVersionsTable = { document_id: string; version: number };

export type DocumentSearchTable = { document_id: string; folded: string };
export type UserSearchTable = { user_id: string; folded: string };

export type Database = {
  users: UsersTable;
  sessions: SessionsTable;
  access_tokens: AccessTokensTable;
  sign_in_attempts: SignInAttemptsTable;
  server_secrets: ServerSecretsTable;
  upload_requests: UploadRequestsTable;
  documents: DocumentsTable;
  document_pages: DocumentPagesTable;
  document_archives: DocumentArchivesTable;
  sign_flows: SignFlowsTable;
  sign_flow_participants: SignFlowParticipantsTable;
  connections: ConnectionsTable;
  jobs: JobsTable;
  audit_events: AuditEventsTable;
  mail_queue: MailQueueTable;
  invites: InvitesTable;
  document_hides: DocumentHidesTable;
  connection_requests: ConnectionRequestsTable;
  sign_groups: SignGroupsTable;
  sign_group_members: SignGroupMembersTable;
  rate_limit_events: RateLimitEventsTable;
  address_rate_limit_events: AddressRateLimitEventsTable;
  signature_placements: SignaturePlacementsTable;
  smart_cards: SmartCardsTable;
  document_versions: DocumentVersionsTable;
  error_reports: ErrorReportsTable;
  pending_deletions: PendingDeletionsTable;
  pki_keys: PkiKeysTable;
  signing_certificates: SigningCertificatesTable;
  document_viewers: DocumentViewersTable;
  document_list_counts: DocumentListCountsTable;
  document_list_days: DocumentListDaysTable;
  document_list_versions: DocumentListVersionsTable;
  document_search: DocumentSearchTable;
  user_search: UserSearchTable;
};

export type UserRow = Selectable<UsersTable>;
export type DocumentRow = Selectable<DocumentsTable>;
export type NewDocument = Insertable<DocumentsTable>;
export type DocumentUpdate = Updateable<DocumentsTable>;
export type SignFlowRow = Selectable<SignFlowsTable>;
export type ParticipantRow = Selectable<SignFlowParticipantsTable>;
export type JobRow = Selectable<JobsTable>;
export type PlacementRow = Selectable<SignaturePlacementsTable>;
export type SmartCardRow = Selectable<SmartCardsTable>;
export type DocumentVersionRow = Selectable<DocumentVersionsTable>;
