// Certify a client: the simulator drives a consumer through the ways production misbehaves.
export * from './types';
export {
  certifyErrors,
  CertifyError,
  isCertifyError,
  EXIT_FAILED,
  EXIT_USAGE,
  type CertifyErrorCode,
} from './errors';
export { CERTIFY_TIMINGS, describeTimings } from './timings';
export { describeEvent, evidenceOf } from './evidence';
export { SUITE_DEFINITIONS } from './suites';
export { loadDefinitions } from './suites/load-definitions';
export {
  certify,
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_SUITE_TIMEOUT_MS,
  type CertifyOptions,
} from './run/runner';
export type { ClientSpec } from './run/run-suite';
export { CertificationBoard, type BoardOptions } from './run/certification-board';
export type { ProgressEvent, ClientVariables } from './run/progress';
export { parseIdList, parseSuite } from './run/selection';
export { buildReport, countsAsFailure, exitCodeOf } from './report/build-report';
export { startCertifyServer, type CertifyServer, type CertifyServerOptions } from './server/certify-server';
export { TrafficLog } from './server/traffic-log';
export { progressLine, reportTable } from './report/terminal';
export { junitXml } from './report/junit';
export { markdownReport } from './report/markdown';
export { writeReports, type ReportFiles } from './report/write-reports';
