// What src/supervisor/screen.ts gets for `import xterm from '@xterm/headless'` in the bundles (see
// rollup.config.mjs): xterm's 180 KB are evaluated the first time a screen is made, not when the session's
// modules load, so a `--no-pty` agent never pays for them and a PTY agent's spawn does not wait for them.
// Only `Terminal` is used.
/* global module, require */
let xterm
module.exports = {
  get Terminal() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (xterm ??= require('@xterm/headless')).Terminal
  },
}
