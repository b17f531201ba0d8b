// The placement editor's part of the composition root (see compose.ts), loaded with the editor.
import { signaturePlacementMachine } from '../../machines/signature-placement.machine';
import { fetchDocument } from '../services/documents';

export const signaturePlacementLogic = signaturePlacementMachine.provide({ actors: { fetchDocument } });
