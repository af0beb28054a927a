// A rollup output plugin: every static `import … from '<node builtin>'` in the bundles becomes a
// `process.getBuiltinModule()` lookup (Node ≥ 20.16, below the CLI's floor of 20.19).
//
// Why: when an ES module imports a builtin, Node builds an ES facade for it and copies every export into
// it, which runs the builtin's lazy getters. Importing `node:fs` loads fs/promises (and with it readline
// and the REPL's history) and the stream stack for ReadStream; `node:util` loads TextDecoder and the
// assertion differ, which opens process.stderr. A `proctor checkpoints create` paid ~9 ms of its ~35 ms
// over a bare `node -e 0` for facades of modules whose lazy parts it never uses, and every command paid
// its share before its first line. (Node's own issue: "ESM import of `http` is slower compared to
// CommonJS", nodejs/node#59686.) `getBuiltinModule` returns the module's exports object, as `require`
// does, so nothing lazy runs until the code uses it.
//
// A side-effect-only `import 'node:fs'` is dropped: rollup adds them for a dependency's imports, and a builtin
// has no effect on import but its loading. What is kept as an ES import: a namespace import whose name is used
// other than as `name.member` (passed along, or its `default` read), where the exports object is not a
// faithful stand-in for a namespace. Dynamic `import()` of builtins is left alone: it runs only on paths
// that need it.
//
// It also gives a chunk its `require` (some CommonJS dependencies call it at run time), and only a chunk
// that uses one: `createRequire` builds a module object and resolves paths, ~0.2 ms per chunk, which the
// CLI's entry and `checkpoints create`'s chunk paid for nothing on every run.
import { isBuiltin } from 'node:module'
import { attachScopes } from '@rollup/pluginutils'
import { walk } from 'estree-walker'
import isReference from 'is-reference'
import MagicString from 'magic-string'

const REQUIRE = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);\n"

export function builtinImports() {
  return {
    name: 'builtin-imports',
    renderChunk(code) {
      const ast = this.parse(code)
      const imports = ast.body.filter(
        (node) => node.type === 'ImportDeclaration' && isBuiltin(node.source.value),
      )
      const namespaces = imports.flatMap((node) =>
        node.specifiers.filter((s) => s.type === 'ImportNamespaceSpecifier').map((s) => s.local.name),
      )
      const { usedWhole, freeRequire } = scan(ast, new Set(namespaces))
      const out = new MagicString(code)
      if (freeRequire) out.prepend(REQUIRE)
      for (const node of imports) {
        if (node.specifiers.length === 0) {
          // Rollup repeats a dependency's imports in the chunks that import it ("hoisted" transitive
          // imports, for parallel loading); for a builtin, such an import only loads it, facade and all.
          out.remove(node.start, node.end)
          continue
        }
        const lookup = `process.getBuiltinModule(${JSON.stringify(node.source.value)})`
        const declarations = declarationsFor(node.specifiers, lookup, usedWhole)
        if (declarations !== null) out.overwrite(node.start, node.end, declarations)
      }
      // (No source map: the bundles ship without one.)
      return out.hasChanged() ? out.toString() : null
    },
  }
}

/** `const …` for the import's specifiers, or null when it must stay an ES import. */
function declarationsFor(specifiers, lookup, usedWhole) {
  const named = []
  const whole = []
  for (const specifier of specifiers) {
    const local = specifier.local.name
    if (specifier.type === 'ImportDefaultSpecifier') whole.push(local)
    else if (specifier.type === 'ImportNamespaceSpecifier') {
      if (usedWhole.has(local)) return null
      whole.push(local)
    } else {
      const imported =
        specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value
      if (imported === 'default') whole.push(local)
      else named.push(imported === local ? local : `${JSON.stringify(imported)}: ${local}`)
    }
  }
  const parts = whole.map((local) => `const ${local} = ${lookup};`)
  if (named.length > 0) parts.push(`const { ${named.join(', ')} } = ${lookup};`)
  return parts.join(' ')
}

/**
 * One walk of the chunk: which of its top-level `names` are used other than to read a member that is not
 * `default` (`name.x`, `name['x']` are fine; `f(name)`, `name.default` are not; names a nested scope
 * declares for itself, as undici does `path`, are not uses), and whether it refers to a `require` that
 * nothing in it declares.
 */
function scan(ast, names) {
  const usedWhole = new Set()
  let freeRequire = false
  let scope = attachScopes(ast, 'scope')
  walk(ast, {
    enter(node, parent, key) {
      if (node.type === 'ImportDeclaration') return this.skip()
      if (node.scope) scope = node.scope
      if (!isReference(node, parent)) return
      if (node.name === 'require' && !declared(scope, 'require')) freeRequire = true
      if (!names.has(node.name) || !topLevel(scope, node.name)) return
      const member = parent?.type === 'MemberExpression' && key === 'object'
      const property = member && (parent.computed ? parent.property.value : parent.property.name)
      if (!member || property === 'default' || typeof property !== 'string') usedWhole.add(node.name)
    },
    leave(node) {
      if (node.scope) scope = node.scope.parent
    },
  })
  return { usedWhole, freeRequire }
}

/** Whether `name` at `scope` is the chunk's top-level binding, not one a function or block declares. */
function topLevel(scope, name) {
  for (let at = scope; at.parent; at = at.parent) if (at.declarations[name]) return false
  return true
}

/** Whether `name` is declared at `scope` or any scope around it, the chunk's top level included. */
function declared(scope, name) {
  for (let at = scope; at; at = at.parent) if (at.declarations[name]) return true
  return false
}
