// One call, sent again on request after a failure.
import type { EffectTable } from './table';

export const ERROR_REPORT_EFFECTS = {
  '(start)': [],
  'idle: report.send -> sending': ['invoke sendErrorReport'],
  'sending: xstate.done.actor.sendErrorReport -> sent': [],
  'sending: xstate.error.actor.sendErrorReport -> failed': [],
  'failed: report.send -> sending': ['invoke sendErrorReport'],
} as const satisfies EffectTable;
