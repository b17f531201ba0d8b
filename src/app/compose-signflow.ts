// The sign flow screens' part of the composition root (see compose.ts), loaded with those screens: the
// form's API calls, its way back to the document page, and the kept draft's removal once the form is
// saved or cancelled.
import { signFlowFormMachine } from '../../machines/sign-flow-form.machine';
import { APP_BASE } from '../services/navigation';
import { clearDraft, loadSignFlowForm, saveSignFlow } from '../services/sign-flow-form';
import { navigate } from 'wouter/use-browser-location';

export function documentPath(documentId: string): string {
  return `${APP_BASE}/document/${encodeURIComponent(documentId)}`;
}

export const signFlowFormLogic = signFlowFormMachine.provide({
  actors: { loadSignFlowForm, saveSignFlow },
  actions: {
    goToDocument: ({ context }) => navigate(documentPath(context.documentId)),
    clearDraft: ({ context }) => clearDraft(context.documentId),
  },
});
