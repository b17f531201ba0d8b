// Starts the server (main.ts): `npm start`, and every test, benchmark and fleet instance that runs one as
// production does. Node 22.18 and later run its TypeScript themselves, by erasing the types (the project
// keeps to erasable syntax: tsconfig.json's erasableSyntaxOnly); a start then costs some 0.4 s of CPU,
// against 4 s through tsx's loader, which transforms every module it loads. Node 20 has no type stripping:
// tsx's loader is registered for it first.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./main.ts');
