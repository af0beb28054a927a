// The one report model. Every rendering (terminal, report.json, job summary, PR comment, check runs)
// is a view of these types; renderers never compute, sinks never format.
const REPORT_SCHEMA_VERSION = 1;

export { REPORT_SCHEMA_VERSION as R };
