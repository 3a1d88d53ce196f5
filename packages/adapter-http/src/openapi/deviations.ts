/**
 * Where Tessera's HTTP API deliberately differs from the reference OpenAPI (lightsparkdev/grid-api
 * 2025-10-13), stated once: the served document (`GET /openapi.json`) publishes them, and the
 * test suite's response checker allows exactly these and nothing else.
 */
export interface Deviations {
  /**
   * Error codes of the HTTP layer (DECISIONS #8) an operation can answer, with their status:
   * outside the reference's per-status enums.
   */
  readonly httpLayerCodes: ReadonlyMap<string, number>
  /**
   * The HTTP layer's answer when no route matches: an answer of no operation. A missing resource
   * is never `NOT_FOUND`, but the reference's 404 code for it (DECISIONS 1xx-N).
   */
  readonly noRoute: { readonly code: string; readonly status: number }
  /** Statuses any operation may answer, because they come from the HTTP layer or from authentication. */
  readonly anyOperationStatuses: ReadonlySet<number>
  /** Prefix of Tessera's own operations (sandbox controls), absent from the reference. */
  readonly ownOperationPrefix: string
  /**
   * Signed-retry operations that may answer 200 `{status: "PROCESSING", message?}`: in the spec
   * ("Still-processing handling"), but only on an unmerged branch of the reference.
   */
  readonly processingOperations: ReadonlySet<string>
  /** Headers the spec renames, reference name → Tessera's: the reference's name is accepted as an alias (DECISIONS #2). */
  readonly headerNames: Readonly<Record<string, string>>
}

const httpLayerCodes: ReadonlyMap<string, number> = new Map([
  ["METHOD_NOT_ALLOWED", 405],
  ["PAYLOAD_TOO_LARGE", 413],
  ["UNSUPPORTED_MEDIA_TYPE", 415]
])

export const deviations: Deviations = {
  httpLayerCodes,
  noRoute: { code: "NOT_FOUND", status: 404 },
  // Authentication (401) and the HTTP layer's own statuses can come from any operation.
  anyOperationStatuses: new Set([401, ...httpLayerCodes.values()]),
  ownOperationPrefix: "tessera.",
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
  headerNames: { "Grid-Wallet-Signature": "Service-Wallet-Signature" }
}
