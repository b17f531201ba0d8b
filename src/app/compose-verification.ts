// The verification page's part of the composition root (see compose.ts), loaded with the page: the
// machine and its call are not on the first screen's path.
import { verificationMachine } from '../../machines/verification.machine';
import { verifyPdf } from '../services/verification';

export const verificationLogic = verificationMachine.provide({ actors: { verifyPdf } });
