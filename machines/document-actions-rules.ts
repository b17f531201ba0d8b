// Which document actions a user is offered (spec 000 §4 "Rules", §5, §6). One place for the row menu,
// the bulk bar and the document-actions machine, which refuses any request these rules do not allow.
import type { ModalName } from './modal.machine';
import type { DocumentAttributes, DocumentResource } from './types';

export const DOCUMENT_ACTIONS = [
  'archive',
  'delete',
  'refuse',
  'approve',
  'reject',
  'cancelSignFlow',
  'download',
] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

/** The actions that may take several documents at once. */
export const BULK_ACTIONS = ['archive', 'delete', 'download'] as const satisfies readonly DocumentAction[];
export type BulkAction = (typeof BULK_ACTIONS)[number];

type Flags = Pick<
  DocumentAttributes,
  | 'state'
  | 'currentUserArchived'
  | 'currentUserCanArchive'
  | 'currentUserCanDelete'
  | 'currentUserCanRefuse'
  | 'currentUserCanReview'
  | 'currentUserCanCancel'
>;

export function isSigned(document: DocumentResource): boolean {
  return document.attributes.state === 'signed';
}

/** A running flow that a delete cancels first (the server does both in one call). */
export function hasFlowInProgress(document: DocumentResource): boolean {
  const { state } = document.attributes;
  return state === 'awaiting_signs' || state === 'in_review';
}

const ROW_RULES: Record<DocumentAction, (flags: Flags) => boolean> = {
  archive: (flags) => flags.currentUserCanArchive,
  delete: (flags) => flags.currentUserCanDelete,
  refuse: (flags) => flags.currentUserCanRefuse,
  approve: (flags) => flags.currentUserCanReview,
  reject: (flags) => flags.currentUserCanReview,
  cancelSignFlow: (flags) => flags.currentUserCanCancel,
  download: (flags) => flags.state === 'signed',
};

/** A row's menu: nothing once the user archived the document (spec 000 §5), else what its flags allow. */
export function rowActionsOf(attributes: Flags): DocumentAction[] {
  if (attributes.currentUserArchived) return [];
  return DOCUMENT_ACTIONS.filter((action) => ROW_RULES[action](attributes));
}

// Spec 000 §6: review, refuse and the sign flow's permissions are hidden once the person archived the
// document; what stays is theirs to do with it still: delete it, download it when signed.
const HIDDEN_WHEN_ARCHIVED: readonly DocumentAction[] = ['refuse', 'approve', 'reject', 'cancelSignFlow'];

/** The document page's and the details panel's actions: the flags', less those hidden once archived. */
export function documentActionsOf(attributes: Flags): DocumentAction[] {
  return DOCUMENT_ACTIONS.filter(
    (action) =>
      ROW_RULES[action](attributes) &&
      !(attributes.currentUserArchived && HIDDEN_WHEN_ARCHIVED.includes(action)),
  );
}

/** What a person may go and do with a document on another screen: sign it, start or edit its sign flow. */
export type FlowLink = 'sign' | 'startSignFlow' | 'editSignFlow';

type FlowFlags = Pick<
  DocumentAttributes,
  'currentUserArchived' | 'currentUserCanSign' | 'currentUserCanCreateSignFlow' | 'currentUserCanEditSignFlow'
>;

/**
 * Sign, start a sign flow, edit it: as the flags allow, and none once the person archived the document
 * (spec 000 §6: sign, review, refuse and the three sign flow permissions are hidden then).
 */
export function flowLinksOf(attributes: FlowFlags): FlowLink[] {
  if (attributes.currentUserArchived) return [];
  return [
    ...(attributes.currentUserCanSign ? (['sign'] as const) : []),
    ...(attributes.currentUserCanCreateSignFlow ? (['startSignFlow'] as const) : []),
    ...(attributes.currentUserCanEditSignFlow ? (['editSignFlow'] as const) : []),
  ];
}

/** Archive and delete when every selected document allows them; download when one is signed. */
export function bulkActionsOf(documents: readonly DocumentResource[]): BulkAction[] {
  if (documents.length === 0) return [];
  return BULK_ACTIONS.filter((action) =>
    action === 'download'
      ? documents.some(isSigned)
      : documents.every((document) => ROW_RULES[action](document.attributes)),
  );
}

/** Whether a request for `action` on these documents is one the user could have been offered. */
export function isActionAllowed(action: DocumentAction, documents: readonly DocumentResource[]): boolean {
  const [only] = documents;
  if (documents.length === 1 && only) return documentActionsOf(only.attributes).includes(action);
  // A multi-selection may include archived documents (the archive view): the bulk rules decide.
  return (BULK_ACTIONS as readonly DocumentAction[]).includes(action)
    ? bulkActionsOf(documents).includes(action as BulkAction)
    : false;
}

/** The spec's modal of each action (§2): archive and delete have their own, multiple forms; the rest confirm. */
export function modalNameOf(action: DocumentAction, count: number): ModalName {
  if (action === 'archive') return count > 1 ? 'archiveMultiple' : 'archive';
  if (action === 'delete') return count > 1 ? 'deleteMultiple' : 'delete';
  if (action === 'refuse') return 'refuse';
  return 'confirm';
}

/** The modals whose dialog is a document action's. */
export const ACTION_MODAL_NAMES: readonly ModalName[] = [
  'confirm',
  'refuse',
  'delete',
  'deleteMultiple',
  'archive',
  'archiveMultiple',
];
