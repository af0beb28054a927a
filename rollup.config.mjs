import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import nodeResolve from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import license from 'rollup-plugin-license'
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
    manualChunks(id) {
      // (rollup would otherwise put its CommonJS helpers in the first manual chunk that uses them.)
      if (id === '\0commonjsHelpers.js') return 'commonjs-helpers'
      if (id.includes('/node_modules/zod/')) return 'zod'
      if (id.includes('/node_modules/yaml/')) return 'yaml'
      return null
    },
    banner: (chunk) => (chunk.name === 'cli' && chunk.isEntry ? '#!/usr/bin/env node' : ''),
    // Some CommonJS dependencies call require() at run time; give ESM chunks a real one.
    intro:
      "import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);",
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
