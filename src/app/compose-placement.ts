// The placement editor's part of the composition root (see compose.ts), loaded with the editor: its
// machine with the document read, and its canvas, whose Konva code loads only once a page is drawn.
import { lazy } from 'react';
import { signaturePlacementMachine } from '../../machines/signature-placement.machine';
import { fetchDocument } from '../services/documents';

export const signaturePlacementLogic = signaturePlacementMachine.provide({ actors: { fetchDocument } });

export const PlacementStage = lazy(() =>
  import('../canvas/placement-stage').then((module) => ({ default: module.PlacementStage })),
);
