// A real git smart-HTTP server on loopback for tests: an in-process http server that hands each
// request to `git http-backend` over CGI (RFC 3875), so clone/fetch/push go through the same code
// paths as against a real host, without network. Pushes are enabled; `refuse` answers 403 the way a
// host does for missing permission, `declineRefs` makes receive-pack reject matching refs the way a
// ruleset does (HTTP 200, `! [remote rejected]`), and `auth` demands HTTP Basic credentials.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface GitHttpRequest {
  method: string
  /** The path and query as requested, e.g. "/repo.git/info/refs?service=git-receive-pack". */
  url: string
  /** The repository-relative path, e.g. "/repo.git/git-receive-pack". */
  path: string
  service: 'git-upload-pack' | 'git-receive-pack' | null
  /** True for both halves of a push (ref advertisement and pack upload). */
  push: boolean
  headers: IncomingHttpHeaders
}

export interface GitHttpServerOptions {
  /** The directory holding the served repositories (each `<name>.git` or `<name>` below it). */
  projectRoot: string
  /** Answer 403: to everything, to pushes only, or to the requests the function picks. */
  refuse?: 'all' | 'push' | ((req: GitHttpRequest) => boolean)
  /** The text/plain body of a 403; git prints it as "remote: …". */
  refuseMessage?: string
  /** Require HTTP Basic credentials; the user becomes REMOTE_USER. */
  auth?: { user: string; password: string }
  /** Reject pushes to refs matching a shell glob (e.g. "refs/heads/proctor/*") from a pre-receive hook. */
  declineRefs?: { glob: string; message: string }
}

export interface GitHttpServer {
  /** Base URL, e.g. "http://127.0.0.1:40123"; repositories live at `${url}/<name>`. */
  url: string
  /** The URL of one repository, optionally with the configured credentials embedded. */
  repoUrl(name: string, options?: { credentials?: boolean }): string
  /** Creates a bare repository `<projectRoot>/<name>` (default branch main) and returns its path. */
  createRepo(name: string): string
  /** Every request answered, in order. */
  requests: { method: string; url: string; status: number; contentEncoding?: string; chunked?: boolean }[]
  /** What git http-backend wrote to stderr, one entry per request that wrote anything. */
  errors: string[]
  close(): Promise<void>
}

let cachedBackend: string | null = null
function httpBackendPath(): string {
  cachedBackend ??= join(
    execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(),
    'git-http-backend',
  )
  return cachedBackend
}

/** The environment of our git processes: the caller's, minus anything that points git elsewhere. */
export function cleanGitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('GIT_')) env[key] = value
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', ...extra }
}

export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const backend = httpBackendPath()
  const children = new Set<ChildProcess>()
  const requests: GitHttpServer['requests'] = []
  const errors: string[] = []
  const hooksDir = options.declineRefs ? writeDeclineHook(options.declineRefs) : null

  const config: [string, string][] = [['http.receivepack', 'true']]
  if (hooksDir) config.push(['core.hooksPath', hooksDir])
  const configEnv: Record<string, string> = { GIT_CONFIG_COUNT: String(config.length) }
  config.forEach(([key, value], i) => {
    configEnv[`GIT_CONFIG_KEY_${i}`] = key
    configEnv[`GIT_CONFIG_VALUE_${i}`] = value
  })

  function answer(
    res: ServerResponse,
    req: IncomingMessage,
    status: number,
    headers: Record<string, string>,
    body: string,
  ) {
    requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', status })
    res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers })
    res.end(body)
  }

  const server = createServer((req, res) => {
    const parsed = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = decodeURIComponent(parsed.pathname)
    const service =
      parsed.searchParams.get('service') ?? path.match(/\/(git-(?:upload|receive)-pack)$/)?.[1] ?? null
    const info: GitHttpRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      path,
      service: service === 'git-upload-pack' || service === 'git-receive-pack' ? service : null,
      push: service === 'git-receive-pack',
      headers: req.headers,
    }

    let user: string | null = null
    if (options.auth) {
      user = basicUser(req.headers.authorization, options.auth)
      if (user === null) {
        req.resume()
        return answer(
          res,
          req,
          401,
          { 'WWW-Authenticate': 'Basic realm="proctor test git server"' },
          'authentication required\n',
        )
      }
    }
    const refuse = options.refuse
    if (
      refuse === 'all' ||
      (refuse === 'push' && info.push) ||
      (typeof refuse === 'function' && refuse(info))
    ) {
      req.resume()
      return answer(
        res,
        req,
        403,
        {},
        `${options.refuseMessage ?? 'push refused by the test server (403)'}\n`,
      )
    }

    const child = spawn(backend, [], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: cleanGitEnv({
        ...configEnv,
        GIT_PROJECT_ROOT: options.projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: path,
        QUERY_STRING: parsed.search.slice(1),
        REQUEST_METHOD: info.method,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        // git sends large pushes gzipped; http-backend inflates them itself when told.
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(typeof req.headers['git-protocol'] === 'string'
          ? { HTTP_GIT_PROTOCOL: req.headers['git-protocol'] }
          : {}),
        ...(user ? { REMOTE_USER: user } : {}),
        REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
        SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
        GATEWAY_INTERFACE: 'CGI/1.1',
      }),
    })
    children.add(child)
    child.on('close', () => children.delete(child))
    child.stdin.on('error', () => {}) // the backend may answer (and exit) before reading the whole body
    req.pipe(child.stdin)

    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('close', () => {
      if (stderr) errors.push(`${info.method} ${info.url}: ${stderr.trim()}`)
    })
    child.on('error', (error) => {
      if (!res.headersSent) answer(res, req, 500, {}, `git http-backend failed to start: ${error.message}\n`)
    })

    const forward = (chunk: Buffer) => {
      if (res.write(chunk)) return
      child.stdout.pause()
      res.once('drain', () => child.stdout.resume())
    }
    let head = Buffer.alloc(0)
    let streaming = false
    child.stdout.on('data', (chunk: Buffer) => {
      if (streaming) return void forward(chunk)
      head = Buffer.concat([head, chunk])
      const end = headerEnd(head)
      if (!end) return
      const { status, headers } = parseCgiHeaders(head.subarray(0, end.at).toString('latin1'))
      requests.push({
        method: info.method,
        url: info.url,
        status,
        ...(req.headers['content-encoding'] ? { contentEncoding: req.headers['content-encoding'] } : {}),
        ...(req.headers['transfer-encoding'] === 'chunked' ? { chunked: true } : {}),
      })
      res.writeHead(status, headers)
      forward(head.subarray(end.at + end.length))
      streaming = true
    })
    child.stdout.on('end', () => {
      if (streaming) res.end()
      else if (!res.headersSent)
        answer(res, req, 502, {}, `git http-backend sent no headers: ${stderr.trim()}\n`)
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`

  return {
    url,
    requests,
    errors,
    repoUrl(name, { credentials = false } = {}) {
      const auth =
        credentials && options.auth
          ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.password)}@`
          : ''
      return `http://${auth}127.0.0.1:${port}/${name}`
    },
    createRepo(name) {
      const dir = join(options.projectRoot, name)
      mkdirSync(dir, { recursive: true })
      execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', dir], { env: cleanGitEnv() })
      return dir
    },
    async close() {
      for (const child of children) child.kill('SIGKILL')
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      if (hooksDir) rmSync(hooksDir, { recursive: true, force: true })
    },
  }
}

/** The user, when the Authorization header carries the expected Basic credentials. */
function basicUser(header: string | undefined, expected: { user: string; password: string }): string | null {
  const match = header?.match(/^Basic\s+(\S+)$/i)
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)]
  return user === expected.user && password === expected.password ? user : null
}

function headerEnd(buffer: Buffer): { at: number; length: number } | null {
  const crlf = buffer.indexOf('\r\n\r\n')
  const lf = buffer.indexOf('\n\n')
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 }
  if (lf >= 0) return { at: lf, length: 2 }
  return null
}

/** CGI response headers: "Status: 404 Not Found" sets the status; the rest pass through. */
function parseCgiHeaders(text: string): { status: number; headers: Record<string, string> } {
  let status = 200
  const headers: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim()
    const value = line.slice(colon + 1).trim()
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500
    else headers[name] = value
  }
  return { status, headers }
}

function writeDeclineHook(rule: { glob: string; message: string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-git-hooks-'))
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  const script = [
    '#!/bin/sh',
    'status=0',
    'while read -r old new ref; do',
    '  case "$ref" in',
    `    ${rule.glob.replace(/([^A-Za-z0-9_./*?[\]-])/g, '\\$1')}) echo ${quote(rule.message)} >&2; status=1 ;;`,
    '  esac',
    'done',
    'exit $status',
    '',
  ].join('\n')
  writeFileSync(join(dir, 'pre-receive'), script)
  chmodSync(join(dir, 'pre-receive'), 0o755)
  return dir
}
