// Stands in for rtl-css-js/core in the production build (vite.config.ts). Griffel's run-time makeStyles
// (the app's own styles; Fluent's components ship theirs precompiled, right-to-left rules included)
// computes a right-to-left twin of every rule with it. The app's languages (en, es, fr) are all written
// left to right and nothing sets dir="rtl", so those twins were never used: this keeps every property
// as it is, and Griffel then emits no twin. A right-to-left language must drop the alias.
type Property = { key: string; value: unknown };

export function convertProperty(key: string, value: unknown): Property {
  return { key, value };
}

export function convert<T>(object: T): T {
  return object;
}
