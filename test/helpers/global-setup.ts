// Runs once before the suite: finds the machine's own Node (the CLI's floor, >= 20.19) next to the
// pinned Node 24 that npm scripts use, so end-to-end tests can run the built CLI on both.
import { execFileSync } from 'node:child_process'
import { delimiter, join } from 'node:path'
import { existsSync } from 'node:fs'

export default function setup(): void {
  const candidates = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'))
  for (const dir of candidates) {
    const node = join(dir, 'node')
    if (!existsSync(node)) continue
    try {
      const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
      process.env.PROCTOR_SYSTEM_NODE = node
      process.env.PROCTOR_SYSTEM_NODE_VERSION = version
      return
    } catch {
      continue
    }
  }
}
