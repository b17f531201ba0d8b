// The registry of every machine (docs/machines.md), each under its file's name: machines/document-list
// .machine.ts is 'document-list'. The model-based gate (tests/machines/gate.test.ts) and the QA path
// exporter (scripts/paths.ts) read it, with the events and inputs they send each machine, which are test
// data and live in tests/machines/events.ts.
import type { AnyStateMachine } from 'xstate';
import { connectionsMachine } from './connections.machine.ts';
import { signGroupsMachine } from './sign-groups.machine.ts';
import { participantSearchMachine } from './participant-search.machine.ts';
import { signFlowFormMachine } from './sign-flow-form.machine.ts';
import { signaturePlacementMachine } from './signature-placement.machine.ts';
import { documentActionsMachine } from './document-actions.machine.ts';
import { documentListMachine } from './document-list.machine.ts';
import { documentDetailsMachine } from './document-details.machine.ts';
import { documentMachine } from './document.machine.ts';
import { downloadMachine } from './download.machine.ts';
import { inviteAcceptMachine } from './invite-accept.machine.ts';
import { documentLifecycleMachine } from './document-lifecycle.machine.ts';
import { modalMachine } from './modal.machine.ts';
import { shellMachine } from './shell.machine.ts';
import { sessionMachine } from './session.machine.ts';
import { signConfirmationMachine } from './sign-confirmation.machine.ts';
import { signingMachine } from './signing.machine.ts';
import { uploadMachine } from './upload.machine.ts';
import { languageMachine } from './language.machine.ts';
import { welcomeMachine } from './welcome.machine.ts';
import { settingsMachine } from './settings.machine.ts';
import { auditTrailDownloadMachine } from './audit-trail-download.machine.ts';
import { errorReportMachine } from './error-report.machine.ts';
import { verificationMachine } from './verification.machine.ts';

export const MACHINES = {
  shell: shellMachine,
  session: sessionMachine,
  modal: modalMachine,
  upload: uploadMachine,
  'document-list': documentListMachine,
  document: documentMachine,
  connections: connectionsMachine,
  'sign-groups': signGroupsMachine,
  settings: settingsMachine,
  language: languageMachine,
  welcome: welcomeMachine,
  'audit-trail-download': auditTrailDownloadMachine,
  'error-report': errorReportMachine,
  'document-details': documentDetailsMachine,
  download: downloadMachine,
  'invite-accept': inviteAcceptMachine,
  'document-actions': documentActionsMachine,
  'sign-flow-form': signFlowFormMachine,
  'participant-search': participantSearchMachine,
  'document-lifecycle': documentLifecycleMachine,
  'signature-placement': signaturePlacementMachine,
  signing: signingMachine,
  'sign-confirmation': signConfirmationMachine,
  verification: verificationMachine,
} satisfies Record<string, AnyStateMachine>;

export type MachineName = keyof typeof MACHINES;

export { documentListMachine, documentMachine, modalMachine, sessionMachine, uploadMachine };
export { connectionsMachine, signGroupsMachine };
export { signaturePlacementMachine };
export { signConfirmationMachine, signingMachine };
export { documentActionsMachine };
export { documentLifecycleMachine };
export { documentDetailsMachine, downloadMachine };
export { participantSearchMachine, signFlowFormMachine };
export { auditTrailDownloadMachine, settingsMachine };
export { languageMachine, welcomeMachine };
export { shellMachine };
export { errorReportMachine };
export { verificationMachine };
export type { Participant, SignFlowParticipants } from './document-details.machine';
export type {
  ConnectedProfile,
  Connection,
  ConnectionRequestItem,
  ConnectionsData,
  PersonProfile,
} from './connections.machine';
export type { SignGroup } from './sign-groups.machine';
export * from './types.ts';
