// The error screen's part of the composition root (see compose.ts), loaded with the screen by the error
// boundary: a crash is rare, so neither the report's machine nor its call is on the first screen's path.
import { errorReportMachine } from '../../machines/error-report.machine';
import { sendErrorReport } from '../services/error-reports';

export const errorReportLogic = errorReportMachine.provide({ actors: { sendErrorReport } });
