// Stands in for rtl-css-js/core in the production build (vite.config.ts). Griffel computes a
// right-to-left twin of every rule with it, where the build resolves the app's own styles
// (scripts/griffel-aot.ts). The app's languages (en, es, fr) are all written left to right and nothing
// sets dir="rtl", so those twins were never used: this keeps every property as it is, and Griffel then
// emits no twin. Fluent's components ship their styles resolved, twins included; the build drops those
// twins too (griffelAot's leftToRight). A right-to-left language must drop both.
type Property = { key: string; value: unknown };

export function convertProperty(key: string, value: unknown): Property {
  return { key, value };
}

export function convert<T>(object: T): T {
  return object;
}
