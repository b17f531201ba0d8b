// The audit trail is fetched and saved as a file; a failure only shows a message.
import type { EffectTable } from './table';

export const AUDIT_TRAIL_DOWNLOAD_EFFECTS = {
  '(start)': [],
  'idle: download.request -> downloading': ['invoke fetchAuditTrail'],
  'downloading: xstate.done.actor.fetchAuditTrail -> idle': ['saveFile'],
  'downloading: xstate.error.actor.fetchAuditTrail -> failed': [],
  'failed: download.request -> downloading': ['invoke fetchAuditTrail'],
  'failed: message.dismiss -> idle': [],
} as const satisfies EffectTable;
