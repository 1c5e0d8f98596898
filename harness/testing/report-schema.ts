/**
 * The JSON report's schema (conformance/report/report.schema.json) compiled once per test
 * process: the suites that hold a run's report to it share one validator (a compile of the whole
 * schema takes a tenth of a second or more, and a worker runs several such suites).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { readKitJson } from '../../src/paths.js';

let compiled: ValidateFunction | undefined;

/** The report schema's validator (ajv, draft 2020-12, every error). */
export function reportValidator(): ValidateFunction {
  compiled ??= new Ajv2020({ allErrors: true, strict: false }).compile(
    readKitJson<object>('conformance', 'report', 'report.schema.json'),
  );
  return compiled;
}
