// Entry of the action's main step (action.yml `main: dist/index.js`).
import { main } from './run.js'

const code = await main()
process.exitCode = code
// Exit once output is flushed: a stray handle must never keep the step running.
process.stdout.write('', () => process.exit(code))
