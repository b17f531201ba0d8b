// Representative data for the registry's events (tests/machines/events.ts): what the gate, the QA path exporter
// and view tests feed the machines. Plain values shaped like the API's answers; no behaviour.
import type {
  ConnectedProfile,
  Connection,
  ConnectionRequestItem,
  PersonProfile,
} from '../../machines/connections.machine';
import type { SignFlowParticipants } from '../../machines/document-details.machine';
import type { SignGroup } from '../../machines/sign-groups.machine';
import type { ExistingFlow, SignFlowFormData } from '../../machines/sign-flow-form.machine';
import type {
  DocumentAttributes,
  DocumentPage,
  DocumentResource,
  Profile,
  SelectedFile,
  UploadTicket,
} from '../../machines/types';

export const SAMPLE_PROFILE: Profile = {
  id: 'profile-ada',
  fullName: 'Ada Lovelace',
  initials: 'AL',
  emailAddress: 'ada@paraph.test',
  locale: 'en',
  countryCode: 'GB',
  location: '',
  incomingConnectionRequests: 1,
  pendingSignFlows: 2,
  welcomeScreenWatched: true,
};

export const SAMPLE_TICKET: UploadTicket = {
  url: 'http://localhost:8080/storage/paraph',
  key: 'uploads/profile-ada/0b7c7c1e-3f7c-4a53-9d4e-1f7a4c9b2e10.pdf',
  acl: 'private',
  policy: 'eyJleHBpcmF0aW9uIjoiMjAzMC0wMS0wMVQwMDowMDowMFoifQ==',
  successActionStatus: '201',
  xAmzCredential: 'paraph/20300101/us-east-1/s3/aws4_request',
  xAmzSignature: '0'.repeat(64),
  xAmzAlgorithm: 'AWS4-HMAC-SHA256',
  xAmzDate: '20300101T000000Z',
  maxFileSize: 52_428_800,
};

/** A ticket whose limit is below any sample file's size: the file must be refused before storage. */
export const SAMPLE_TICKET_TINY_LIMIT: UploadTicket = { ...SAMPLE_TICKET, maxFileSize: 4 };

export function sampleFile(name: string, type: string, content = '%PDF-1.7\n'): SelectedFile {
  const blob = new Blob([content], { type });
  return { name, type, size: blob.size, blob };
}

export function sampleDocument(id: string, attributes: Partial<DocumentAttributes> = {}): DocumentResource {
  return {
    id,
    type: 'documents',
    attributes: {
      originalFilename: `${id}.pdf`,
      state: 'uploaded',
      createdAt: '2030-01-01T09:00:00.000Z',
      humanFilesize: '12 KB',
      creatorFullName: 'Ada Lovelace',
      creatorEmailAddress: 'ada@paraph.test',
      isOwner: true,
      isSignFlow: false,
      autodeletionAt: null,
      showAutodeleteDate: false,
      processing: false,
      publicImagesFileUrls: [`http://localhost:8080/storage/paraph/pages/${id}/1.png`],
      pdfUrl: `http://localhost:8080/storage/paraph/documents/${id}.pdf`,
      pdfDownloadUrl: null,
      currentUserCanSign: false,
      currentUserSigned: false,
      currentUserCanReview: false,
      currentUserCanRefuse: false,
      currentUserCanCreateSignFlow: true,
      currentUserCanEditSignFlow: false,
      currentUserCanCancel: false,
      currentUserCanArchive: true,
      currentUserCanDelete: true,
      currentUserArchived: false,
      signedCount: 0,
      signatoryCount: 0,
      reviewerCount: 0,
      approvedCount: 0,
      ...attributes,
    },
  };
}

const LIST_URL = '/api/documents/active?sort%5Bcolumn%5D=created_at&sort%5Bdirection%5D=desc';

export function samplePage(
  documents: DocumentResource[],
  currentPage: number,
  totalPages: number,
): DocumentPage {
  const link = (page: number) => `${LIST_URL}&page=${page}`;
  return {
    data: documents,
    links: {
      first: link(1),
      prev: currentPage > 1 ? link(Math.min(currentPage - 1, totalPages)) : null,
      self: link(currentPage),
      next: currentPage < totalPages ? link(currentPage + 1) : null,
      last: link(totalPages),
    },
    meta: { currentPage, totalPages, showAutodeleteDate: false },
  };
}

export function sampleConnection(id: string, profile: Partial<ConnectedProfile> = {}): Connection {
  return {
    id,
    profile: {
      id: `profile-${id}`,
      fullName: 'Bob Builder',
      emailAddress: 'bob@paraph.test',
      initials: 'BB',
      lastSeenAt: '2030-01-02T10:30:00.000Z',
      ...profile,
    },
  };
}

/** The participants of a running flow: one reviewer approved, one signatory signed, one still to sign. */
export const SAMPLE_SIGN_FLOW_PARTICIPANTS: SignFlowParticipants = {
  reviewers: [
    {
      id: 'r1',
      role: 'reviewer',
      fullName: 'Grace Hopper',
      emailAddress: 'grace@paraph.test',
      state: 'approved',
      signedAt: null,
      refusedAt: null,
    },
  ],
  signatories: [
    {
      id: 's1',
      role: 'signatory',
      fullName: 'Bob Builder',
      emailAddress: 'bob@paraph.test',
      state: 'signed',
      signedAt: '2030-01-02T10:30:00.000Z',
      refusedAt: null,
    },
    {
      id: 's2',
      role: 'signatory',
      fullName: null,
      emailAddress: 'carol@paraph.test',
      state: 'pending',
      signedAt: null,
      refusedAt: null,
    },
  ],
};

export function samplePerson(id: string, profile: Partial<PersonProfile> = {}): PersonProfile {
  return {
    id,
    fullName: 'Bob Builder',
    emailAddress: 'bob@paraph.test',
    initials: 'BB',
    ...profile,
  };
}

/** A pending request: inbound from Dan by default; `profile: null` with an address is an invitation. */
export function sampleRequest(
  id: string,
  request: Partial<Omit<ConnectionRequestItem, 'id'>> = {},
): ConnectionRequestItem {
  return {
    id,
    direction: 'inbound',
    profile: samplePerson(`profile-${id}`, { fullName: 'Dan Brown', emailAddress: 'dan@paraph.test' }),
    invitationEmailAddress: null,
    createdAt: '2030-01-03T09:00:00.000Z',
    ...request,
  };
}

export function sampleSignGroup(id: string, group: Partial<Omit<SignGroup, 'id'>> = {}): SignGroup {
  return {
    id,
    name: 'Board',
    createdAt: '2030-01-04T09:00:00.000Z',
    members: [samplePerson('profile-c1')],
    ...group,
  };
}

/** The sign flow form's data for a new flow on an uploaded document: Bob as a connection, the Board group. */
export function sampleSignFlowFormData(data: Partial<SignFlowFormData> = {}): SignFlowFormData {
  return {
    document: sampleDocument('d1'),
    pageCount: 3,
    flow: null,
    connections: [
      { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder' },
      { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw' },
    ],
    groups: [
      {
        id: 'g1',
        name: 'Board',
        members: [
          { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder' },
          { emailAddress: 'dan@paraph.test', fullName: 'Dan Brown' },
        ],
      },
    ],
    draft: null,
    ...data,
  };
}

/** A running standard flow in review: Grace reviews; Bob signed (with his placement), Carol has not. */
export const SAMPLE_EXISTING_FLOW: ExistingFlow = {
  isOrdered: false,
  state: 'in_review',
  comment: 'Please sign before Friday.',
  minimumRequiredSigns: 0,
  signPageNumber: 3,
  reviewers: [{ emailAddress: 'grace@paraph.test', fullName: 'Grace Hopper', hasApproved: false }],
  signatories: [
    { emailAddress: 'bob@paraph.test', fullName: 'Bob Builder', hasSigned: true },
    { emailAddress: 'carol@paraph.test', fullName: 'Carol Shaw', hasSigned: false },
  ],
  placements: [{ emailAddress: 'bob@paraph.test', pageNumber: 1, left: 0.1, top: 0.5 }],
};
