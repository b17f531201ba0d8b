// The document screen's part of the composition root (see compose.ts), kept apart so that its machine
// loads with the document route, not on the list's path.
import { documentMachine } from '../../machines/document.machine';
import { fetchDocument } from '../services/documents';
import { goToDocuments } from '../services/navigation';

export const documentLogic = documentMachine.provide({
  actors: { fetchDocument },
  actions: { goToDocuments: () => goToDocuments() },
});
