// Starts the server (main.ts): `npm start`, and every test, benchmark and fleet instance that runs one as
// production does. Node 22.18 and later run its TypeScript themselves, by erasing the types (the project
// keeps to erasable syntax: tsconfig.json's erasableSyntaxOnly): on Node 24 a start to listening took
// 2.7-2.9 s of CPU so, against 3.3-4.0 through tsx's loader, which transforms every module it loads (and
// 4.3-5.2 on Node 20). Node 20 has no type stripping: tsx's loader is registered for it first.
if (!process.features.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('./main.ts');
