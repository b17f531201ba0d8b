// The error screen's report (POST /error_reports). The body holds the error, the route as a path only and
// the app's version: never a query string or a token. The API client adds the bearer token as a header
// when there is one, which ties the report to the user; the server takes it without one too.
import { fromPromise } from 'xstate';
import type { CaughtError } from '../../machines/error-report.machine';
import type { components } from '../../openapi/schema';
import { api, unwrap } from '../api/client';
import { APP_VERSION } from '../app/version';

type ErrorReport = components['schemas']['ErrorReport'];

// The contract's limits: a report cut short is still worth more than one the server refuses.
const MESSAGE_MAX_LENGTH = 1000;
const STACK_MAX_LENGTH = 20_000;
const ROUTE_MAX_LENGTH = 512;

export function errorReportOf(error: CaughtError, pathname: string): ErrorReport {
  return {
    message: error.message.slice(0, MESSAGE_MAX_LENGTH),
    ...(error.stack ? { stack: error.stack.slice(0, STACK_MAX_LENGTH) } : {}),
    url: pathname.slice(0, ROUTE_MAX_LENGTH),
    version: APP_VERSION,
  };
}

export const sendErrorReport = fromPromise<void, CaughtError>(async ({ input, signal }) => {
  await unwrap(api.POST('/error_reports', { body: errorReportOf(input, window.location.pathname), signal }));
});
