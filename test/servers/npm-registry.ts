// A minimal npm registry on loopback for tests: serves a packument and the tarball for each package it
// is given (packed from a directory with `npm pack`), so a real `npm install <name>@<range>` resolves,
// downloads and verifies the integrity the way it does against the public registry, without network.
// Every request is recorded; anything it does not know answers 404.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface NpmRegistry {
  /** e.g. "http://127.0.0.1:40123/" (npm's `registry` setting). */
  url: string
  /** Request paths, in order. */
  requests: string[]
  close(): Promise<void>
}

/** Serves each package directory (its package.json names it) as its only version. */
export async function startNpmRegistry(
  packageDirs: readonly string[],
  workDir: string,
): Promise<NpmRegistry> {
  const packages = new Map<string, { packument: Record<string, unknown>; tarball: Buffer; file: string }>()
  const requests: string[] = []
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!)
    requests.push(path)
    for (const [name, pkg] of packages) {
      if (path === `/${name}`) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify(pkg.packument))
        return
      }
      if (path === `/${name}/-/${pkg.file}`) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' })
        res.end(pkg.tarball)
        return
      }
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"error":"not found"}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  for (const dir of packageDirs) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
    }
    const out = execFileSync(
      'npm',
      ['pack', dir, '--pack-destination', workDir, '--ignore-scripts', '--silent'],
      {
        encoding: 'utf8',
      },
    )
    const file = out.trim().split('\n').pop()!
    const tarball = readFileSync(join(workDir, file))
    const integrity = 'sha512-' + createHash('sha512').update(tarball).digest('base64')
    const shasum = createHash('sha1').update(tarball).digest('hex')
    packages.set(manifest.name, {
      file,
      tarball,
      packument: {
        name: manifest.name,
        'dist-tags': { latest: manifest.version },
        versions: {
          [manifest.version]: {
            ...manifest,
            dist: { tarball: `${url}${manifest.name}/-/${file}`, integrity, shasum },
          },
        },
      },
    })
  }

  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
