// The upload dialog's three calls, the progress from the storage upload, and after success the document
// shown at once, the list refreshed after LIST_REFRESH and the dialog closed after MODAL_CLOSE.
import type { EffectTable } from './table';

export const UPLOAD_EFFECTS = {
  '(start)': [],
  'waiting.*: file.selected #1 [isOneNonEmptyPdf] -> uploading (on waiting)': ['invoke requestUpload'],
  'waiting.*: file.selected #2 [isOnePdf] -> waiting.rejected (on waiting)': [],
  'waiting.*: file.selected #3 [hasSeveralFiles] -> waiting.rejected (on waiting)': [],
  'waiting.*: file.selected #4 [hasOneFile] -> waiting.rejected (on waiting)': [],
  'waiting.*: upload.cancel -> cancelled (on waiting)': ['closeModal'],
  'uploading.requesting: xstate.done.actor.requestUpload #1 [isWithinSizeLimit] -> uploading.sending': [
    'invoke sendToStorage',
  ],
  'uploading.requesting: xstate.done.actor.requestUpload #2 -> error': [],
  'uploading.requesting: xstate.error.actor.requestUpload -> error': [],
  'uploading.*: upload.cancel -> cancelled (on uploading)': ['closeModal'],
  'uploading.sending: upload.progress -> (stays)': [],
  'uploading.sending: upload.stored -> uploading.creating': ['invoke createDocument'],
  'uploading.sending: upload.failed -> error': [],
  'uploading.sending: xstate.error.actor.sendToStorage -> error': [],
  'uploading.creating: xstate.done.actor.createDocument -> finished': [
    'after LIST_REFRESH',
    'after MODAL_CLOSE',
    'showDocument',
  ],
  'uploading.creating: xstate.error.actor.createDocument -> error': [],
  'finished: xstate.after.LIST_REFRESH.upload.finished -> (stays)': ['refreshList'],
  'finished: xstate.after.MODAL_CLOSE.upload.finished -> closed': ['closeModal'],
  'error: upload.retry #1 [isFileRefusal] -> waiting': [],
  'error: upload.retry #2 -> uploading': ['invoke requestUpload'],
  'error: upload.cancel -> cancelled': ['closeModal'],
} as const satisfies EffectTable;
