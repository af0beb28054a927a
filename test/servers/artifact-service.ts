// A local GitHub Actions artifact service on 127.0.0.1 for tests, so the real `@actions/artifact` client
// (DefaultArtifactClient, unmodified, bundled in dist/) runs against it:
//   - the results service: Twirp JSON over HTTP, `POST /twirp/github.actions.results.api.v1.ArtifactService/<Method>`
//     (CreateArtifact, FinalizeArtifact, ListArtifacts, GetSignedArtifactURL, DeleteArtifact), authorized by
//     the runtime token, a JWT whose `scp` claim carries `Actions.Results:<runBackendId>:<jobBackendId>`;
//   - the blob storage the signed URLs point at, speaking enough of the Azure Blob REST API for
//     @azure/storage-blob (Put Block, Put Block List, Put Blob) and for the download (a GET of the zip).
// Requests are validated the way the real services would (unknown or mistyped fields, scope of the token,
// SAS signature and permission, block ids, sizes and digests); anything malformed is answered with the real
// status and recorded in `validationFailures`, which tests assert to be empty. Faults can be injected per
// operation. The store is shared with the local GitHub API server (test/servers/github-api.ts), which serves
// the public REST endpoints (list a run's artifacts, 302 to the zip) from the same artifacts.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { crc32, inflateRawSync } from 'node:zlib'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const SERVICE = 'github.actions.results.api.v1.ArtifactService'
const ACCOUNT = 'proctorartifacts'
const CONTAINER = 'actions-results'

export type TwirpMethod =
  'CreateArtifact' | 'FinalizeArtifact' | 'ListArtifacts' | 'GetSignedArtifactURL' | 'DeleteArtifact'
export type BlobOperation = 'PutBlock' | 'PutBlockList' | 'PutBlob' | 'GetBlob'
export type ArtifactOperation = TwirpMethod | BlobOperation

export type ArtifactFault =
  /** Answer with this status (a Twirp error, or an Azure storage error on blob operations). */
  | {
      kind: 'status'
      status: 400 | 403 | 404 | 409 | 500 | 502 | 503
      operation?: ArtifactOperation
      times?: number
    }
  /** GetBlob answers 404 BlobNotFound, as for a blob that expired or was never committed. */
  | { kind: 'missing-blob'; artifact?: string; times?: number }
  /** Drop the connection without an answer. */
  | { kind: 'reset'; operation?: ArtifactOperation; times?: number }

export interface StoredArtifact {
  id: number
  name: string
  /** The numeric run id the REST API uses (GITHUB_RUN_ID). */
  runId: number
  runBackendId: string
  jobBackendId: string
  createdAt: string
  expiresAt: string | null
  mimeType: string | null
  finalized: boolean
  /** Committed blob bytes (the zip), or null before Put Block List / Put Blob. */
  blob: Buffer | null
  /** Staged, uncommitted blocks by block id. */
  blocks: Map<string, Buffer>
  /** What FinalizeArtifact said: size and `sha256:<hex>`. */
  size: number
  digest: string | null
}

export interface ArtifactCall {
  operation: ArtifactOperation | null
  method: string
  path: string
  status: number
  /** The Twirp request body (JSON), or the blob request's byte count. */
  body: unknown
}

export interface ArtifactServiceOptions {
  faults?: ArtifactFault[]
}

export interface ArtifactStore {
  /** Finalized artifacts of a run (by the numeric run id), newest last. */
  listForRun(runId: number): StoredArtifact[]
  get(id: number): StoredArtifact | undefined
  /** A read-only signed URL of the artifact's zip (what GetSignedArtifactURL and the REST 302 hand out). */
  signedDownloadUrl(artifact: StoredArtifact): string
  /** The backend id the results service knows a run by. */
  runBackendId(runId: number): string
  /**
   * Adds a finalized artifact as another job of `runId` would have uploaded it, with `files` zipped
   * (or raw `zip` bytes as given, for malformed archives).
   */
  seed(
    runId: number,
    name: string,
    content: { files: Record<string, string | Buffer> } | { zip: Buffer },
  ): StoredArtifact
  /** The files inside an artifact's zip. */
  filesOf(artifact: StoredArtifact): Map<string, Buffer>
}

export interface ArtifactService {
  /** Base URL: ACTIONS_RESULTS_URL for the client (blob URLs live under it too). */
  url: string
  store: ArtifactStore
  calls: ArtifactCall[]
  validationFailures: Array<{ method: string; path: string; message: string }>
  /** ACTIONS_RUNTIME_TOKEN for a job of run `runId` (an HS256 JWT the service verifies). */
  runtimeToken(runId: number, job: string): string
  inject(fault: ArtifactFault): void
  count(operation?: ArtifactOperation): number
  close(): Promise<void>
}

// ---------------------------------------------------------------------------------------------------
// Request shapes: protojson as the generated client writes it (`useProtoFieldName: true`): int64 and
// Int64Value as decimal strings, Timestamp as RFC 3339, StringValue as a plain string.
type FieldType = 'string' | 'int32' | 'int64' | 'timestamp' | 'string-value' | 'int64-value'
const IDS = { workflow_run_backend_id: 'string', workflow_job_run_backend_id: 'string' } as const
const REQUESTS: Record<TwirpMethod, { fields: Record<string, FieldType>; required: string[] }> = {
  CreateArtifact: {
    fields: { ...IDS, name: 'string', expires_at: 'timestamp', version: 'int32', mime_type: 'string-value' },
    required: ['workflow_run_backend_id', 'workflow_job_run_backend_id', 'name', 'version'],
  },
  FinalizeArtifact: {
    fields: { ...IDS, name: 'string', size: 'int64', hash: 'string-value' },
    required: ['workflow_run_backend_id', 'workflow_job_run_backend_id', 'name', 'size'],
  },
  ListArtifacts: {
    fields: { ...IDS, name_filter: 'string-value', id_filter: 'int64-value' },
    required: ['workflow_run_backend_id', 'workflow_job_run_backend_id'],
  },
  GetSignedArtifactURL: {
    fields: { ...IDS, name: 'string' },
    required: ['workflow_run_backend_id', 'workflow_job_run_backend_id', 'name'],
  },
  DeleteArtifact: {
    fields: { ...IDS, name: 'string' },
    required: ['workflow_run_backend_id', 'workflow_job_run_backend_id', 'name'],
  },
}

const TWIRP_STATUS: Record<string, number> = {
  malformed: 400,
  invalid_argument: 400,
  bad_route: 404,
  not_found: 404,
  already_exists: 409,
  permission_denied: 403,
  unauthenticated: 401,
  failed_precondition: 412,
  internal: 500,
  unavailable: 503,
}
const STATUS_TWIRP: Record<number, string> = {
  400: 'invalid_argument',
  403: 'permission_denied',
  404: 'not_found',
  409: 'already_exists',
  500: 'internal',
  502: 'unavailable',
  503: 'unavailable',
}

class TwirpError extends Error {
  constructor(
    readonly code: keyof typeof TWIRP_STATUS,
    message: string,
  ) {
    super(message)
  }
}

class StorageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export async function startArtifactService(options: ArtifactServiceOptions = {}): Promise<ArtifactService> {
  const secret = randomBytes(32)
  const faults: Array<ArtifactFault & { left: number }> = (options.faults ?? []).map((f) => ({
    ...f,
    left: f.times ?? 1,
  }))
  const calls: ArtifactCall[] = []
  const validationFailures: ArtifactService['validationFailures'] = []
  const artifacts = new Map<number, StoredArtifact>()
  const runIds = new Map<number, string>()
  let nextId = 3_000
  let base = ''

  const runBackendId = (runId: number): string => {
    let id = runIds.get(runId)
    if (!id) runIds.set(runId, (id = randomUUID()))
    return id
  }
  const runIdOf = (backendId: string): number | undefined =>
    [...runIds].find(([, id]) => id === backendId)?.[0]
  const jobBackendId = (runId: number, job: string): string =>
    uuidFrom(
      createHash('sha256')
        .update(`${runBackendId(runId)}/${job}`)
        .digest(),
    )

  const sign = (path: string, permissions: string, expiry: string) =>
    createHmac('sha256', secret).update(`${path}\n${permissions}\n${expiry}`).digest('base64')
  const blobPath = (a: StoredArtifact) =>
    `/${ACCOUNT}/${CONTAINER}/${a.runBackendId}/${a.jobBackendId}/${encodeURIComponent(a.name)}.zip`
  const signedUrl = (a: StoredArtifact, permissions: 'r' | 'cw') => {
    const path = blobPath(a)
    const expiry = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z')
    const query = new URLSearchParams({ sv: '2025-05-05', sr: 'b', sp: permissions, se: expiry })
    query.set('sig', sign(path, permissions, expiry))
    return `${base}${path}?${query}`
  }

  const finalizedOf = (runId: number) =>
    [...artifacts.values()].filter((a) => a.runId === runId && a.finalized).sort((a, b) => a.id - b.id)

  const store: ArtifactStore = {
    listForRun: finalizedOf,
    get: (id) => artifacts.get(id),
    signedDownloadUrl: (a) => signedUrl(a, 'r'),
    runBackendId,
    seed(runId, name, content) {
      const zip = 'zip' in content ? content.zip : writeZip(content.files)
      const artifact: StoredArtifact = {
        id: nextId++,
        name,
        runId,
        runBackendId: runBackendId(runId),
        jobBackendId: jobBackendId(runId, `seed-${name}`),
        createdAt: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
        mimeType: 'application/zip',
        finalized: true,
        blob: zip,
        blocks: new Map(),
        size: zip.length,
        digest: `sha256:${createHash('sha256').update(zip).digest('hex')}`,
      }
      artifacts.set(artifact.id, artifact)
      return artifact
    },
    filesOf: (a) => readZip(a.blob ?? Buffer.alloc(0)),
  }

  function takeFault(
    operation: ArtifactOperation,
    artifact?: StoredArtifact,
  ): (ArtifactFault & { left: number }) | null {
    const fault = faults.find(
      (f) =>
        f.left > 0 &&
        (f.kind === 'missing-blob'
          ? operation === 'GetBlob' && (!f.artifact || f.artifact === artifact?.name)
          : !f.operation || f.operation === operation),
    )
    if (!fault) return null
    fault.left--
    return fault
  }

  // ----- the results service (Twirp) -----
  interface Scope {
    runBackendId: string
    jobBackendId: string
  }

  function authorize(req: IncomingMessage): Scope {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')
    if (!match) throw new TwirpError('unauthenticated', 'missing bearer token')
    const [header, payload, signature] = match[1]!.split('.')
    const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
    if (!header || !payload || signature !== expected)
      throw new TwirpError('unauthenticated', 'the runtime token is not one this service issued')
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      scp?: string
      exp?: number
    }
    if (typeof claims.exp === 'number' && claims.exp * 1000 < Date.now())
      throw new TwirpError('unauthenticated', 'the runtime token has expired')
    const scope = (claims.scp ?? '').split(' ').find((s) => s.startsWith('Actions.Results:'))
    const [, run, job] = scope?.split(':') ?? []
    if (!run || !job)
      throw new TwirpError('permission_denied', 'the runtime token has no Actions.Results scope')
    return { runBackendId: run, jobBackendId: job }
  }

  function checkRequest(method: TwirpMethod, body: unknown): JsonObject {
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new TwirpError('malformed', `${method}: the body must be a JSON object`)
    const spec = REQUESTS[method]
    const problems: string[] = []
    for (const [field, value] of Object.entries(body as JsonObject)) {
      const type = spec.fields[field]
      if (!type) problems.push(`unknown field "${field}"`)
      else if (!fieldOk(type, value)) problems.push(`field "${field}" is not a valid ${type}`)
    }
    for (const field of spec.required) if (!(field in body)) problems.push(`missing field "${field}"`)
    if (problems.length > 0) throw new TwirpError('malformed', `${method}: ${problems.join('; ')}`)
    return body as JsonObject
  }

  function inScope(scope: Scope, body: JsonObject, checkJob: boolean): void {
    if (
      body.workflow_run_backend_id !== scope.runBackendId ||
      (checkJob && body.workflow_job_run_backend_id !== scope.jobBackendId)
    )
      throw new TwirpError(
        'permission_denied',
        'the request names a run or job the runtime token is not scoped to',
      )
  }

  const findByName = (runBackend: string, name: string, finalized: boolean) =>
    [...artifacts.values()].find(
      (a) => a.runBackendId === runBackend && a.name === name && a.finalized === finalized,
    )

  const twirp: Record<TwirpMethod, (body: JsonObject, scope: Scope) => JsonObject> = {
    CreateArtifact(body, scope) {
      inScope(scope, body, true)
      const name = String(body.name)
      const bad = /["<>|*?:\r\n\\/]/.exec(name)
      if (!name.trim() || bad)
        throw new TwirpError(
          'invalid_argument',
          `artifact name "${name}" is not valid${bad ? `: it contains ${JSON.stringify(bad[0])}` : ''}`,
        )
      if (Number(body.version) < 4)
        throw new TwirpError('invalid_argument', `unsupported artifact version ${String(body.version)}`)
      if (findByName(scope.runBackendId, name, true))
        throw new TwirpError(
          'already_exists',
          `an artifact with this name already exists on the workflow run: ${name}`,
        )
      const runId = runIdOf(scope.runBackendId)
      if (runId === undefined) throw new TwirpError('not_found', 'unknown workflow run')
      const artifact: StoredArtifact = {
        id: nextId++,
        name,
        runId,
        runBackendId: scope.runBackendId,
        jobBackendId: scope.jobBackendId,
        createdAt: new Date().toISOString(),
        expiresAt: typeof body.expires_at === 'string' ? body.expires_at : null,
        mimeType: typeof body.mime_type === 'string' ? body.mime_type : null,
        finalized: false,
        blob: null,
        blocks: new Map(),
        size: 0,
        digest: null,
      }
      // A retried CreateArtifact replaces the unfinished upload of the same name.
      const pending = findByName(scope.runBackendId, name, false)
      if (pending) artifacts.delete(pending.id)
      artifacts.set(artifact.id, artifact)
      return { ok: true, signed_upload_url: signedUrl(artifact, 'cw') }
    },
    FinalizeArtifact(body, scope) {
      inScope(scope, body, true)
      const artifact = findByName(scope.runBackendId, String(body.name), false)
      if (!artifact)
        throw new TwirpError('not_found', `no artifact upload named ${String(body.name)} to finalize`)
      if (!artifact.blob) throw new TwirpError('failed_precondition', 'the artifact blob was never committed')
      if (Number(body.size) !== artifact.blob.length)
        throw new TwirpError(
          'invalid_argument',
          `size ${String(body.size)} does not match the uploaded ${artifact.blob.length} bytes`,
        )
      const digest = `sha256:${createHash('sha256').update(artifact.blob).digest('hex')}`
      if (body.hash !== undefined && body.hash !== digest)
        throw new TwirpError(
          'invalid_argument',
          `hash ${String(body.hash)} does not match the uploaded blob (${digest})`,
        )
      artifact.finalized = true
      artifact.size = artifact.blob.length
      artifact.digest = digest
      return { ok: true, artifact_id: String(artifact.id) }
    },
    ListArtifacts(body, scope) {
      inScope(scope, body, false)
      const runId = runIdOf(scope.runBackendId)
      const list = (runId === undefined ? [] : finalizedOf(runId)).filter(
        (a) =>
          (body.name_filter === undefined || a.name === body.name_filter) &&
          (body.id_filter === undefined || String(a.id) === body.id_filter),
      )
      return {
        artifacts: list.map((a) => ({
          workflow_run_backend_id: a.runBackendId,
          workflow_job_run_backend_id: a.jobBackendId,
          database_id: String(a.id),
          name: a.name,
          size: String(a.size),
          created_at: a.createdAt,
          ...(a.digest ? { digest: a.digest } : {}),
        })),
      }
    },
    GetSignedArtifactURL(body, scope) {
      inScope(scope, body, false)
      const artifact = findByName(String(body.workflow_run_backend_id), String(body.name), true)
      if (!artifact) throw new TwirpError('not_found', `no artifact named ${String(body.name)} in this run`)
      return { signed_url: signedUrl(artifact, 'r') }
    },
    DeleteArtifact(body, scope) {
      inScope(scope, body, false)
      const artifact = findByName(scope.runBackendId, String(body.name), true)
      if (!artifact) throw new TwirpError('not_found', `no artifact named ${String(body.name)} in this run`)
      artifacts.delete(artifact.id)
      return { ok: true, artifact_id: String(artifact.id) }
    },
  }

  async function handleTwirp(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    raw: Buffer,
  ): Promise<void> {
    const method = url.pathname.slice(`/twirp/${SERVICE}/`.length) as TwirpMethod
    const record = (status: number, body: unknown) =>
      calls.push({
        operation: method in REQUESTS ? method : null,
        method: req.method ?? '',
        path: url.pathname,
        status,
        body,
      })
    const reply = (status: number, body: JsonObject) => {
      record(status, parsed)
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    const twirpError = (error: TwirpError, recordIt: boolean) => {
      if (recordIt)
        validationFailures.push({ method: req.method ?? '', path: url.pathname, message: error.message })
      reply(TWIRP_STATUS[error.code] ?? 500, { code: error.code, msg: error.message })
    }
    let parsed: unknown = undefined
    if (!url.pathname.startsWith(`/twirp/${SERVICE}/`) || !(method in REQUESTS) || req.method !== 'POST')
      return twirpError(new TwirpError('bad_route', `no such RPC: ${req.method} ${url.pathname}`), true)
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      return twirpError(
        new TwirpError('bad_route', `unexpected Content-Type ${req.headers['content-type'] ?? '(none)'}`),
        true,
      )
    try {
      parsed = JSON.parse(raw.toString('utf8')) as unknown
    } catch {
      return twirpError(new TwirpError('malformed', 'the body is not JSON'), true)
    }
    let scope: Scope
    let body: JsonObject
    try {
      scope = authorize(req)
      body = checkRequest(method, parsed)
    } catch (error) {
      return twirpError(error as TwirpError, true)
    }
    const fault = takeFault(method)
    if (fault?.kind === 'reset') {
      record(0, parsed)
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'status') {
      const code = STATUS_TWIRP[fault.status] ?? 'internal'
      record(fault.status, parsed)
      res.writeHead(fault.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code, msg: `injected fault: ${code}` }))
      return
    }
    try {
      reply(200, twirp[method](body, scope))
    } catch (error) {
      if (!(error instanceof TwirpError)) throw error
      // Answers about state (not found, already exists) are not the client's fault; the rest are.
      twirpError(error, error.code !== 'not_found' && error.code !== 'already_exists')
    }
  }

  // ----- blob storage (Azure Blob REST, the parts @azure/storage-blob and the download use) -----
  function blobOperation(method: string, url: URL, req: IncomingMessage): BlobOperation {
    const comp = url.searchParams.get('comp')
    if (method === 'GET' && !comp) return 'GetBlob'
    if (method === 'PUT' && comp === 'block') return 'PutBlock'
    if (method === 'PUT' && comp === 'blocklist') return 'PutBlockList'
    if (method === 'PUT' && !comp && req.headers['x-ms-blob-type'] === 'BlockBlob') return 'PutBlob'
    throw new StorageError(
      400,
      'UnsupportedHttpVerb',
      `${method} ${comp ? `comp=${comp}` : ''} is not supported here`,
    )
  }

  function blobArtifact(url: URL, permission: 'r' | 'w'): StoredArtifact {
    const path = url.pathname
    const artifact = [...artifacts.values()].find((a) => blobPath(a) === path)
    const sp = url.searchParams.get('sp') ?? ''
    const se = url.searchParams.get('se') ?? ''
    if (url.searchParams.get('sig') !== sign(path, sp, se) || !se)
      throw new StorageError(
        403,
        'AuthenticationFailed',
        'Server failed to authenticate the request. Make sure the value of the signature is formed correctly.',
      )
    if (Date.parse(se) < Date.now())
      throw new StorageError(403, 'AuthenticationFailed', 'Signed expiry time has passed')
    if (!sp.includes(permission))
      throw new StorageError(
        403,
        'AuthorizationPermissionMismatch',
        'This request is not authorized to perform this operation using this permission.',
      )
    if (!artifact) throw new StorageError(404, 'BlobNotFound', 'The specified blob does not exist.')
    return artifact
  }

  async function handleBlob(req: IncomingMessage, res: ServerResponse, url: URL, raw: Buffer): Promise<void> {
    const method = req.method ?? ''
    let operation: BlobOperation | null = null
    const headers = () => ({
      'x-ms-request-id': randomUUID(),
      'x-ms-version': '2025-05-05',
      date: new Date().toUTCString(),
    })
    const fail = (error: StorageError, recordIt: boolean) => {
      if (recordIt)
        validationFailures.push({ method, path: url.pathname, message: `${error.code}: ${error.message}` })
      calls.push({ operation, method, path: url.pathname, status: error.status, body: raw.length })
      const xml = `<?xml version="1.0" encoding="utf-8"?><Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`
      res
        .writeHead(error.status, {
          ...headers(),
          'x-ms-error-code': error.code,
          'content-type': 'application/xml',
        })
        .end(xml)
    }
    let artifact: StoredArtifact
    try {
      operation = blobOperation(method, url, req)
      artifact = blobArtifact(url, operation === 'GetBlob' ? 'r' : 'w')
      if (operation !== 'GetBlob' && !req.headers['x-ms-version'])
        throw new StorageError(
          400,
          'MissingRequiredHeader',
          'An HTTP header that is mandatory for this request is not specified: x-ms-version',
        )
    } catch (error) {
      if (!(error instanceof StorageError)) throw error
      return fail(error, true)
    }
    const fault = takeFault(operation, artifact)
    if (fault?.kind === 'reset') {
      calls.push({ operation, method, path: url.pathname, status: 0, body: raw.length })
      req.socket.destroy()
      return
    }
    if (fault?.kind === 'missing-blob')
      return fail(new StorageError(404, 'BlobNotFound', 'The specified blob does not exist.'), false)
    if (fault?.kind === 'status')
      return fail(
        new StorageError(
          fault.status,
          fault.status >= 500 ? 'InternalError' : 'InvalidInput',
          'injected fault',
        ),
        false,
      )
    try {
      const status = blobOperations[operation](artifact, url, req, raw)
      calls.push({ operation, method, path: url.pathname, status: status.status, body: raw.length })
      res.writeHead(status.status, { ...headers(), ...status.headers })
      res.end(status.body ?? '')
    } catch (error) {
      if (!(error instanceof StorageError)) throw error
      fail(error, error.status !== 404)
    }
  }

  type BlobResult = { status: number; headers?: Record<string, string>; body?: Buffer }
  const committed = (a: StoredArtifact, bytes: Buffer, contentType: string | undefined): BlobResult => {
    if (a.finalized)
      throw new StorageError(
        409,
        'BlobImmutableDueToPolicy',
        'The artifact is finalized; its blob cannot change.',
      )
    a.blob = bytes
    a.blocks.clear()
    if (contentType) a.mimeType = contentType
    return {
      status: 201,
      headers: {
        etag: `"0x${createHash('md5').update(bytes).digest('hex').slice(0, 16).toUpperCase()}"`,
        'last-modified': new Date().toUTCString(),
        'x-ms-request-server-encrypted': 'true',
      },
    }
  }
  const blobOperations: Record<
    BlobOperation,
    (a: StoredArtifact, url: URL, req: IncomingMessage, raw: Buffer) => BlobResult
  > = {
    PutBlock(a, url, req, raw) {
      const id = url.searchParams.get('blockid') ?? ''
      const decoded = Buffer.from(id, 'base64')
      if (!id || decoded.toString('base64') !== id || decoded.length > 64)
        throw new StorageError(
          400,
          'InvalidQueryParameterValue',
          `blockid "${id}" must be valid Base64 of at most 64 bytes`,
        )
      const other = a.blocks.keys().next().value
      if (other !== undefined && other.length !== id.length)
        throw new StorageError(400, 'InvalidBlobOrBlock', 'all block ids of a blob must have the same length')
      if (Number(req.headers['content-length']) !== raw.length)
        throw new StorageError(400, 'InvalidHeaderValue', 'Content-Length does not match the body')
      if (raw.length > 4000 * 1024 * 1024)
        throw new StorageError(413, 'RequestBodyTooLarge', 'block too large')
      a.blocks.set(id, raw)
      return { status: 201, headers: { 'x-ms-request-server-encrypted': 'true' } }
    },
    PutBlockList(a, _url, req, raw) {
      const xml = raw.toString('utf8')
      if (!/^(<\?xml[^>]*\?>)?\s*<BlockList>[\s\S]*<\/BlockList>\s*$/.test(xml))
        throw new StorageError(400, 'InvalidXmlDocument', 'XML specified is not syntactically valid.')
      const ids = [...xml.matchAll(/<(Latest|Uncommitted|Committed)>([^<]*)<\/\1>/g)].map((m) => m[2]!)
      const parts = ids.map((id) => {
        const block = a.blocks.get(id)
        if (!block)
          throw new StorageError(
            400,
            'InvalidBlockList',
            `the block list names block ${id}, which was never staged`,
          )
        return block
      })
      return committed(a, Buffer.concat(parts), header(req, 'x-ms-blob-content-type'))
    },
    PutBlob(a, _url, req, raw) {
      return committed(a, raw, header(req, 'x-ms-blob-content-type') ?? header(req, 'content-type'))
    },
    GetBlob(a) {
      if (!a.blob) throw new StorageError(404, 'BlobNotFound', 'The specified blob does not exist.')
      return {
        status: 200,
        headers: {
          'content-type': a.mimeType ?? 'application/octet-stream',
          'content-length': String(a.blob.length),
          'x-ms-blob-type': 'BlockBlob',
        },
        body: a.blob,
      }
    },
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base)
    const raw = await readBody(req)
    if (url.pathname.startsWith('/twirp/')) return handleTwirp(req, res, url, raw)
    if (url.pathname.startsWith(`/${ACCOUNT}/${CONTAINER}/`)) return handleBlob(req, res, url, raw)
    validationFailures.push({ method: req.method ?? '', path: url.pathname, message: 'no such endpoint' })
    calls.push({
      operation: null,
      method: req.method ?? '',
      path: url.pathname,
      status: 404,
      body: raw.length,
    })
    res.writeHead(404).end()
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      validationFailures.push({
        method: req.method ?? '?',
        path: req.url ?? '?',
        message: `server error: ${String(err)}`,
      })
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: base,
    store,
    calls,
    validationFailures,
    runtimeToken(runId, job) {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
      const payload = Buffer.from(
        JSON.stringify({
          scp: `Actions.GenericRead:${runBackendId(runId)} Actions.Results:${runBackendId(runId)}:${jobBackendId(runId, job)}`,
          exp: Math.floor(Date.now() / 1000) + 3600,
        }),
      ).toString('base64url')
      const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
      return `${header}.${payload}.${signature}`
    },
    inject: (fault) => void faults.push({ ...fault, left: fault.times ?? 1 }),
    count: (operation) =>
      calls.filter((c) => c.status !== 0 && (!operation || c.operation === operation)).length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  }
}

function fieldOk(type: FieldType, value: Json): boolean {
  switch (type) {
    case 'string':
    case 'string-value':
      return typeof value === 'string'
    case 'int32':
      return typeof value === 'number' && Number.isInteger(value)
    case 'int64':
    case 'int64-value':
      return (
        (typeof value === 'string' && /^-?\d+$/.test(value)) ||
        (typeof value === 'number' && Number.isInteger(value))
      )
    case 'timestamp':
      return typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

function uuidFrom(bytes: Buffer): string {
  const hex = bytes.subarray(0, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

// ---------------------------------------------------------------------------------------------------
// Zip: just enough to seed artifacts (stored entries) and to read what the client uploaded (stored or
// deflated entries, sizes from the central directory, so data descriptors do not matter).

/** A zip archive of `files` (stored, no compression). */
export function writeZip(files: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8')
    const fileName = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed
    local.writeUInt16LE(0x0800, 6) // UTF-8 names
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(fileName.length, 26)
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    entry.writeUInt16LE(20, 4)
    entry.writeUInt16LE(20, 6)
    entry.writeUInt16LE(0x0800, 8)
    entry.writeUInt32LE(crc, 16)
    entry.writeUInt32LE(data.length, 20)
    entry.writeUInt32LE(data.length, 24)
    entry.writeUInt16LE(fileName.length, 28)
    entry.writeUInt32LE(offset, 42)
    locals.push(local, fileName, data)
    central.push(entry, fileName)
    offset += local.length + fileName.length + data.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(files).length, 8)
  end.writeUInt16LE(Object.keys(files).length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** The files of a zip archive by name (directories left out). Throws on what is not a zip. */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const endAt = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (endAt < 0) throw new Error('not a zip archive (no end of central directory)')
  const count = zip.readUInt16LE(endAt + 10)
  let at = zip.readUInt32LE(endAt + 16)
  const files = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt central directory')
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLength = zip.readUInt16LE(at + 28)
    const extraLength = zip.readUInt16LE(at + 30)
    const commentLength = zip.readUInt16LE(at + 32)
    const localAt = zip.readUInt32LE(at + 42)
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28)
    const data = zip.subarray(dataAt, dataAt + compressed)
    if (!name.endsWith('/')) files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data))
    at += 46 + nameLength + extraLength + commentLength
  }
  return files
}
