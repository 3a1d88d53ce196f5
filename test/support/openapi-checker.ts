import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { BASE_PATH, makeMatcher, routes } from "@tessera/adapter-http"
import { deviations, type JsonSchema, referenceFacts } from "@tessera/adapter-http/openapi"

/**
 * Checks a response against the reference OpenAPI's facts (3.1, so JSON Schema 2020-12): the
 * status must be one the operation declares and the body must satisfy that response's schema.
 * Where Tessera deliberately differs, the difference is the adapter's `deviations`, stated once.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
addFormats.default(ajv)
ajv.addSchema({ $id: "openapi.json", components: { schemas: referenceFacts.schemas } })

const operations = new Map<string, Readonly<Record<string, JsonSchema | null>>>(
  Object.entries(referenceFacts.operations).map(([id, op]) => [id, op.responses])
)

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
  if (operationId === undefined || operationId.startsWith(deviations.ownOperationPrefix))
    return { ok: problems.length === 0, problems }
  // A resource whose own status is PROCESSING (an executed quote) has an id; the hold body has none.
  if (status === 200 && deviations.processingOperations.has(operationId) && (body as { status?: unknown })?.status === "PROCESSING" && (body as { id?: unknown }).id === undefined) {
    const b = body as Record<string, unknown>
    if (Object.keys(b).some((k) => k !== "status" && k !== "message") || (b["message"] !== undefined && typeof b["message"] !== "string"))
      problems.push(`${operationId} 200 PROCESSING must be {status, message?}`)
    return { ok: problems.length === 0, problems }
  }
  const responses = operations.get(operationId)
  if (responses === undefined) return { ok: false, problems: [`unknown reference operation ${operationId}`] }
  const code = isError ? (body as { code?: string }).code : undefined
  // "No route" is no operation's answer: an operation's 404 carries the reference's code for it.
  if (code === deviations.noRoute.code) problems.push(`${operationId} answered ${code}, the HTTP layer's "no route"`)
  const httpLayer = code !== undefined && deviations.httpLayerCodes.get(code) === status
  const added = deviations.addedErrorResponses[operationId]?.[String(status)]
  // A declared status without a body is `null`: only an undeclared one (`undefined`) may be an added one.
  const declared = responses[String(status)] !== undefined ? responses[String(status)] : added === undefined ? undefined : { $ref: `#/components/schemas/${added}` }
  if (declared === undefined) {
    if (!(deviations.anyOperationStatuses.has(status) && (httpLayer || deviations.authenticationStatuses.has(status))))
      problems.push(`${operationId} does not declare status ${status}`)
    return { ok: problems.length === 0, problems }
  }
  if (httpLayer) return { ok: problems.length === 0, problems }
  const schema = declared as { $ref?: string } | null
  if (schema === null) {
    if (body !== undefined && body !== "") problems.push(`${operationId} ${status} declares no body`)
  } else if (schema.$ref !== undefined) {
    const v = validatorFor(operationId, String(status), schema.$ref)
    // A code the reference documents for the operation but leaves out of the enum is checked as the enum's INVALID_INPUT.
    const extra = code !== undefined && deviations.addedErrorCodes[operationId]?.[String(status)]?.includes(code) === true
    if (!v(extra ? { ...(body as object), code: "INVALID_INPUT" } : body)) problems.push(`${operationId} ${status}: ${ajv.errorsText(v.errors)}`)
  }
  return { ok: problems.length === 0, problems }
}

const match = makeMatcher(routes)

/** The reference operation a request addresses, for the response checker. */
export const operationFor = (method: string, path: string): string | undefined => {
  if (!path.startsWith(BASE_PATH + "/")) return undefined
  let segments: Array<string>
  try {
    segments = path.slice(BASE_PATH.length).split("?")[0]!.split("/").slice(1).map(decodeURIComponent)
  } catch {
    return undefined
  }
  const m = match(method, segments)
  return m._tag === "Found" ? m.route.operationId : undefined
}

const webhookValidators = new Map<string, ReturnType<typeof ajv.compile>>()

/**
 * Checks a delivered webhook body `{id, type, timestamp, data}` against one of the reference's
 * webhook payload schemas (its `webhooks:` section, e.g. `CustomerWebhook`).
 */
export const checkWebhook = (schemaName: string, body: unknown): ReadonlyArray<string> => {
  let v = webhookValidators.get(schemaName)
  if (v === undefined) webhookValidators.set(schemaName, (v = ajv.compile({ $ref: `openapi.json#/components/schemas/${schemaName}` })))
  return v(body) ? [] : [`${schemaName}: ${ajv.errorsText(v.errors)}`]
}

/** What keeps `value` from satisfying the reference's named schema (webhook payloads, which no operation answers). */
export const referenceSchemaProblems = (schema: string, value: unknown): ReadonlyArray<string> => checkWebhook(schema, value)
