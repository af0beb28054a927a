// Random hex for ids and tokens. Not `import … from 'node:crypto'`: importing node:crypto as an ES module
// builds its whole namespace, which loads all of crypto (~7 ms of CPU, before every agent's spawn); the
// CommonJS module loads its parts on first use.
const { randomBytes } = process.getBuiltinModule('node:crypto')

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex')
}
