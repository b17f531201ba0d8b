// The audit trail button's part of the composition root (see compose.ts), loaded with the details panel.
import { auditTrailDownloadMachine } from '../../machines/audit-trail-download.machine';
import { fetchAuditTrail, saveFile } from '../services/audit-trail';

export const auditTrailDownloadLogic = auditTrailDownloadMachine.provide({
  actors: { fetchAuditTrail },
  actions: { saveFile: (_, params) => saveFile(params.blob, params.fileName) },
});
