import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import nodeResolve from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import license from 'rollup-plugin-license'
import { builtinImports } from './scripts/builtin-imports.mjs'
import {
  allowedLicense,
  NOTICES_FILE,
  NOTICES_HEADER,
  NOTICES_SEPARATOR,
  notice,
} from './scripts/notices.mjs'

// node-pty loads a native binary by a computed name, so it cannot be inlined: it stays external
// and scripts/build.mjs vendors it (with all six platform packages) into dist/node_modules.
const external = [/^@lydell\/node-pty/]

const outDir = process.env.PROCTOR_BUILD_DIR ?? 'dist'
const root = fileURLToPath(new URL('.', import.meta.url))
let cliChunks

/**
 * Module id → chunk name: what `checkpoints create` imports, in one chunk; each module the CLI's entry
 * imports for every command, in a chunk of its own (rollup would otherwise pull a manual chunk's
 * dependencies into it, and every command would load the store to get its exit codes).
 */
function cliChunkModules(getModuleInfo) {
  const entry = getModuleInfo(join(root, 'src/cli/main.ts'))
  const create = join(root, 'src/cli/commands/checkpoints-create.ts')
  const shared = [...entry.importedIds, ...entry.dynamicallyImportedIds].filter(
    (id) => id !== create && id.startsWith(join(root, 'src/')),
  )
  const chunks = new Map(shared.map((id) => [id, basename(id, '.ts')]))
  for (const id of staticClosure(create, getModuleInfo, new Set(shared))) chunks.set(id, 'checkpoints-create')
  return chunks
}

/** The project's own modules `entry` imports statically, directly or not (dependencies keep their chunks). */
function staticClosure(entry, getModuleInfo, exclude) {
  const found = new Set()
  const queue = [entry]
  while (queue.length > 0) {
    const id = queue.pop()
    if (found.has(id) || exclude.has(id) || !id.startsWith(join(root, 'src/'))) continue
    found.add(id)
    queue.push(...(getModuleInfo(id)?.importedIds ?? []))
  }
  return found
}

export default {
  input: {
    index: 'src/action/main.ts',
    post: 'src/action/post.ts',
    cli: 'src/cli/main.ts',
  },
  external,
  output: {
    dir: outDir,
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: false,
    // zod and yaml in chunks of their own: otherwise rollup groups them with whatever else the same
    // commands import (the detector, the policy), and `proctor run` without a proctor.yml would load them
    // before the agent starts although it parses nothing.
    manualChunks(id, { getModuleInfo }) {
      // (rollup would otherwise put its CommonJS helpers in the first manual chunk that uses them.)
      if (id === '\0commonjsHelpers.js') return 'commonjs-helpers'
      if (id.includes('/node_modules/zod/')) return 'zod'
      if (id.includes('/node_modules/yaml/')) return 'yaml'
      // `debug` (with what it requires) is shared by octokit and @secretlint/core: in a chunk of its own, so the
      // content scan's secretlint, loaded when a file looks like it holds a token, does not load the action's
      // GitHub client chunk with it.
      if (/\/node_modules\/(?:debug|ms|supports-color|has-flag)\//.test(id)) return 'debug'
      // `proctor checkpoints create` runs once per checkpoint from scripts, so its whole process is its cost
      // (issue 17), and node's ESM loader spends ~1 ms resolving and linking each file: what it imports
      // statically is one chunk instead of ten. `proctor run` loads the same modules (config, git's runner,
      // the store). What the CLI's entry imports itself for every command (exit codes, config errors) keeps
      // its own small chunk, so other commands do not load the store with it.
      cliChunks ??= cliChunkModules(getModuleInfo)
      return cliChunks.get(id) ?? null
    },
    banner: (chunk) => (chunk.name === 'cli' && chunk.isEntry ? '#!/usr/bin/env node' : ''),
    // (A chunk whose CommonJS dependencies call require() at run time gets a real one: builtinImports.)
  },
  plugins: [
    {
      // @xterm/headless names a "module" file it does not ship; resolve its CommonJS main instead.
      name: 'xterm-headless-main',
      resolveId(source) {
        return source === '@xterm/headless' ? fileURLToPath(import.meta.resolve('@xterm/headless')) : null
      },
    },
    typescript({
      tsconfig: './tsconfig.build.json',
      noEmitOnError: true,
      outDir,
      noEmit: false,
    }),
    nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }),
    commonjs(),
    json(),
    builtinImports(),
    // The licences of everything rollup bundled, written beside the bundles (node-pty, vendored rather
    // than bundled, is appended by scripts/build.mjs). The build fails on a package without a licence
    // or with one that is not permissive, so nothing lands in dist/ that we may not redistribute.
    license({
      thirdParty: {
        includePrivate: false,
        allow: {
          // A function, not an SPDX expression: some packages still declare legacy names ("MIT/X11").
          test: allowedLicense,
          failOnUnlicensed: true,
          failOnViolation: true,
        },
        output: {
          file: join(outDir, NOTICES_FILE),
          template: (dependencies) =>
            [
              NOTICES_HEADER,
              ...[...dependencies]
                .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
                .map(notice),
            ].join(NOTICES_SEPARATOR) + '\n',
        },
      },
    }),
  ],
  onwarn(warning, warn) {
    // Harmless: top-level `this` in transpiled CommonJS, cycles inside dependencies, and zod's
    // /*@__PURE__*/ comments in positions rollup drops.
    if (['THIS_IS_UNDEFINED', 'CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION'].includes(warning.code)) return
    warn(warning)
  },
}
