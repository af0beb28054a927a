// The session stays readable: no function in src/session/ longer than MAX_LINES (issue 34). A newcomer
// reads a session room by room; a function that grows past a screenful or two is a room that wants
// splitting. Measured with the TypeScript compiler's own parser, so every kind of function counts:
// declarations, expressions, arrows, methods, constructors and accessors.
import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import ts from 'typescript'

const MAX_LINES = 150
const root = resolve(import.meta.dirname, '../..')
const sessionDir = join(root, 'src/session')

interface Found {
  where: string
  name: string
  lines: number
}

/** Every function-like node of one source file, with its length in lines (first to last line, inclusive). */
function functionLengths(fileName: string, text: string): Found[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  const found: Found[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ where: `${fileName}:${start + 1}`, name: nameOf(node), lines: end - start + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node }
  if (named.name && ts.isIdentifier(named.name)) return named.name.text
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText()
  return '(anonymous)'
}

describe('src/session/ in rooms', () => {
  it(`has no function longer than ${MAX_LINES} lines`, () => {
    const files = readdirSync(sessionDir).filter((f) => f.endsWith('.ts'))
    expect(files).toContain('session.ts')
    const all = files.flatMap((f) =>
      functionLengths(`src/session/${f}`, readFileSync(join(sessionDir, f), 'utf8')),
    )
    // The walk sees the session's functions at all (runSession is one of them).
    expect(all.map((f) => f.name)).toContain('runSession')
    const tooLong = all
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => `${f.where} ${f.name}: ${f.lines} lines (split it into functions with one job each)`)
    expect(tooLong).toEqual([])
  })

  it('counts every kind of function, nested ones too', () => {
    const long = (body: string) => `{\n${'  void 0\n'.repeat(200)}${body}}`
    const text = [
      `export async function declared() ${long('')}`,
      `const arrow = () => ${long('')}`,
      `class K { method() ${long('')} constructor() ${long('')} get g() ${long('return 1\n')} }`,
      `function outer() { const inner = function () ${long('')} }`,
    ].join('\n')
    const names = functionLengths('x.ts', text)
      .filter((f) => f.lines > MAX_LINES)
      .map((f) => f.name)
    expect(names.sort()).toEqual(['arrow', 'constructor', 'declared', 'g', 'inner', 'method', 'outer'])
  })
})
