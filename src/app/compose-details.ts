// The details panel's part of the composition root (see compose.ts), kept apart so that its machine and
// the sign-flow call load with the panel (768 px and up), not on the phone list's path.
import { documentDetailsMachine } from '../../machines/document-details.machine';
import { fetchDocument } from '../services/documents';
import { fetchSignFlow } from '../services/sign-flow';

export const documentDetailsLogic = documentDetailsMachine.provide({
  actors: { fetchDocument, fetchSignFlow },
});
