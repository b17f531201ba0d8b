// The verification call runs for one PDF at a time; a refused selection or a reset calls nothing.
import type { EffectTable } from './table';

export const VERIFICATION_EFFECTS = {
  '(start)': [],
  'idle.*: file.selected #1 [isOnePdf] -> uploading (on idle)': ['invoke verifyPdf'],
  'idle.*: file.selected #2 [isRefused] -> idle.rejected (on idle)': [],
  'uploading: xstate.done.actor.verifyPdf -> report': [],
  'uploading: xstate.error.actor.verifyPdf -> error': [],
  'report: file.selected #1 [isOnePdf] -> uploading': ['invoke verifyPdf'],
  'report: file.selected #2 [isRefused] -> idle.rejected': [],
  'report: verification.reset -> idle': [],
  'error: file.selected #1 [isOnePdf] -> uploading': ['invoke verifyPdf'],
  'error: file.selected #2 [isRefused] -> idle.rejected': [],
  'error: verification.retry [isRetryable] -> uploading': ['invoke verifyPdf'],
  'error: verification.reset -> idle': [],
} as const satisfies EffectTable;
