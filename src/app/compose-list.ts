// The document list's machine with its real calls (see compose.ts), loaded with the list's own code:
// a cold link to any other screen neither downloads it nor builds its state tree at start.
import { documentListMachine } from '../../machines/document-list.machine';
import { fetchPage } from '../services/documents';
import { scrollToTop } from '../services/navigation';

export const documentListLogic = documentListMachine.provide({
  actors: { fetchPage },
  actions: { scrollToTop: () => scrollToTop() },
});
