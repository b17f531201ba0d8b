// The version shown in the sidebar, sent with error reports and matched by the release notes: package.json's
// (a named JSON import, so only that field is bundled). tests/views/releases*.test.tsx keeps the newest
// release note and this in step.
import { version } from '../../package.json';

export const APP_VERSION = `v${version}`;
