import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import nodeResolve from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'
import { fileURLToPath } from 'node:url'

// node-pty loads a native binary by a computed name, so it cannot be inlined: it stays external
// and scripts/build.mjs vendors it (with all six platform packages) into dist/node_modules.
const external = [/^@lydell\/node-pty/]

export default {
  input: {
    index: 'src/action/main.ts',
    post: 'src/action/post.ts',
    cli: 'src/cli/main.ts',
  },
  external,
  output: {
    dir: process.env.PROCTOR_BUILD_DIR ?? 'dist',
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: false,
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
      outDir: process.env.PROCTOR_BUILD_DIR ?? 'dist',
      noEmit: false,
    }),
    nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }),
    commonjs(),
    json(),
  ],
  onwarn(warning, warn) {
    // Harmless: top-level `this` in transpiled CommonJS, cycles inside dependencies, and zod's
    // /*@__PURE__*/ comments in positions rollup drops.
    if (['THIS_IS_UNDEFINED', 'CIRCULAR_DEPENDENCY', 'INVALID_ANNOTATION'].includes(warning.code)) return
    warn(warning)
  },
}
