import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { parse } from "yaml"
import { sharedDir } from "./paths.ts"

/**
 * Checks a response against the reference OpenAPI (3.1, so JSON Schema 2020-12): the status
 * must be one the operation declares and the body must satisfy that response's schema.
 *
 * Where Tessera deliberately differs from the reference, the difference is named here, once.
 */
export const knownDifferences = {
  /** HTTP-layer codes of DECISIONS #8: not in the reference's per-status code enums. */
  httpLayerCodes: new Map<string, number>([
    ["NOT_FOUND", 404],
    ["METHOD_NOT_ALLOWED", 405],
    ["PAYLOAD_TOO_LARGE", 413],
    ["UNSUPPORTED_MEDIA_TYPE", 415]
  ]),
  /** Statuses any operation may answer because they come from the HTTP layer or auth. */
  anyOperationStatuses: new Set([401, 404, 405, 413, 415]),
  /** Tessera's own operations (sandbox controls), absent from the reference. */
  ownOperationPrefix: "tessera.",
  /**
   * 200 WalletOperationProcessing `{status: "PROCESSING", message}` on the signed-retry endpoints:
   * in the spec ("Still-processing handling"), but only on an unmerged branch of the reference.
   */
  processingOperations: new Set([
    "createAuthCredential",
    "revokeAuthCredential",
    "challengeAuthCredential",
    "verifyAuthCredential",
    "revokeAuthSession",
    "refreshAuthSession",
    "exportInternalAccount",
    "updateInternalAccount",
    "updateCustomerById"
  ]),
  /** Headers the spec renames: the reference's name is accepted as an alias (DECISIONS #2). */
  headerNames: { "Grid-Wallet-Signature": "Service-Wallet-Signature" }
} as const

const doc = parse(readFileSync(resolve(sharedDir, "reference/openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, any> }>>
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
addFormats.default(ajv)
ajv.addSchema({ ...doc, $id: "openapi.json" })

const operations = new Map<string, Record<string, any>>()
for (const item of Object.values(doc.paths))
  for (const op of Object.values(item)) if (op && typeof op === "object" && op.operationId) operations.set(op.operationId, op.responses ?? {})

const envelope = ajv.compile({
  type: "object",
  required: ["status", "code", "message", "details"],
  properties: { status: { type: "integer" }, code: { type: "string" }, message: { type: "string" }, details: { type: "object" } }
})

const validators = new Map<string, ReturnType<typeof ajv.compile>>()
const validatorFor = (operationId: string, status: string, ref: string) => {
  const key = `${operationId} ${status}`
  let v = validators.get(key)
  if (v === undefined) validators.set(key, (v = ajv.compile({ $ref: `openapi.json${ref}` })))
  return v
}

export interface CheckResult {
  readonly ok: boolean
  readonly problems: ReadonlyArray<string>
}

export const isReferenceOperation = (operationId: string) => operations.has(operationId)

export const checkResponse = (operationId: string | undefined, status: number, body: unknown): CheckResult => {
  const problems: Array<string> = []
  const isError = status >= 400
  // Every error, from any layer, is the spec's envelope with status equal to the HTTP status.
  if (isError) {
    if (!envelope(body)) problems.push(`error body is not the envelope: ${ajv.errorsText(envelope.errors)}`)
    else if ((body as { status: number }).status !== status) problems.push(`envelope status ${(body as any).status} ≠ HTTP ${status}`)
  }
  if (operationId === undefined || operationId.startsWith(knownDifferences.ownOperationPrefix))
    return { ok: problems.length === 0, problems }
  if (status === 200 && knownDifferences.processingOperations.has(operationId) && (body as { status?: unknown })?.status === "PROCESSING") {
    const b = body as Record<string, unknown>
    if (Object.keys(b).some((k) => k !== "status" && k !== "message") || (b["message"] !== undefined && typeof b["message"] !== "string"))
      problems.push(`${operationId} 200 PROCESSING must be {status, message?}`)
    return { ok: problems.length === 0, problems }
  }
  const responses = operations.get(operationId)
  if (responses === undefined) return { ok: false, problems: [`unknown reference operation ${operationId}`] }
  const code = isError ? (body as { code?: string }).code : undefined
  const httpLayer = code !== undefined && knownDifferences.httpLayerCodes.get(code) === status
  const declared = responses[String(status)]
  if (declared === undefined) {
    if (!(knownDifferences.anyOperationStatuses.has(status) && (httpLayer || status === 401)))
      problems.push(`${operationId} does not declare status ${status}`)
    return { ok: problems.length === 0, problems }
  }
  if (httpLayer) return { ok: problems.length === 0, problems }
  const schema = declared?.content?.["application/json"]?.schema as { $ref?: string } | undefined
  if (schema === undefined) {
    if (body !== undefined && body !== "") problems.push(`${operationId} ${status} declares no body`)
  } else if (schema.$ref !== undefined) {
    const v = validatorFor(operationId, String(status), schema.$ref)
    if (!v(body)) problems.push(`${operationId} ${status}: ${ajv.errorsText(v.errors)}`)
  }
  return { ok: problems.length === 0, problems }
}
