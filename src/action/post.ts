// Entry of the action's post step (action.yml `post: dist/post.js`, `post-if: always()`).
import { post } from './post-run.js'

const code = await post()
process.exitCode = code
process.stdout.write('', () => process.exit(code))
