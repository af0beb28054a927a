// The `secret_content` violation of a file the content scan withheld (scanner.ts): it names the file, the
// line and the rule, never the secret, so it can be shown to the agent, the log, the report and the PR.
import type { ChangedFile } from '../../checkpoints/diff.js'
import type { Violation } from '../../report/model.js'

type Finding = Omit<Violation, 'checkpoint' | 'severity'>

export function secretFinding(file: ChangedFile, shown: string): Finding | null {
  const found = file.secret
  if (!found || file.status === 'D') return null
  const where = found.line === null ? shown : `${shown} line ${found.line}`
  return {
    file: file.path,
    constraint: 'secret_content',
    message:
      found.rule === 'forbidden-copy'
        ? `${shown} holds ${found.what}; its content is kept out of checkpoints and pushes`
        : `${where} holds a secret (${found.what}; rule ${found.rule}); its content is kept out of checkpoints and pushes`,
    suggestion:
      found.rule === 'forbidden-copy'
        ? `Delete ${shown}: the content of forbidden files must not be copied or linked elsewhere.`
        : `Remove the secret from ${shown} and read it at run time instead (an environment variable, a secret store); never write credentials into the repository.`,
  }
}
