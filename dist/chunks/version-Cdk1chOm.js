// Replaced at build time would be nicer, but reading package.json at run time breaks once bundled;
// keep this in step with package.json (a test checks it).
const PROCTOR_VERSION = '0.1.0';

export { PROCTOR_VERSION };
