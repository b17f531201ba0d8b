// What the placement editor's views share: the actor's type and how a signatory is named.
import type { ActorRefFrom } from 'xstate';
import type { DraftSignatory } from '../../../../machines/sign-flow-draft';
import type { signaturePlacementMachine } from '../../../../machines/signature-placement.machine';

export type PlacementActor = ActorRefFrom<typeof signaturePlacementMachine>;

export function nameOf(signatory: DraftSignatory | undefined, emailAddress = ''): string {
  return signatory?.fullName?.trim() || signatory?.emailAddress || emailAddress;
}

/** Fractions shown as whole percents, as the UI speaks of positions (spec 001 §9). */
export function percent(fraction: number): number {
  return Math.round(fraction * 100);
}
