// The effects each registered machine's transitions must cause (one table per machine, read by the
// model-based gate: tests/machines/gate.test.ts), and the guards whose false branch cannot happen.
import type { MachineName } from '../../../machines/index';
import { AUDIT_TRAIL_DOWNLOAD_EFFECTS } from './audit-trail-download';
import { CONNECTIONS_EFFECTS } from './connections';
import { DOCUMENT_EFFECTS } from './document';
import { DOCUMENT_ACTIONS_EFFECTS } from './document-actions';
import { DOCUMENT_DETAILS_EFFECTS } from './document-details';
import { DOCUMENT_LIFECYCLE_EFFECTS } from './document-lifecycle';
import { DOCUMENT_LIST_EFFECTS } from './document-list';
import { DOWNLOAD_EFFECTS } from './download';
import { ERROR_REPORT_EFFECTS } from './error-report';
import { INVITE_ACCEPT_EFFECTS } from './invite-accept';
import { LANGUAGE_EFFECTS } from './language';
import { MODAL_EFFECTS } from './modal';
import { PARTICIPANT_SEARCH_EFFECTS } from './participant-search';
import { SESSION_EFFECTS } from './session';
import { SETTINGS_EFFECTS } from './settings';
import { SHELL_EFFECTS } from './shell';
import { SIGN_CONFIRMATION_EFFECTS } from './sign-confirmation';
import { SIGN_FLOW_FORM_EFFECTS } from './sign-flow-form';
import { SIGN_GROUPS_EFFECTS } from './sign-groups';
import { SIGNATURE_PLACEMENT_EFFECTS } from './signature-placement';
import { SIGNING_EFFECTS } from './signing';
import { UPLOAD_EFFECTS } from './upload';
import { VERIFICATION_EFFECTS } from './verification';
import { WELCOME_EFFECTS } from './welcome';
import type { EffectTable } from './table';

/** Every registered machine's table: a machine missing here does not compile. */
export const EFFECTS = {
  shell: SHELL_EFFECTS,
  session: SESSION_EFFECTS,
  modal: MODAL_EFFECTS,
  upload: UPLOAD_EFFECTS,
  'document-list': DOCUMENT_LIST_EFFECTS,
  document: DOCUMENT_EFFECTS,
  connections: CONNECTIONS_EFFECTS,
  'sign-groups': SIGN_GROUPS_EFFECTS,
  settings: SETTINGS_EFFECTS,
  language: LANGUAGE_EFFECTS,
  welcome: WELCOME_EFFECTS,
  'audit-trail-download': AUDIT_TRAIL_DOWNLOAD_EFFECTS,
  'error-report': ERROR_REPORT_EFFECTS,
  'document-details': DOCUMENT_DETAILS_EFFECTS,
  download: DOWNLOAD_EFFECTS,
  'invite-accept': INVITE_ACCEPT_EFFECTS,
  'document-actions': DOCUMENT_ACTIONS_EFFECTS,
  'sign-flow-form': SIGN_FLOW_FORM_EFFECTS,
  'participant-search': PARTICIPANT_SEARCH_EFFECTS,
  'document-lifecycle': DOCUMENT_LIFECYCLE_EFFECTS,
  'signature-placement': SIGNATURE_PLACEMENT_EFFECTS,
  signing: SIGNING_EFFECTS,
  'sign-confirmation': SIGN_CONFIRMATION_EFFECTS,
  verification: VERIFICATION_EFFECTS,
} satisfies Record<MachineName, EffectTable>;

/**
 * Guarded transitions (as their state defines them) whose guard no event can find false where they are
 * defined, each with the reason. The gate fails if one of them is found false after all.
 */
export const GUARDS_NEVER_FALSE: Partial<Record<MachineName, Readonly<Record<string, string>>>> = {
  'document-actions': {
    'dialog.confirming.valid: action.confirm #9 [isDownload] -> dialog.downloading':
      'the eight alternatives before it take every other action, so a request reaching it is a download',
    'dialog.failed: action.confirm #8 [isCancelSignFlow] -> dialog.running.cancelSignFlow':
      'only the eight calls end in failed (a download never fails), and the seven before it take the others',
  },
  'document-lifecycle': {
    'uploaded: solo.begin [isSolo] -> signing':
      'uploaded never holds a flow: starting one leaves it, and solo.abort comes back without one',
  },
  'signature-placement': {
    'ready.adding: add.confirm [hasChoice] -> ready.idle':
      'the add dialog opens (canAdd) with an unsigned signatory chosen, and signatory.chosen takes only those',
    'ready.editing: edit.confirm [hasChoice] -> ready.idle':
      "the edit dialog opens on a movable box's signatory, and signatory.chosen takes only unsigned ones",
  },
};
