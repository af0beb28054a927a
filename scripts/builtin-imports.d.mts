import type { Plugin } from 'rollup'

/** See builtin-imports.mjs: static imports of node builtins become `process.getBuiltinModule()` lookups. */
export function builtinImports(): Plugin
