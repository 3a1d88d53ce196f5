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
   * is never `NOT_FOUND`, but the reference's 404 code for it (DECISIONS #133).
   */
  readonly noRoute: { readonly code: string; readonly status: number }
  /** Statuses any operation may answer, because they come from the HTTP layer or from authentication. */
  readonly anyOperationStatuses: ReadonlySet<number>
  /**
   * Statuses answered before any operation runs: by authentication 401, and 429 once wrong
   * secrets are throttled (#128); 403 FORBIDDEN when an API token lacks the permission the
   * operation needs (#245), which the reference declares on a few operations only.
   */
  readonly authenticationStatuses: ReadonlySet<number>
  /** Prefix of Tessera's own operations (sandbox controls), absent from the reference. */
  readonly ownOperationPrefix: string
  /**
   * Signed-retry operations that may answer 200 `{status: "PROCESSING", message?}`: in the spec
   * ("Still-processing handling"), but only on an unmerged branch of the reference.
   */
  readonly processingOperations: ReadonlySet<string>
  /**
   * Statuses an operation answers that the reference leaves out of its responses, with the
   * reference's schema for them: a bulk CSV that is not CSV cannot be accepted with a 202, and
   * the reference declares no 400 for the upload (#159); executing a quote from an embedded
   * wallet is a signed retry, whose first answer is the 202 challenge (#196); a card reveal's
   * optional client key can be malformed (#205).
   */
  readonly addedErrorResponses: Readonly<Record<string, Readonly<Record<string, string>>>>
  /**
   * Error codes an operation answers that the reference documents in its description but leaves
   * out of the status's code enum, by operationId and status: FUNDING_SOURCE_INELIGIBLE on the
   * card writes (DECISIONS #204).
   */
  readonly addedErrorCodes: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string>>>>>
  /** Headers the spec renames, reference name → Tessera's: the reference's name is accepted as an alias (DECISIONS #2). */
  readonly headerNames: Readonly<Record<string, string>>
}

const httpLayerCodes: ReadonlyMap<string, number> = new Map([
  ["METHOD_NOT_ALLOWED", 405],
  ["PAYLOAD_TOO_LARGE", 413],
  ["UNSUPPORTED_MEDIA_TYPE", 415],
  // Answered by the server before any route is known (#117): a request past its timeout, headers past 16 KB.
  ["REQUEST_TIMEOUT", 408],
  ["REQUEST_HEADER_FIELDS_TOO_LARGE", 431]
])

export const deviations: Deviations = {
  httpLayerCodes,
  noRoute: { code: "NOT_FOUND", status: 404 },
  // Authentication (401, 429), a token's permissions (403) and the HTTP layer's own statuses can come from any operation.
  anyOperationStatuses: new Set([401, 403, 429, ...httpLayerCodes.values()]),
  authenticationStatuses: new Set([401, 403, 429]),
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
    "updateCustomerById",
    "executeQuote",
    "createDelegatedKey"
  ]),
  // executeQuote: the spec makes it a signed retry, whose first call is the 202 challenge (#196).
  // updatePlatformConfig: the reference declares only its 200, but a body can be invalid (#240).
  // getAvailableUmaProviders: its paging and filters are validated like every list's, and a bad
  // one is a 400 the reference does not declare for it (#270).
  // The SCA reads and deletes take their customer in the query: without it they are 400, which the
  // reference declares only on the SCA writes (#228). A POST that takes no body still refuses one it
  // cannot read (deeper than the JSON limit, not JSON): 400, undeclared on these body-less ones.
  // revealCard: the reference takes no body; Tessera's optional clientPublicKey can be malformed (#205).
  // listStablecoinOperations: its paging and operationType filter are validated like every list's (#366).
  // The agents' lists check their query like every list (a bad status, limit or cursor is 400), and
  // an agent deletes its customer's external account as the platform does, refused while it is a
  // trusted beneficiary (409 BENEFICIARY_TRUSTED); the reference declares neither (#381).
  // An agent's policy decides what it may read and manage as well as what it may move: without
  // VIEW_TRANSACTIONS its transaction reads, without MANAGE_EXTERNAL_ACCOUNTS its external-account
  // routes, and while paused its external-account writes, are 403 FORBIDDEN with the reason; the
  // reference declares 403 only on the agent's money-moving routes (#393).
  addedErrorResponses: {
    agentListTransactions: { "403": "Error403" },
    agentGetTransaction: { "403": "Error403" },
    agentListExternalAccounts: { "403": "Error403" },
    agentCreateExternalAccount: { "403": "Error403" },
    agentGetExternalAccount: { "403": "Error403" },
    agentDeleteExternalAccount: { "409": "Error409", "403": "Error403" },
    agentListActions: { "400": "Error400" },
    agentListInternalAccounts: { "400": "Error400" },
    uploadCustomersCsv: { "400": "Error400" },
    executeQuote: { "202": "SignedRequestChallenge" },
    updatePlatformConfig: { "400": "Error400" },
    getAvailableUmaProviders: { "400": "Error400" },
    listScaFactors: { "400": "Error400" },
    deleteScaFactor: { "400": "Error400" },
    getTwoFactorResetStatus: { "400": "Error400" },
    resendQuoteScaCode: { "400": "Error400" },
    sendCustomerEmailVerification: { "400": "Error400" },
    sendCustomerPhoneVerification: { "400": "Error400" },
    revealCard: { "400": "Error400" },
    listStablecoinOperations: { "400": "Error400" }
  },
  addedErrorCodes: {
    createCard: { "400": ["FUNDING_SOURCE_INELIGIBLE"] },
    updateCardById: { "400": ["FUNDING_SOURCE_INELIGIBLE"] }
  },
  headerNames: { "Grid-Wallet-Signature": "Service-Wallet-Signature" }
}
