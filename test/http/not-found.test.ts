import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { routes } from "@tessera/adapter-http"
import { deviations, referenceFacts } from "@tessera/adapter-http/openapi"
import { newKeyPair } from "@tessera/core/testing"
import { documentForm } from "../support/onboarding-uploads.ts"
import { startTestServer, type TestServer } from "../support/server.ts"
import { connectedAgent, customerWithAccounts } from "../agents/support.ts"

/**
 * A well-formed id of nothing answers 404 with the reference's code for it on every route that
 * takes one: USER_NOT_FOUND for a customer, BULK_UPLOAD_JOB_NOT_FOUND for a bulk import job, the generic REFERENCE_NOT_FOUND (with
 * `details.resource`) for the resources the reference's 404 enum names no code for. NOT_FOUND is
 * the HTTP layer's "no route" only.
 */
const V = "/2025-10-13"
const ids = {
  Customer: "Customer:00000000-0000-4000-8000-000000000000",
  InternalAccount: "InternalAccount:00000000-0000-4000-8000-000000000000",
  AuthMethod: "AuthMethod:00000000-0000-4000-8000-000000000000",
  Session: "Session:00000000-0000-4000-8000-000000000000",
  ExternalAccount: "ExternalAccount:00000000-0000-4000-8000-000000000000",
  BeneficialOwner: "BeneficialOwner:00000000-0000-4000-8000-000000000000",
  Verification: "Verification:00000000-0000-4000-8000-000000000000",
  KycLink: "0".repeat(32),
  Job: "Job:00000000-0000-4000-8000-000000000000",
  Document: "Document:00000000-0000-4000-8000-000000000000",
  Transaction: "Transaction:00000000-0000-4000-8000-000000000000",
  Quote: "Quote:00000000-0000-4000-8000-000000000000",
  Uma: "$nobody@sandbox.uma.money",
  Token: "Token:00000000-0000-4000-8000-000000000000",
  Invitation: "00000000deadbeef",
  DelegatedKey: "DelegatedKey:00000000-0000-4000-8000-000000000000",
  Card: "Card:00000000-0000-4000-8000-000000000000",
  Stablecoin: "Stablecoin:00000000-0000-4000-8000-000000000000",
  StablecoinOperation: "StablecoinOperation:00000000-0000-4000-8000-000000000000",
  StablecoinProviderAccount: "StablecoinProviderAccount:00000000-0000-4000-8000-000000000000",
  Agent: "Agent:00000000-0000-4000-8000-000000000000",
  AgentAction: "AgentAction:00000000-0000-4000-8000-000000000000",
  AgentDeviceCode: "GRID-AGENT-AAAA-BBBB",
} as const
type Resource = keyof typeof ids

interface Case {
  readonly operationId: string
  readonly method: string
  readonly path: string
  readonly resource: Resource
  /** A body the operation accepts, so only the missing id stands in the way. */
  readonly body?: unknown
  /** A multipart body instead, for the endpoints that take one. */
  readonly form?: () => FormData
  readonly headers?: Readonly<Record<string, string>>
  /** Called with an agent's Bearer credential (the `/agents/me/*` routes). */
  readonly asAgent?: true
}

const key = newKeyPair()
const ea = (operationId: string, method: string, path: string, body?: unknown): Case => ({
  operationId,
  method,
  path: path.replace("{id}", ids.ExternalAccount),
  resource: "ExternalAccount",
  ...(body === undefined ? {} : { body })
})

const auth = { amount: 100, currency: { code: "USDB" }, merchant: { descriptor: "SHOP" } }
const cardTx = "CardTransaction:00000000-0000-4000-8000-000000000000"
const sim = (name: string, operationId: string, body: unknown): Case => ({
  operationId,
  method: "POST",
  path: `/sandbox/cards/${ids.Card}/simulate/${name}`,
  resource: "Card",
  body
})

const cases: ReadonlyArray<Case> = [
  { operationId: "getCardById", method: "GET", path: `/cards/${ids.Card}`, resource: "Card" },
  { operationId: "updateCardById", method: "PATCH", path: `/cards/${ids.Card}`, resource: "Card", body: { state: "FROZEN" } },
  { operationId: "revealCard", method: "POST", path: `/cards/${ids.Card}/reveal`, resource: "Card" },
  sim("authorization", "sandboxSimulateCardAuthorization", auth),
  sim("clearing", "sandboxSimulateCardClearing", { cardTransactionId: cardTx, amount: 100 }),
  sim("return", "sandboxSimulateCardReturn", { cardTransactionId: cardTx, amount: 100 }),
  sim("balance_inquiry", "sandboxSimulateCardBalanceInquiry", { merchant: { descriptor: "SHOP" } }),
  sim("credit_authorization", "sandboxSimulateCardCreditAuthorization", auth),
  sim("financial_authorization", "sandboxSimulateCardFinancialAuthorization", auth),
  sim("financial_credit_authorization", "sandboxSimulateCardFinancialCreditAuthorization", auth),
  sim("authorization_advice", "sandboxSimulateCardAuthorizationAdvice", { cardTransactionId: cardTx, amount: 100 }),
  sim("credit_authorization_advice", "sandboxSimulateCardCreditAuthorizationAdvice", auth),
  sim("return_reversal", "sandboxSimulateCardReturnReversal", { cardTransactionId: cardTx }),
  { operationId: "getCustomerById", method: "GET", path: `/customers/${ids.Customer}`, resource: "Customer" },
  { operationId: "updateCustomerById", method: "PATCH", path: `/customers/${ids.Customer}`, resource: "Customer", body: { fullName: "Ann" } },
  { operationId: "deleteCustomerById", method: "DELETE", path: `/customers/${ids.Customer}`, resource: "Customer" },
  { operationId: "getBulkCustomerImportJob", method: "GET", path: `/customers/bulk/jobs/${ids.Job}`, resource: "Job" },
  { operationId: "sendCustomerEmailVerification", method: "POST", path: `/customers/${ids.Customer}/verify-email`, resource: "Customer" },
  { operationId: "confirmCustomerEmailVerification", method: "POST", path: `/customers/${ids.Customer}/verify-email/confirm`, resource: "Customer", body: { code: "123456" } },
  { operationId: "sendCustomerPhoneVerification", method: "POST", path: `/customers/${ids.Customer}/verify-phone`, resource: "Customer" },
  { operationId: "confirmCustomerPhoneVerification", method: "POST", path: `/customers/${ids.Customer}/verify-phone/confirm`, resource: "Customer", body: { code: "123456" } },
  { operationId: "exportInternalAccount", method: "POST", path: `/internal-accounts/${ids.InternalAccount}/export`, resource: "InternalAccount", body: { clientPublicKey: key.publicKeyUncompressed } },
  { operationId: "updateInternalAccount", method: "PATCH", path: `/internal-accounts/${ids.InternalAccount}`, resource: "InternalAccount", body: { privateEnabled: true } },
  { operationId: "createAuthCredential", method: "POST", path: "/auth/credentials", resource: "InternalAccount", body: { type: "EMAIL_OTP", accountId: ids.InternalAccount } },
  { operationId: "revokeAuthCredential", method: "DELETE", path: `/auth/credentials/${ids.AuthMethod}`, resource: "AuthMethod" },
  { operationId: "challengeAuthCredential", method: "POST", path: `/auth/credentials/${ids.AuthMethod}/challenge`, resource: "AuthMethod" },
  {
    operationId: "verifyAuthCredential",
    method: "POST",
    path: `/auth/credentials/${ids.AuthMethod}/verify`,
    resource: "AuthMethod",
    body: { type: "EMAIL_OTP", encryptedOtpBundle: JSON.stringify({ encappedPublic: key.publicKeyUncompressed, ciphertext: "00".repeat(48) }) }
  },
  { operationId: "revokeAuthSession", method: "DELETE", path: `/auth/sessions/${ids.Session}`, resource: "Session" },
  { operationId: "refreshAuthSession", method: "POST", path: `/auth/sessions/${ids.Session}/refresh`, resource: "Session", body: { clientPublicKey: key.publicKey } },
  ea("getCustomerExternalAccountById", "GET", "/customers/external-accounts/{id}"),
  ea("deleteCustomerExternalAccountById", "DELETE", "/customers/external-accounts/{id}"),
  ea("createExternalAccountOwnershipChallenge", "POST", "/customers/external-accounts/{id}/challenge", { method: "WALLET_SIGNATURE" }),
  ea("verifyExternalAccountOwnership", "POST", "/customers/external-accounts/{id}/verify", { signature: "0xabcd" }),
  ea("startBeneficiaryTrust", "POST", "/customers/external-accounts/{id}/trust"),
  ea("confirmBeneficiaryTrust", "POST", "/customers/external-accounts/{id}/trust/confirm", { code: "123456" }),
  ea("startBeneficiaryUntrust", "POST", "/customers/external-accounts/{id}/untrust"),
  ea("confirmBeneficiaryUntrust", "POST", "/customers/external-accounts/{id}/untrust/confirm", { code: "123456" }),
  ea("getPlatformExternalAccountById", "GET", "/platform/external-accounts/{id}"),
  ea("deletePlatformExternalAccountById", "DELETE", "/platform/external-accounts/{id}"),
  ea("createPlatformExternalAccountOwnershipChallenge", "POST", "/platform/external-accounts/{id}/challenge", { method: "WALLET_SIGNATURE" }),
  ea("verifyPlatformExternalAccountOwnership", "POST", "/platform/external-accounts/{id}/verify", { signature: "0xabcd" }),
  ea("tessera.decideLiveness", "POST", "/sandbox/external-accounts/{id}/liveness", { outcome: "PASSED" }),
  { operationId: "getVerification", method: "GET", path: `/verifications/${ids.Verification}`, resource: "Verification" },
  { operationId: "getBeneficialOwner", method: "GET", path: `/beneficial-owners/${ids.BeneficialOwner}`, resource: "BeneficialOwner" },
  { operationId: "updateBeneficialOwner", method: "PATCH", path: `/beneficial-owners/${ids.BeneficialOwner}`, resource: "BeneficialOwner", body: { ownershipPercentage: 5 } },
  { operationId: "createCustomerKycLink", method: "POST", path: `/customers/${ids.Customer}/kyc-link`, resource: "Customer" },
  { operationId: "tessera.completeKycLink", method: "POST", path: `/sandbox/kyc-links/${ids.KycLink}/complete`, resource: "KycLink", body: { outcome: "APPROVED" } },
  { operationId: "getDocument", method: "GET", path: `/documents/${ids.Document}`, resource: "Document" },
  { operationId: "replaceDocument", method: "PUT", path: `/documents/${ids.Document}`, resource: "Document", form: () => documentForm(undefined, "PASSPORT") },
  { operationId: "deleteDocument", method: "DELETE", path: `/documents/${ids.Document}`, resource: "Document" },
  { operationId: "getTransactionById", method: "GET", path: `/transactions/${ids.Transaction}`, resource: "Transaction" },
  { operationId: "confirmReceiptDelivery", method: "POST", path: `/transactions/${ids.Transaction}/confirm`, resource: "Transaction" },
  { operationId: "approvePendingPayment", method: "POST", path: `/transactions/${ids.Transaction}/approve`, resource: "Transaction" },
  { operationId: "rejectPendingPayment", method: "POST", path: `/transactions/${ids.Transaction}/reject`, resource: "Transaction", body: { reason: "no" } },
  { operationId: "cancelTransaction", method: "POST", path: `/transactions/${ids.Transaction}/cancel`, resource: "Transaction" },
  { operationId: "lookupUma", method: "GET", path: `/receiver/uma/${encodeURIComponent(ids.Uma)}`, resource: "Uma" },
  { operationId: "lookupExternalAccount", method: "GET", path: `/receiver/external-account/${ids.ExternalAccount}`, resource: "ExternalAccount" },
  { operationId: "sandboxFundInternalAccount", method: "POST", path: `/sandbox/internal-accounts/${ids.InternalAccount}/fund`, resource: "InternalAccount", body: { amount: 1 } },
  { operationId: "getQuoteById", method: "GET", path: `/quotes/${ids.Quote}`, resource: "Quote" },
  { operationId: "executeQuote", method: "POST", path: `/quotes/${ids.Quote}/execute`, resource: "Quote" },
  { operationId: "tessera.holdAccountOperations", method: "POST", path: `/sandbox/internal-accounts/${ids.InternalAccount}/processing`, resource: "InternalAccount", body: { operations: 1, seconds: 5 } },
  { operationId: "getTokenById", method: "GET", path: `/tokens/${ids.Token}`, resource: "Token" },
  { operationId: "deleteTokenById", method: "DELETE", path: `/tokens/${ids.Token}`, resource: "Token" },
  { operationId: "getInvitation", method: "GET", path: `/invitations/${ids.Invitation}`, resource: "Invitation" },
  { operationId: "claimInvitation", method: "POST", path: `/invitations/${ids.Invitation}/claim`, resource: "Invitation", body: { inviteeUma: "$bob@other.example" } },
  { operationId: "cancelInvitation", method: "POST", path: `/invitations/${ids.Invitation}/cancel`, resource: "Invitation" },
  { operationId: "getDelegatedKeyById", method: "GET", path: `/auth/delegated-keys/${ids.DelegatedKey}`, resource: "DelegatedKey" },
  { operationId: "revokeDelegatedKey", method: "DELETE", path: `/auth/delegated-keys/${ids.DelegatedKey}`, resource: "DelegatedKey" },
  // The body names the wallet and the card; an unknown wallet is looked up first (an unknown card
  // or funding source of a real wallet: test/delegated-keys/card-binding.test.ts).
  {
    operationId: "createDelegatedKey",
    method: "POST",
    path: "/auth/delegated-keys",
    resource: "InternalAccount",
    body: { cardId: ids.Card, internalAccountId: ids.InternalAccount, nickname: "Key" }
  },
  { operationId: "authorizeQuote", method: "POST", path: `/quotes/${ids.Quote}/authorize`, resource: "Quote", body: { code: "123456" } },
  { operationId: "resendQuoteScaCode", method: "POST", path: `/quotes/${ids.Quote}/authorize/resend`, resource: "Quote" },
  // The SCA routes name their customer in the query; an unknown one is USER_NOT_FOUND before the
  // path's id is looked at (an unknown factor or reset of a real customer: test/sca/).
  { operationId: "deleteScaFactor", method: "DELETE", path: `/sca/factors/cred-1?customerId=${ids.Customer}`, resource: "Customer" },
  { operationId: "getTwoFactorResetStatus", method: "GET", path: `/sca/factors/reset/ScaReset:00000000-0000-4000-8000-000000000000?customerId=${ids.Customer}`, resource: "Customer" },
  { operationId: "completeTwoFactorReset", method: "POST", path: `/sca/factors/reset/ScaReset:00000000-0000-4000-8000-000000000000/complete?customerId=${ids.Customer}`, resource: "Customer" },
  { operationId: "getStablecoin", method: "GET", path: `/stablecoins/${ids.Stablecoin}`, resource: "Stablecoin" },
  {
    operationId: "createStablecoinMint",
    method: "POST",
    path: `/stablecoins/${ids.Stablecoin}/mints`,
    resource: "Stablecoin",
    body: { amount: "1000000", fundingSource: { type: "WIRE" }, destination: { accountId: ids.ExternalAccount } },
    headers: { "idempotency-key": "not-found-mint" }
  },
  {
    operationId: "createStablecoinBurn",
    method: "POST",
    path: `/stablecoins/${ids.Stablecoin}/burns`,
    resource: "Stablecoin",
    body: { amount: "1000000", source: { type: "EXTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: ids.ExternalAccount, rail: "WIRE" } },
    headers: { "idempotency-key": "not-found-burn" }
  },
  { operationId: "listStablecoinOperations", method: "GET", path: `/stablecoins/${ids.Stablecoin}/operations`, resource: "Stablecoin" },
  { operationId: "getStablecoinOperation", method: "GET", path: `/stablecoin-operations/${ids.StablecoinOperation}`, resource: "StablecoinOperation" },
  { operationId: "getStablecoinProviderAccount", method: "GET", path: `/stablecoin-provider-accounts/${ids.StablecoinProviderAccount}`, resource: "StablecoinProviderAccount" },
  { operationId: "getAgentById", method: "GET", path: `/agents/${ids.Agent}`, resource: "Agent" },
  { operationId: "updateAgent", method: "PATCH", path: `/agents/${ids.Agent}`, resource: "Agent", body: { name: "Renamed" } },
  { operationId: "deleteAgent", method: "DELETE", path: `/agents/${ids.Agent}`, resource: "Agent" },
  { operationId: "updateAgentPolicy", method: "PATCH", path: `/agents/${ids.Agent}/policy`, resource: "Agent", body: { defaultExecutionMode: "AUTO" } },
  { operationId: "regenerateAgentDeviceCode", method: "POST", path: `/agents/${ids.Agent}/device-codes`, resource: "Agent" },
  { operationId: "approveAgentAction", method: "POST", path: `/agents/${ids.Agent}/actions/${ids.AgentAction}/approve`, resource: "Agent" },
  { operationId: "rejectAgentAction", method: "POST", path: `/agents/${ids.Agent}/actions/${ids.AgentAction}/reject`, resource: "Agent" },
  { operationId: "getAgentDeviceCodeStatus", method: "GET", path: `/agents/device-codes/${ids.AgentDeviceCode}/status`, resource: "AgentDeviceCode" },
  { operationId: "redeemAgentDeviceCode", method: "POST", path: `/agents/device-codes/${ids.AgentDeviceCode}/redeem`, resource: "AgentDeviceCode" },
  { operationId: "agentGetTransaction", method: "GET", path: `/agents/me/transactions/${ids.Transaction}`, resource: "Transaction", asAgent: true },
  { operationId: "agentGetQuote", method: "GET", path: `/agents/me/quotes/${ids.Quote}`, resource: "Quote", asAgent: true },
  { operationId: "agentExecuteQuote", method: "POST", path: `/agents/me/quotes/${ids.Quote}/execute`, resource: "Quote", asAgent: true },
  { operationId: "agentGetAction", method: "GET", path: `/agents/me/actions/${ids.AgentAction}`, resource: "AgentAction", asAgent: true },
  { operationId: "agentGetExternalAccount", method: "GET", path: `/agents/me/external-accounts/${ids.ExternalAccount}`, resource: "ExternalAccount", asAgent: true },
  { operationId: "agentDeleteExternalAccount", method: "DELETE", path: `/agents/me/external-accounts/${ids.ExternalAccount}`, resource: "ExternalAccount", asAgent: true },
]

/** Resources the reference's 404 enum has a code of their own for. */
const ownCodes: Partial<Record<Resource, string>> = { Customer: "USER_NOT_FOUND", Job: "BULK_UPLOAD_JOB_NOT_FOUND", Transaction: "TRANSACTION_NOT_FOUND", Quote: "QUOTE_NOT_FOUND", Uma: "UMA_NOT_FOUND", Token: "TOKEN_NOT_FOUND", Invitation: "INVITATION_NOT_FOUND", StablecoinProviderAccount: "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND" }

const referenceCodes = (referenceFacts.schemas["Error404"] as { properties: { code: { enum: Array<string> } } }).properties.code.enum

let t: TestServer
let agentBearer: string
beforeAll(async () => {
  t = await startTestServer("memory")
  const { customerId } = await customerWithAccounts(t, 0)
  agentBearer = (await connectedAgent(t, customerId)).bearer
})
afterAll(() => t.close())

describe("a missing id answers the reference's 404 code", () => {
  it("covers every route that takes an id in its path", () => {
    const covered = new Set(cases.map((c) => c.operationId))
    expect(routes.filter((r) => r.path.includes("{") && !covered.has(r.operationId)).map((r) => r.operationId)).toEqual([])
  })

  it.each(cases)("$operationId", async (c) => {
    const res = await t.request(c.method, V + c.path, {
      ...(c.form !== undefined ? { form: c.form() } : c.body === undefined ? {} : { body: c.body }),
      ...(c.headers === undefined ? {} : { headers: { ...c.headers } }),
      ...(c.asAgent === true ? { auth: agentBearer } : {})
    })
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([404, ownCodes[c.resource] ?? "REFERENCE_NOT_FOUND"])
    expect(referenceCodes).toContain(res.body.code)
    if (ownCodes[c.resource] === undefined) expect(res.body.details).toEqual({ resource: c.resource, id: ids[c.resource] })
  })

  it("keeps NOT_FOUND for the HTTP layer's no route, which is no operation's answer", async () => {
    const res = await t.request("GET", `${V}/customers/${ids.Customer}/nothing-here`)
    expect([res.status, res.body.code]).toEqual([404, deviations.noRoute.code])
    expect(referenceCodes).not.toContain(deviations.noRoute.code)
  })
})
