// The build's rewrite of builtin imports (scripts/builtin-imports.mjs): what it turns into lookups, what it
// must leave as an ES import, and that the rewritten code still runs with the same bindings.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseAst } from 'rollup/parseAst'
import { describe, expect, it } from 'vitest'

import { builtinImports } from '../../scripts/builtin-imports.mjs'

function render(code: string): string {
  const hook = builtinImports().renderChunk as (this: unknown, code: string) => string | null
  return hook.call({ parse: (source: string) => parseAst(source) }, code) ?? code
}

describe('builtin imports in the bundles', () => {
  it('turns default, named and renamed imports into lookups, and drops side-effect-only ones', () => {
    const out = render(
      [
        "import fs from 'node:fs';",
        "import { join, sep as separator } from 'node:path';",
        "import os, { EOL } from 'os';",
        "import 'node:fs/promises';",
        "import { helper } from './chunk.js';",
        'export const all = [fs.readFileSync, join, separator, os.homedir, EOL, helper];',
      ].join('\n'),
    )
    expect(out).not.toMatch(/^import .*'(node:)?(fs|path|os|fs\/promises)'/m)
    expect(out).toContain('const fs = process.getBuiltinModule("node:fs");')
    expect(out).toContain('const { join, "sep": separator } = process.getBuiltinModule("node:path");')
    expect(out).toContain(
      'const os = process.getBuiltinModule("os"); const { EOL } = process.getBuiltinModule("os");',
    )
    expect(out).toContain("import { helper } from './chunk.js';")
  })

  it('gives the code the same values an ES import would', async () => {
    const code = render(
      [
        "import fs from 'node:fs';",
        "import { join, sep as separator } from 'node:path';",
        "import * as util from 'node:util';",
        'export default [fs.readFileSync, join, separator, util.format("%s!", "ok")];',
      ].join('\n'),
    )
    const url = `data:text/javascript,${encodeURIComponent(code)}`
    const loaded = ((await import(url)) as { default: unknown[] }).default
    const fs = await import('node:fs')
    const path = await import('node:path')
    expect(loaded).toEqual([fs.readFileSync, path.join, path.sep, 'ok!'])
  })

  it('keeps a namespace import whose name is used whole or for its default export', () => {
    for (const use of ['pass(crypto)', 'crypto.default.randomUUID()', "crypto['default']"]) {
      const code = `import * as crypto from 'crypto';\n${use};`
      expect(render(code), use).toBe(code)
    }
  })

  it('rewrites a namespace import when only a nested variable of the same name is used whole', () => {
    const out = render(
      [
        "import * as path from 'path';",
        'export function f(url) { let path = url.path; return pass(path); }',
        'export const j = path.join;',
      ].join('\n'),
    )
    expect(out).toContain('const path = process.getBuiltinModule("path");')
  })

  it('gives a chunk a require only when it calls one it does not declare itself', async () => {
    const needs = render("export const load = () => require('node:os').EOL;")
    expect(needs.startsWith("const require = process.getBuiltinModule('node:module')")).toBe(true)
    // createRequire needs a file's URL (a data: URL has none).
    const dir = mkdtempSync(join(tmpdir(), 'proctor-require-'))
    try {
      const file = join(dir, 'chunk.mjs')
      writeFileSync(file, needs)
      const { EOL } = await import('node:os')
      expect(((await import(pathToFileURL(file).href)) as { load: () => string }).load()).toBe(EOL)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    for (const code of [
      'export const text = \'require("x")\';',
      'export const own = (require) => require(1);',
      'function require(x) { return x } export const top = require(2);',
      "import fs from 'node:fs'; export const read = fs.readFileSync;",
    ])
      expect(render(code)).not.toContain('createRequire')
  })
})
