// What the sign flow form and the signature placement editor share: the people who sign and where
// their signatures go. The form's actor owns the draft for both routes (/app/signflow/{new,edit}/{id} and
// its /signatures page), so moving between the two never loses input. Positions are fractions of the page
// (0..1); the requests carry them as the contract's Fraction strings; the box is a fixed share of the page.

/** A signatory as the form lists them, in flow order. */
export type DraftSignatory = {
  emailAddress: string;
  fullName: string | null;
  /** Signed already (an edited flow): cannot be removed, moved in the order, or have the placement changed. */
  hasSigned: boolean;
};

/** One signatory's inline signature: the box's top-left corner, as fractions of the page. */
export type Placement = {
  emailAddress: string;
  pageNumber: number;
  left: number;
  top: number;
};

/** Spec 001 §9: the signature box is 28 % of the page width wide and 15 % of the page width high. */
export const SIGNATURE_BOX = { width: 0.28, height: 0.15 } as const;
/** Spec 001 §4: left is capped at 72 % (the box stays on the page); top is at least the box height. */
export const PLACEMENT_LIMITS = { maxLeft: 0.72, minTop: 0.15, maxTop: 1 } as const;

/** Spec 001 §9: a fraction is sent as a string with exactly 4 decimals, within 0..1 ("0.1500"). */
export function toFraction(value: number): string {
  const clamped = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  // Whole ten-thousandths, written with integer arithmetic, so no binary rounding reaches the text.
  const tenThousandths = Math.round(clamped * 10_000);
  return `${Math.floor(tenThousandths / 10_000)}.${String(tenThousandths % 10_000).padStart(4, '0')}`;
}

/** Keeps a box on the page by the spec's limits. */
export function clampPlacement(left: number, top: number): { left: number; top: number } {
  return {
    left: Math.min(PLACEMENT_LIMITS.maxLeft, Math.max(0, left)),
    top: Math.min(PLACEMENT_LIMITS.maxTop, Math.max(PLACEMENT_LIMITS.minTop, top)),
  };
}
