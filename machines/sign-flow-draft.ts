// What the sign flow form ([4/6]) and the signature placement editor share: the people who sign and where
// their signatures go. The form's actor owns the draft for both routes (/app/signflow/{new,edit}/{id} and
// its /signatures page), so moving between the two never loses input. Positions are fractions of the page
// (0..1) as the contract sends them (Fraction, at most 4 decimals); the box is a fixed share of the page.

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

/** A fraction as the API takes it: a string with at most 4 decimals, within 0..1. */
export function toFraction(value: number): string {
  const clamped = Math.min(1, Math.max(0, value));
  return (Math.round(clamped * 10_000) / 10_000).toFixed(4).replace(/\.?0+$/, '') || '0';
}

/** Keeps a box on the page by the spec's limits. */
export function clampPlacement(left: number, top: number): { left: number; top: number } {
  return {
    left: Math.min(PLACEMENT_LIMITS.maxLeft, Math.max(0, left)),
    top: Math.min(PLACEMENT_LIMITS.maxTop, Math.max(PLACEMENT_LIMITS.minTop, top)),
  };
}
