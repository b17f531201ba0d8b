// Spec 000 §9 shell sizes.
export const HEADER_HEIGHT = 66;
export const SIDEBAR_WIDTH = 250;
