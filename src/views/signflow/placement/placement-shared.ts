// What the placement editor's views share: the actor's type, how a signatory is named, and the overlaps.
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { PlacementOverlap } from '../../../../machines/placement-overlap';
import type { DraftSignatory } from '../../../../machines/sign-flow-draft';
import { overlapsOf, type signaturePlacementMachine } from '../../../../machines/signature-placement.machine';

export type PlacementActor = ActorRefFrom<typeof signaturePlacementMachine>;

export function selectOverlaps(snapshot: SnapshotFrom<typeof signaturePlacementMachine>): PlacementOverlap[] {
  return overlapsOf(snapshot.context);
}

/** The overlaps are worked out afresh for each snapshot: a view re-renders only when they change. */
export function sameOverlaps(a: readonly PlacementOverlap[], b: readonly PlacementOverlap[]): boolean {
  return (
    a.length === b.length &&
    a.every((overlap, index) => {
      const other = b[index];
      return (
        other !== undefined &&
        overlap.pageNumber === other.pageNumber &&
        overlap.emailAddresses[0] === other.emailAddresses[0] &&
        overlap.emailAddresses[1] === other.emailAddresses[1]
      );
    })
  );
}

export function nameOf(signatory: DraftSignatory | undefined, emailAddress = ''): string {
  return signatory?.fullName?.trim() || signatory?.emailAddress || emailAddress;
}

/** Fractions shown as whole percents, as the UI speaks of positions (spec 001 §9). */
export function percent(fraction: number): number {
  return Math.round(fraction * 100);
}
