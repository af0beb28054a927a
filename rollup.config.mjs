import commonjs from '@rollup/plugin-commonjs'
import json from '@rollup/plugin-json'
import nodeResolve from '@rollup/plugin-node-resolve'
import typescript from '@rollup/plugin-typescript'

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
    dir: 'dist',
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: false,
    banner: (chunk) => (chunk.name === 'cli' && chunk.isEntry ? '#!/usr/bin/env node' : ''),
    // Some CommonJS dependencies call require() at run time; give ESM chunks a real one.
    intro: "import { createRequire as __proctorCreateRequire } from 'node:module'; const require = __proctorCreateRequire(import.meta.url);",
  },
  plugins: [
    typescript({ tsconfig: './tsconfig.build.json', noEmitOnError: true, outDir: 'dist', noEmit: false }),
    nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }),
    commonjs(),
    json(),
  ],
  onwarn(warning, warn) {
    // @actions/* and octokit use `this` at top level in some transpiled files; harmless.
    if (warning.code === 'THIS_IS_UNDEFINED' || warning.code === 'CIRCULAR_DEPENDENCY') return
    warn(warning)
  },
}
