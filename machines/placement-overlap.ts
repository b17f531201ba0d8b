// When two signature boxes overlap: the rule the placement editor shows and the server enforces, so that
// both read a placement the same way. A box is 28 % of the page width wide and 15 % of the page WIDTH high
// (spec 001 §9), while `top` is a fraction of the page HEIGHT: how much of the page's height a box takes
// depends on the page's shape, so the rule needs each page's height-to-width ratio. Both sides take it
// from the rendered page image (the editor once the image has loaded, the server from document_pages);
// a page not measured yet counts as A4 portrait, as the canvas draws it until its image arrives.
import { PLACEMENT_LIMITS, SIGNATURE_BOX, type Placement } from './sign-flow-draft.ts';

/** Height over width of an A4 portrait page: the shape assumed until a page's image says otherwise. */
export const DEFAULT_PAGE_RATIO = 297 / 210;

// Coordinates carry 4 decimals: an overlap thinner than half of their last step is rounding, not an
// overlap, so boxes placed edge to edge (0.1 and 0.38) touch whatever the floating point says.
const TOLERANCE = 0.000_05;

/** Two signatories' boxes that overlap on one page, in flow order (the placements' order). */
export type PlacementOverlap = { pageNumber: number; emailAddresses: [string, string] };

export type PageRatioOf = (pageNumber: number) => number;

/** A measured ratio the rule can use: a finite, positive height over width. */
export function isUsableRatio(ratio: number): boolean {
  return Number.isFinite(ratio) && ratio > 0;
}

/** The box's height as a fraction of the page's height. */
export function boxHeightOnPage(ratio: number): number {
  return SIGNATURE_BOX.height / (isUsableRatio(ratio) ? ratio : DEFAULT_PAGE_RATIO);
}

// Where the stamp really goes: it keeps the box on the page (server/signing/stamp.ts), which moves a box
// up on a landscape page, whose box is taller than the editor's 15 % margin.
function stampedBox(placement: Placement, height: number) {
  return {
    left: Math.min(Math.max(0, placement.left), PLACEMENT_LIMITS.maxLeft),
    top: Math.min(Math.max(0, placement.top), Math.max(0, 1 - height)),
  };
}

/** Whether two boxes overlap: on one page, and crossing by more than rounding on both axes. */
export function placementsOverlap(a: Placement, b: Placement, ratio: number): boolean {
  if (a.pageNumber !== b.pageNumber) return false;
  const height = boxHeightOnPage(ratio);
  const first = stampedBox(a, height);
  const second = stampedBox(b, height);
  const across = SIGNATURE_BOX.width - Math.abs(first.left - second.left);
  const down = height - Math.abs(first.top - second.top);
  return across > TOLERANCE && down > TOLERANCE;
}

/**
 * Every overlapping pair. Two boxes that are both fixed (their signatories have signed, so both stamps
 * are already on the document) are left out: nobody can move either, and refusing them would lock the flow.
 */
export function findOverlaps(
  placements: readonly Placement[],
  ratioOf: PageRatioOf,
  isFixed: (emailAddress: string) => boolean = () => false,
): PlacementOverlap[] {
  const overlaps: PlacementOverlap[] = [];
  placements.forEach((first, index) => {
    for (const second of placements.slice(index + 1)) {
      if (isFixed(first.emailAddress) && isFixed(second.emailAddress)) continue;
      if (placementsOverlap(first, second, ratioOf(first.pageNumber))) {
        overlaps.push({
          pageNumber: first.pageNumber,
          emailAddresses: [first.emailAddress, second.emailAddress],
        });
      }
    }
  });
  return overlaps;
}

/** The addresses whose box overlaps another one. */
export function overlappingAddresses(overlaps: readonly PlacementOverlap[]): Set<string> {
  return new Set(overlaps.flatMap((overlap) => overlap.emailAddresses));
}
