import { type KeyPair, mintOidcToken, newKeyPair, sealOtp } from "@tessera/core/testing"
import { type RawPart } from "../support/multipart.ts"
import { samples, type SampleKind } from "../support/sample-files.ts"
import type { Pool } from "./pool.ts"
import type { Corpus, Rand } from "./random.ts"

/** What a request generator may use: the seeded choices, fast-check's samples, the ids seen so far. */
export interface Ctx {
  readonly r: Rand
  readonly c: Corpus
  readonly pool: Pool
  /** A few fixed key pairs (made once from the seed: key generation is not what is fuzzed). */
  readonly keys: ReadonlyArray<KeyPair>
}

/** A request to one route, before any hostile change: path parameters, query, body, extra headers. */
export interface Template {
  readonly params: Readonly<Record<string, string>>
  readonly query?: string
  readonly body?: unknown
  /** A multipart/form-data body instead of JSON, part by part. */
  readonly multipart?: ReadonlyArray<RawPart>
  readonly headers?: Readonly<Record<string, string>>
}

export const fuzzKeys = (seed: number): ReadonlyArray<KeyPair> =>
  Array.from({ length: 6 }, (_, i) => newKeyPair(new Uint8Array(32).fill((seed + i) & 0xff)))

const n = (x: Ctx) => x.r.int(1 << 30)
const customer = (x: Ctx) => x.pool.id("Customer", n(x))
const account = (x: Ctx) => x.pool.id("InternalAccount", n(x))
const external = (x: Ctx) => x.pool.id("ExternalAccount", n(x))
const credential = (x: Ctx) => x.pool.id("AuthMethod", n(x))
const session = (x: Ctx) => x.pool.id("Session", n(x))
const documentId = (x: Ctx) => x.pool.id("Document", n(x))
const transaction = (x: Ctx) => (x.r.chance(0.2) ? x.pool.id("CardTransaction", n(x)) : x.pool.id("Transaction", n(x)))
const card = (x: Ctx) => x.pool.id("Card", n(x))
const cardTransaction = (x: Ctx) => x.pool.id("CardTransaction", n(x))
// Within, at and past the balances the fuzzer funds, and the transfer limit.
const amount = (x: Ctx) => x.r.pick([1, 700, 12_550, 1_000_000, 10_000_001])
const key = (x: Ctx) => x.r.pick(x.keys)
const cardAuth = (x: Ctx) => ({
  amount: amount(x),
  currency: { code: x.r.pick(["USDB", "USD"]) },
  merchant: { descriptor: `FUZZ SHOP ${x.r.pick(["", "002", "003", "005", "006"])}`, mcc: "5814", country: "US" }
})
// Whole cents of a 6-decimal stablecoin ending in the sandbox's suffixes, and one that is not whole cents.
const stablecoinAmount = (x: Ctx) => x.r.pick(["10020000", "10030000", "1000000", "50000000", "1000001"])
// Stablecoin writes require a key; a small set makes replays and reuses with another body happen.
const idempotencyKey = (x: Ctx) => ({ "idempotency-key": `fuzz-key-${x.r.int(50)}` })
const email = (x: Ctx) => `f${x.r.int(1e9)}@example.com`
const digits = (x: Ctx, length: number) => Array.from({ length }, () => x.r.int(10)).join("")
// The sandbox's suffix tables decide outcomes by the last digits: cover them.
const suffix = (x: Ctx) => x.r.pick(["001", "002", "003", "004", "005", "006", "007", "000", digits(x, 3)])

const individual = (x: Ctx) => {
  const fullName = `Fuzz Person ${suffix(x)}`
  const number = x.r.int(1e9)
  // A third are EU/EEA customers, whose contact verification the verify-email/-phone routes
  // drive; decided from a number already drawn, so the seeded stream of draws stays as it was.
  const eu = number % 3 === 0 ? { region: "DE", phoneNumber: `+49151${String(number % 1e7).padStart(7, "0")}` } : {}
  return {
    customerType: "INDIVIDUAL",
    fullName,
    email: `f${number}@example.com`,
    birthDate: "1990-01-15",
    nationality: "US",
    ...eu,
    ...(x.r.chance(0.3) ? { platformCustomerId: `p-${x.r.int(500)}` } : {}),
    ...(x.r.chance(0.3) ? { address: { line1: "1 Main St", postalCode: "94105", country: "US" } } : {})
  }
}

const business = (x: Ctx) => ({
  customerType: "BUSINESS",
  email: email(x),
  businessInfo: { legalName: "Fuzz Corp", country: "US", taxId: "47-1234567", incorporatedOn: "2018-03-14", registrationNumber: `55${digits(x, 2)}${suffix(x)}` }
})

const beneficialOwner = (x: Ctx) => ({
  customerId: customer(x),
  roles: ["UBO"],
  ownershipPercentage: x.r.int(101),
  personalInfo: {
    firstName: "Fuzz",
    lastName: `Owner ${suffix(x)}`,
    birthDate: "1970-01-01",
    nationality: "US",
    address: { line1: "1 Main St", postalCode: "94105", country: "US" },
    idType: "SSN",
    identifier: "123-45-6789"
  }
})

const externalAccount = (x: Ctx) =>
  x.r.pick([
    () => ({
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: `12345${suffix(x)}`,
        routingNumber: "021000021",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" }
      }
    }),
    () => ({ currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: `0x${digits(x, 40)}` } }),
    () => ({ currency: "BTC", accountInfo: { accountType: "LIGHTNING", lightningAddress: `z${x.r.int(1000)}@example.com` } })
  ])()

/** A document upload's parts: a tiny valid file of a random accepted type, and its metadata. */
const documentParts = (x: Ctx, holder?: string): ReadonlyArray<RawPart> => {
  const sample = samples[x.r.pick<SampleKind>(["png", "jpeg", "pdf"])]
  return [
    ...(holder === undefined ? [] : [{ name: "documentHolder", value: holder }]),
    { name: "documentType", value: x.r.pick(["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID", "PROOF_OF_ADDRESS", "SELFIE"]) },
    { name: "country", value: x.r.pick(["US", "FR", "us"]) },
    ...(x.r.chance(0.3) ? [{ name: "side", value: x.r.pick(["FRONT", "BACK", ""]) }] : []),
    { name: "file", value: sample.bytes(x.r.int(256)), fileName: sample.name, contentType: sample.type }
  ]
}

/** A small customer CSV: valid rows and, sometimes, rows POST /customers would refuse. */
const customerCsv = (x: Ctx): ReadonlyArray<RawPart> => {
  const rows = Array.from({ length: 1 + x.r.int(3) }, () =>
    x.r.pick([
      () => `INDIVIDUAL,Csv Person ${suffix(x)},1990-01-15,${email(x)},${x.r.chance(0.3) ? `p-${x.r.int(500)}` : ""}`,
      () => `INDIVIDUAL,"Quoted, Person",1990-13-45,not-an-email,`,
      () => `BUSINESS,,,,`
    ])()
  )
  const csv = ["customerType,fullName,birthDate,email,platformCustomerId", ...rows].join(x.r.pick(["\n", "\r\n"]))
  return [{ name: "file", value: csv, fileName: "customers.csv", contentType: "text/csv" }]
}

const contactCode = (x: Ctx) => ({ code: x.r.pick(["123456", "123456", digits(x, 6)]) })

const listQuery = (x: Ctx, filters: ReadonlyArray<string>) =>
  [x.r.chance(0.5) ? `limit=${1 + x.r.int(100)}` : "", ...filters.filter(() => x.r.chance(0.3))].filter((s) => s !== "").join("&")

const otpBundle = (x: Ctx) => {
  const known = x.pool.otpTargets.at(-1 - x.r.int(Math.max(1, x.pool.otpTargets.length)))
  return known === undefined ? "{}" : sealOtp(known, x.r.pick(["000000", "123456", digits(x, 6)]), key(x))
}

/** A valid-looking request for every route, keyed by operationId; a test checks none is missing. */
const agentId = (x: Ctx) => x.pool.id("Agent", n(x))
const agentAction = (x: Ctx) => x.pool.id("AgentAction", n(x))
const deviceCode = (x: Ctx) => x.pool.deviceCodes.at(-1 - x.r.int(Math.max(1, x.pool.deviceCodes.length))) ?? "GRID-AGENT-AAAA-BBBB"
/** An agent's Bearer credential: one redeemed (the newest likeliest live), rarely a made-up one. */
const asAgent = (x: Ctx) => ({ authorization: `Bearer ${x.r.chance(0.9) ? (x.pool.agentTokens.at(-1 - x.r.int(Math.max(1, Math.min(3, x.pool.agentTokens.length)))) ?? "gat_none") : `gat_${digits(x, 40)}`}` })
const agentPolicy = (x: Ctx) => ({
  permissions: x.r.pick([["VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"], ["VIEW_TRANSACTIONS"], ["CREATE_TRANSFERS"]]),
  defaultExecutionMode: x.r.pick(["AUTO", "APPROVAL_REQUIRED"]),
  spendingLimits: { currency: x.r.pick(["USD", "USDB"]), perTransactionLimit: amount(x), ...(x.r.chance(0.5) ? { dailyLimit: x.r.pick([null, amount(x)]), dailyTransactionLimit: x.r.int(5) } : {}) },
  ...(x.r.chance(0.3) ? { approvalThresholds: { currency: "USD", amount: amount(x) } } : {}),
  ...(x.r.chance(0.2) ? { accountRestrictions: { allowedAccountIds: [account(x)] } } : {})
})

/** The agents (issue 16): management with the platform's credentials, `/agents/me/*` with an agent's. */
const agentTemplates: Readonly<Record<string, (x: Ctx) => Template>> = {
  createAgent: (x) => ({ params: {}, body: { name: `Fuzz agent ${suffix(x)}`, customerId: customer(x), policy: agentPolicy(x) } }),
  listAgents: (x) => ({ params: {}, query: listQuery(x, ["isConnected=true", "isPaused=false", `customerId=${encodeURIComponent(customer(x))}`]) }),
  listAgentApprovals: (x) => ({ params: {}, query: listQuery(x, ["sortOrder=asc", `agentId=${encodeURIComponent(agentId(x))}`]) }),
  getAgentById: (x) => ({ params: { agentId: agentId(x) } }),
  updateAgent: (x) => ({ params: { agentId: agentId(x) }, body: x.r.chance(0.5) ? { isPaused: x.r.chance(0.3) } : { name: `Renamed ${suffix(x)}` } }),
  deleteAgent: (x) => ({ params: { agentId: agentId(x) } }),
  updateAgentPolicy: (x) => ({ params: { agentId: agentId(x) }, body: x.r.chance(0.5) ? { defaultExecutionMode: x.r.pick(["AUTO", "APPROVAL_REQUIRED"]) } : { spendingLimits: { perTransactionLimit: amount(x) } } }),
  regenerateAgentDeviceCode: (x) => ({ params: { agentId: agentId(x) } }),
  approveAgentAction: (x) => ({ params: { agentId: agentId(x), actionId: agentAction(x) } }),
  rejectAgentAction: (x) => ({ params: { agentId: agentId(x), actionId: agentAction(x) }, ...(x.r.chance(0.5) ? { body: { reason: "fuzz" } } : {}) }),
  getAgentDeviceCodeStatus: (x) => ({ params: { code: deviceCode(x) } }),
  redeemAgentDeviceCode: (x) => ({ params: { code: deviceCode(x) } }),
  getAgentMe: (x) => ({ params: {}, headers: asAgent(x) }),
  agentListTransactions: (x) => ({ params: {}, query: listQuery(x, ["sortOrder=asc", "type=OUTGOING"]), headers: asAgent(x) }),
  agentGetTransaction: (x) => ({ params: { transactionId: transaction(x) }, headers: asAgent(x) }),
  agentCreateQuote: (x) => ({ ...validTemplates["createQuote"]!(x), headers: asAgent(x) }),
  agentGetQuote: (x) => ({ params: { quoteId: x.pool.id("Quote", n(x)) }, headers: asAgent(x) }),
  agentExecuteQuote: (x) => ({ params: { quoteId: x.pool.latest("Quote") }, headers: asAgent(x) }),
  agentListActions: (x) => ({ params: {}, query: listQuery(x, ["status=PENDING_APPROVAL"]), headers: asAgent(x) }),
  agentGetAction: (x) => ({ params: { actionId: agentAction(x) }, headers: asAgent(x) }),
  agentCreateTransferIn: (x) => ({ params: {}, body: { source: { accountId: external(x) }, destination: { accountId: account(x) }, amount: amount(x) }, headers: asAgent(x) }),
  agentCreateTransferOut: (x) => ({ params: {}, body: { source: { accountId: account(x) }, destination: { accountId: external(x) }, amount: amount(x) }, headers: asAgent(x) }),
  agentListInternalAccounts: (x) => ({ params: {}, query: listQuery(x, ["currency=USDB"]), headers: asAgent(x) }),
  agentListExternalAccounts: (x) => ({ params: {}, query: listQuery(x, ["currency=USD"]), headers: asAgent(x) }),
  agentCreateExternalAccount: (x) => ({ params: {}, body: externalAccount(x), headers: asAgent(x) }),
  agentGetExternalAccount: (x) => ({ params: { externalAccountId: external(x) }, headers: asAgent(x) }),
  agentDeleteExternalAccount: (x) => ({ params: { externalAccountId: external(x) }, headers: asAgent(x) })
}

export const validTemplates: Readonly<Record<string, (x: Ctx) => Template>> = {
  createCustomer: (x) => ({ params: {}, body: x.r.chance(0.7) ? individual(x) : business(x) }),
  listCustomers: (x) => ({ params: {}, query: listQuery(x, ["customerType=INDIVIDUAL", "kycStatus=APPROVED", `platformCustomerId=p-${x.r.int(500)}`]) }),
  getEndUserTerms: () => ({ params: {} }),
  uploadDocument: (x) => ({ params: {}, multipart: documentParts(x, x.r.chance(0.9) ? customer(x) : x.pool.id("BeneficialOwner", n(x))) }),
  listDocuments: (x) => ({ params: {}, query: listQuery(x, [`documentHolder=${encodeURIComponent(customer(x))}`]) }),
  getDocument: (x) => ({ params: { documentId: documentId(x) } }),
  // The newest upload: with every route drawn alike, an older document has often been deleted by then.
  replaceDocument: (x) => ({ params: { documentId: x.pool.latest("Document") }, multipart: documentParts(x, x.r.chance(0.1) ? customer(x) : undefined) }),
  deleteDocument: (x) => ({ params: { documentId: documentId(x) } }),
  getCustomerById: (x) => ({ params: { customerId: customer(x) } }),
  sendCustomerEmailVerification: (x) => ({ params: { customerId: customer(x) } }),
  confirmCustomerEmailVerification: (x) => ({ params: { customerId: customer(x) }, body: contactCode(x) }),
  sendCustomerPhoneVerification: (x) => ({ params: { customerId: customer(x) } }),
  confirmCustomerPhoneVerification: (x) => ({ params: { customerId: customer(x) }, body: contactCode(x) }),
  uploadCustomersCsv: (x) => ({ params: {}, multipart: customerCsv(x) }),
  getBulkCustomerImportJob: (x) => ({ params: { jobId: x.pool.id("Job", n(x)) } }),
  updateCustomerById: (x) => ({ params: { customerId: customer(x) }, body: { customerType: "INDIVIDUAL", fullName: `Renamed ${suffix(x)}` } }),
  deleteCustomerById: (x) => ({ params: { customerId: customer(x) } }),
  listCustomerInternalAccounts: (x) => ({ params: {}, query: listQuery(x, [`customerId=${encodeURIComponent(customer(x))}`]) }),
  exportInternalAccount: (x) => ({ params: { id: account(x) }, body: { clientPublicKey: key(x).publicKeyUncompressed } }),
  updateInternalAccount: (x) => ({ params: { id: account(x) }, body: { privateEnabled: x.r.chance(0.5) } }),
  createAuthCredential: (x) => ({
    params: {},
    body: x.r.chance(0.5) ? { type: "EMAIL_OTP", accountId: account(x) } : { type: "OAUTH", accountId: account(x), oidcToken: mintOidcToken({ sub: `u${x.r.int(100)}` }) }
  }),
  listAuthCredentials: (x) => ({ params: {}, query: listQuery(x, [`accountId=${encodeURIComponent(account(x))}`]) }),
  revokeAuthCredential: (x) => ({ params: { id: credential(x) } }),
  challengeAuthCredential: (x) => ({ params: { id: credential(x) }, ...(x.r.chance(0.5) ? { body: { clientPublicKey: key(x).publicKey } } : {}) }),
  verifyAuthCredential: (x) => ({ params: { id: credential(x) }, body: { type: "EMAIL_OTP", encryptedOtpBundle: otpBundle(x) } }),
  listAuthSessions: (x) => ({ params: {}, query: listQuery(x, [`accountId=${encodeURIComponent(account(x))}`]) }),
  revokeAuthSession: (x) => ({ params: { id: session(x) } }),
  refreshAuthSession: (x) => ({ params: { id: session(x) }, body: { clientPublicKey: key(x).publicKey } }),
  createCustomerExternalAccount: (x) => ({ params: {}, body: { customerId: customer(x), ...externalAccount(x) } }),
  listCustomerExternalAccounts: (x) => ({ params: {}, query: listQuery(x, [`customerId=${encodeURIComponent(customer(x))}`, "currency=USD"]) }),
  getCustomerExternalAccountById: (x) => ({ params: { externalAccountId: external(x) } }),
  deleteCustomerExternalAccountById: (x) => ({ params: { externalAccountId: external(x) } }),
  createExternalAccountOwnershipChallenge: (x) => ({ params: { externalAccountId: external(x) }, body: { method: "WALLET_SIGNATURE" } }),
  verifyExternalAccountOwnership: (x) => ({ params: { externalAccountId: external(x) }, body: { signature: `0x${digits(x, 130)}` } }),
  "tessera.decideLiveness": (x) => ({ params: { externalAccountId: external(x) }, body: { outcome: x.r.pick(["PASSED", "FAILED"]) } }),
  startBeneficiaryTrust: (x) => ({ params: { externalAccountId: external(x) } }),
  confirmBeneficiaryTrust: (x) => ({ params: { externalAccountId: external(x) }, body: { code: "123456", challengeId: x.pool.id("ScaChallenge", n(x)) } }),
  startBeneficiaryUntrust: (x) => ({ params: { externalAccountId: external(x) } }),
  confirmBeneficiaryUntrust: (x) => ({ params: { externalAccountId: external(x) }, body: { code: "123456", challengeId: x.pool.id("ScaChallenge", n(x)) } }),
  listPlatformInternalAccounts: (x) => ({ params: {}, query: listQuery(x, []) }),
  createPlatformExternalAccount: (x) => ({ params: {}, body: externalAccount(x) }),
  listPlatformExternalAccounts: (x) => ({ params: {}, query: listQuery(x, ["currency=USDC"]) }),
  getPlatformExternalAccountById: (x) => ({ params: { externalAccountId: external(x) } }),
  deletePlatformExternalAccountById: (x) => ({ params: { externalAccountId: external(x) } }),
  createPlatformExternalAccountOwnershipChallenge: (x) => ({ params: { externalAccountId: external(x) }, body: { method: "WALLET_SIGNATURE" } }),
  verifyPlatformExternalAccountOwnership: (x) => ({ params: { externalAccountId: external(x) }, body: { signature: `0x${digits(x, 130)}` } }),
  "tessera.listEvents": (x) => ({ params: {}, query: listQuery(x, []) }),
  sendTestWebhook: () => ({ params: {} }),
  "tessera.webhookPublicKey": () => ({ params: {} }),
  "tessera.holdAccountOperations": (x) => ({ params: { id: account(x) }, body: { operations: x.r.int(3), seconds: x.r.int(30) } }),
  "tessera.holdPlatformOperations": (x) => ({ params: {}, body: { operations: x.r.int(3), seconds: x.r.int(30) } }),
  "tessera.getClock": () => ({ params: {} }),
  "tessera.advanceClock": (x) => ({ params: {}, body: { seconds: x.r.pick([1, 5, 31, 60, 400, 3600]) } }),
  "tessera.resetSandbox": () => ({ params: {} }),
  "tessera.exportSandboxState": () => ({ params: {} }),
  sandboxFundInternalAccount: (x) => ({ params: { accountId: account(x) }, body: { amount: x.r.pick([1, 100, 100_000, 100_000_000_000]) } }),
  getExchangeRates: (x) => ({
    params: {},
    query: [x.r.chance(0.5) ? `sourceCurrency=${x.r.pick(["USD", "USDB", "EUR", "BTC"])}` : "", ...["EUR", "MXN", "INR"].filter(() => x.r.chance(0.3)).map((c) => `destinationCurrency=${c}`), x.r.chance(0.3) ? `sendingAmount=${x.r.int(1e9)}` : ""]
      .filter((q) => q !== "")
      .join("&")
  }),
  lookupUma: (x) => ({
    params: { receiverUmaAddress: x.r.pick(["$success.usd", "$success.eur", "$success.mxn", "$pending.long.usd", "$fail.compliance.usd", "$nobody"]) + "@sandbox.uma.money" },
    query: x.r.chance(0.3) ? `customerId=${encodeURIComponent(customer(x))}` : ""
  }),
  lookupExternalAccount: (x) => ({ params: { accountId: external(x) } }),
  estimateCryptoWithdrawalFee: (x) => ({
    params: {},
    body: { internalAccountId: account(x), currency: x.r.pick(["USDB", "USDC", "USD"]), cryptoNetwork: "SOLANA", amount: 1 + x.r.int(1e9), destinationAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" }
  }),
  createVerification: (x) => ({ params: {}, body: { customerId: customer(x) } }),
  listVerifications: (x) =>
    ({ params: {}, query: listQuery(x, [`customerId=${encodeURIComponent(customer(x))}`, "verificationStatus=RESOLVE_ERRORS"]) }),
  getVerification: (x) => ({ params: { verificationId: x.pool.id("Verification", n(x)) } }),
  createCustomerKycLink: (x) => ({ params: { customerId: customer(x) }, ...(x.r.chance(0.5) ? { body: { redirectUri: "https://app.example.com/done" } } : {}) }),
  "tessera.completeKycLink": (x) => ({
    params: { token: x.pool.kycTokens.at(-1 - x.r.int(Math.max(1, x.pool.kycTokens.length))) ?? "0".repeat(32) },
    body: { outcome: x.r.pick(["APPROVED", "REJECTED", "PENDING"]) }
  }),
  createBeneficialOwner: (x) => ({ params: {}, body: beneficialOwner(x) }),
  listBeneficialOwners: (x) => ({ params: {}, query: [`customerId=${encodeURIComponent(customer(x))}`, listQuery(x, [])].filter((q) => q !== "").join("&") }),
  getBeneficialOwner: (x) => ({ params: { beneficialOwnerId: x.pool.id("BeneficialOwner", n(x)) } }),
  updateBeneficialOwner: (x) => ({ params: { beneficialOwnerId: x.pool.id("BeneficialOwner", n(x)) }, body: { personalInfo: { lastName: `Owner ${suffix(x)}` } } }),
  "tessera.importSandboxState": (x) => ({ params: {}, body: x.pool.stateDocument ?? { format: "tessera-state", version: 1, collections: {} } }),
  // Transfers and transactions (issue 12).
  createTransferIn: (x) => ({ params: {}, body: { source: { accountId: external(x) }, destination: { accountId: account(x) }, amount: amount(x) } }),
  createTransferOut: (x) => ({
    params: {},
    body: { source: { accountId: account(x) }, destination: { accountId: external(x) }, amount: amount(x), ...(x.r.chance(0.3) ? { remittanceInformation: "fuzz" } : {}) }
  }),
  listTransactions: (x) =>
    ({ params: {}, query: listQuery(x, ["sortOrder=asc", "type=OUTGOING", "status=FAILED", `customerId=${encodeURIComponent(customer(x))}`, `accountIdentifier=${encodeURIComponent(account(x))}`]) }),
  getTransactionById: (x) => ({ params: { transactionId: transaction(x) } }),
  confirmReceiptDelivery: (x) => ({ params: { transactionId: transaction(x) }, ...(x.r.chance(0.5) ? { body: { receiptDeliveryConfirmedAt: "2026-02-01T10:00:00Z" } } : {}) }),
  approvePendingPayment: (x) => ({ params: { transactionId: transaction(x) } }),
  rejectPendingPayment: (x) => ({ params: { transactionId: transaction(x) }, body: { reason: "fuzz" } }),
  cancelTransaction: (x) => ({ params: { transactionId: transaction(x) } }),
  // Quotes (issue 12): every source and destination kind, executes with and without a key, sandbox payments.
  createQuote: (x) => ({
    params: {},
    body: {
      source: x.r.chance(0.7) ? { sourceType: "ACCOUNT", accountId: x.r.chance(0.7) ? account(x) : external(x) } : { sourceType: "REALTIME_FUNDING", currency: x.r.pick(["USD", "EUR", "MXN"]) },
      destination: x.r.chance(0.8)
        ? { destinationType: "ACCOUNT", accountId: x.r.chance(0.8) ? external(x) : account(x) }
        : { destinationType: "UMA_ADDRESS", umaAddress: x.r.pick(["$success.usd@sandbox.uma.money", "$fail.compliance.usd@sandbox.uma.money"]) },
      ...(x.r.chance(0.2) ? { lookupId: x.pool.id("Lookup", n(x)) } : {}),
      lockedCurrencySide: x.r.pick(["SENDING", "RECEIVING"]),
      lockedCurrencyAmount: x.r.pick([1, 100, 5_000, 250_000, 20_000_000]),
      ...(x.r.chance(0.2) ? { immediatelyExecute: true } : {})
    },
    ...(x.r.chance(0.3) ? { headers: { "idempotency-key": `fuzz-${x.r.int(20)}` } } : {})
  }),
  getQuoteById: (x) => ({ params: { quoteId: x.pool.id("Quote", n(x)) } }),
  executeQuote: (x) => ({ params: { quoteId: x.pool.id("Quote", n(x)) }, ...(x.r.chance(0.3) ? { headers: { "idempotency-key": `fuzz-${x.r.int(20)}` } } : {}) }),
  sandboxSend: (x) => ({ params: {}, body: { quoteId: x.pool.id("Quote", n(x)), currencyCode: x.r.pick(["USD", "EUR"]) } }),
  sandboxReceive: (x) => ({
    params: {},
    body: { senderUmaAddress: x.r.pick(["$success.usd@sandbox.uma.money", "$pending.long.usd@sandbox.uma.money"]), customerId: customer(x), receivingCurrencyCode: "USD", receivingCurrencyAmount: x.r.pick([1, 1_000, 50_000]) }
  }),
  getPlatformConfig: () => ({ params: {} }),
  updatePlatformConfig: (x) => ({
    params: {},
    body: x.r.pick<unknown>([
      // The discard port refuses at once: the TEST event is recorded as not delivered.
      { webhookEndpoint: `http://127.0.0.1:9/hooks/${x.r.int(5)}` },
      { embeddedWalletConfig: { appName: `Fuzz ${suffix(x)}`, otpLength: x.r.pick([4, 6, 12]) } },
      { supportedCurrencies: [{ currencyCode: "USD", minAmount: 1, maxAmount: amount(x), requiredCounterpartyFields: [{ name: "FULL_NAME", mandatory: true }], enabledTransactionTypes: ["OUTGOING"] }] },
      { counterpartyRequirements: x.r.chance(0.5) },
      { feeConfigs: [{ feeType: "CROSS_CURRENCY_TRANSACTION", sourceCurrency: "USD", variableFeeBps: x.r.int(3) * 10, fixedFee: { amount: 0, currency: "USD" } }] }
    ])
  }),
  createToken: (x) => ({ params: {}, body: { name: `fuzz-${x.r.int(5)}`, permissions: x.r.pick([["VIEW"], ["TRANSACT"], ["VIEW", "MANAGE"]]) } }),
  listTokens: (x) => ({ params: {}, query: listQuery(x, x.r.chance(0.3) ? [`name=fuzz-${x.r.int(5)}`] : []) }),
  getTokenById: (x) => ({ params: { tokenId: x.pool.id("Token", n(x)) } }),
  deleteTokenById: (x) => ({ params: { tokenId: x.pool.id("Token", n(x)) } }),
  createInvitation: (x) => ({
    params: {},
    body: { inviterUma: x.pool.umaAddresses.at(-1 - x.r.int(Math.max(1, x.pool.umaAddresses.length))) ?? "$nobody@sandbox.tessera.local", ...(x.r.chance(0.5) ? { firstName: "Fuzz", amountToSend: amount(x) } : {}) }
  }),
  getInvitation: (x) => ({ params: { invitationCode: invitation(x) } }),
  claimInvitation: (x) => ({ params: { invitationCode: invitation(x) }, body: { inviteeUma: `$invitee${x.r.int(100)}@other.example` } }),
  cancelInvitation: (x) => ({ params: { invitationCode: invitation(x) } }),
  // Delegated keys and directories (issue 13).
  createDelegatedKey: (x) => ({
    params: {},
    body: { cardId: card(x), internalAccountId: account(x), nickname: `Key ${suffix(x)}` }
  }),
  listDelegatedKeys: (x) => ({
    params: {},
    query: x.r.chance(0.7) ? `accountId=${encodeURIComponent(account(x))}` : `fundingSourceId=${encodeURIComponent(x.pool.id("CardFundingSource", n(x)))}`
  }),
  getDelegatedKeyById: (x) => ({ params: { id: x.pool.id("DelegatedKey", n(x)) } }),
  revokeDelegatedKey: (x) => ({ params: { id: x.pool.id("DelegatedKey", n(x)) } }),
  getDiscoveries: (x) => ({
    params: {},
    query: [x.r.chance(0.5) ? `country=${x.r.pick(["PH", "MX", "DE", "ZZ"])}` : "", x.r.chance(0.5) ? `currency=${x.r.pick(["PHP", "MXN", "EUR", "XYZ"])}` : ""].filter((q) => q !== "").join("&")
  }),
  getAvailableUmaProviders: (x) => ({
    params: {},
    query: listQuery(x, [`countryCode=${x.r.pick(["US", "MX", "PH"])}`, `currencyCode=${x.r.pick(["USD", "EUR"])}`, "hasBlockedProviders=false", `sortOrder=${x.r.pick(["asc", "desc"])}`])
  }),
  listVasps: (x) => ({ params: {}, query: listQuery(x, []) }),
  // Strong customer authentication (issue 13): factors, logins, events, resets, quote authorization.
  listScaFactors: (x) => ({ params: {}, query: `customerId=${encodeURIComponent(customer(x))}` }),
  startScaFactorEnrollment: (x) => ({ params: {}, query: `customerId=${encodeURIComponent(customer(x))}`, body: { type: x.r.pick(["TOTP", "PASSKEY"]) } }),
  confirmScaFactorEnrollment: (x) => ({
    params: {},
    query: `customerId=${encodeURIComponent(customer(x))}`,
    body: x.r.chance(0.5) ? { type: "TOTP", secret: "JBSWY3DPEHPK3PXP", code: "123456" } : { type: "PASSKEY", origin: "https://sca.tessera.sandbox", credential: { id: "AAAA", response: {} } }
  }),
  deleteScaFactor: (x) => ({ params: { credentialId: x.r.pick(["AAAA", digits(x, 8)]) }, query: `customerId=${encodeURIComponent(customer(x))}` }),
  startScaLogin: (x) => ({ params: {}, query: `customerId=${encodeURIComponent(customer(x))}`, body: { factor: x.r.pick(["SMS_OTP", "TOTP", "PASSKEY"]) } }),
  completeScaLogin: (x) => ({
    params: {},
    query: `customerId=${encodeURIComponent(customer(x))}`,
    body: { factor: "SMS_OTP", endUserIpAddress: "203.0.113.42", code: x.r.pick(["123456", "000000"]), challengeId: x.pool.id("ScaChallenge", n(x)) }
  }),
  recordSecurityEvent: (x) => ({ params: {}, query: `customerId=${encodeURIComponent(customer(x))}`, body: { eventType: x.r.pick(["FAILED_LOGIN_ATTEMPT", "RESET_PASSWORD_COMPLETED"]) } }),
  startTwoFactorReset: (x) => ({ params: {}, query: `customerId=${encodeURIComponent(customer(x))}`, body: { factor: x.r.pick(["SMS_OTP", "TOTP", "PASSKEY"]) } }),
  getTwoFactorResetStatus: (x) => ({ params: { resetId: x.pool.id("ScaReset", n(x)) }, query: `customerId=${encodeURIComponent(customer(x))}` }),
  completeTwoFactorReset: (x) => ({
    params: { resetId: x.pool.id("ScaReset", n(x)) },
    query: `customerId=${encodeURIComponent(customer(x))}`,
    ...(x.r.chance(0.5) ? { body: { mobile: { countryCode: "+49", number: digits(x, 10) } } } : {})
  }),
  authorizeQuote: (x) => ({ params: { quoteId: x.pool.id("Quote", n(x)) }, body: { code: x.r.pick(["123456", "000000"]) } }),
  resendQuoteScaCode: (x) => ({ params: { quoteId: x.pool.id("Quote", n(x)) } }),
  // Cards (issue 13): issue to any customer, every suffix; every state change; the ten simulators.
  createCard: (x) => ({
    params: {},
    body: {
      cardholderId: customer(x),
      form: "VIRTUAL",
      fundingSources: [account(x)],
      platformCardId: `fuzz-card-${x.r.int(1e6)}${x.r.pick(["", "001", "002", "005"])}`,
      ...(x.r.chance(0.3) ? { maxSpendPerTransaction: amount(x) } : {})
    }
  }),
  listCards: (x) => ({ params: {}, query: listQuery(x, ["sortOrder=asc", "state=ACTIVE", `cardholderId=${encodeURIComponent(customer(x))}`, `accountId=${encodeURIComponent(account(x))}`]) }),
  getCardById: (x) => ({ params: { id: card(x) } }),
  updateCardById: (x) => ({
    params: { id: card(x) },
    body: x.r.pick([{ state: "FROZEN" }, { state: "ACTIVE" }, { state: "CLOSED" }, { maxSpendPerTransaction: null }, { fundingSources: [account(x)] }])
  }),
  revealCard: (x) => ({ params: { id: card(x) }, ...(x.r.chance(0.5) ? { body: { clientPublicKey: key(x).publicKeyUncompressed } } : {}) }),
  sandboxSimulateCardAuthorization: (x) => ({ params: { id: card(x) }, body: cardAuth(x) }),
  sandboxSimulateCardClearing: (x) => ({ params: { id: card(x) }, body: { cardTransactionId: cardTransaction(x), amount: x.r.pick([0, 1, 700, 12_550]) } }),
  sandboxSimulateCardReturn: (x) => ({ params: { id: card(x) }, body: { cardTransactionId: cardTransaction(x), amount: x.r.pick([1, 700]) } }),
  sandboxSimulateCardBalanceInquiry: (x) => ({ params: { id: card(x) }, body: { merchant: cardAuth(x).merchant } }),
  sandboxSimulateCardCreditAuthorization: (x) => ({ params: { id: card(x) }, body: cardAuth(x) }),
  sandboxSimulateCardFinancialAuthorization: (x) => ({ params: { id: card(x) }, body: cardAuth(x) }),
  sandboxSimulateCardFinancialCreditAuthorization: (x) => ({ params: { id: card(x) }, body: cardAuth(x) }),
  sandboxSimulateCardAuthorizationAdvice: (x) => ({ params: { id: card(x) }, body: { cardTransactionId: cardTransaction(x), amount: amount(x) } }),
  sandboxSimulateCardCreditAuthorizationAdvice: (x) => ({ params: { id: card(x) }, body: cardAuth(x) }),
  sandboxSimulateCardReturnReversal: (x) => ({ params: { id: card(x) }, body: { cardTransactionId: cardTransaction(x) } }),
  // Stablecoins (issue 16): every link suffix, registration with and without a named link, mints
  // and burns of every source over every sandbox amount (cents ending 002, 003, else).
  linkStablecoinProviderAccount: (x) => ({
    params: {},
    headers: idempotencyKey(x),
    body: { provider: "BRALE", apiClientId: `fuzz-client-${x.r.int(20)}${x.r.pick(["", "002", "003", "004"])}`, apiClientSecret: "fuzz-secret" }
  }),
  listStablecoinProviderAccounts: (x) => ({ params: {}, query: listQuery(x, ["provider=BRALE", "status=ACTIVE", "status=REVOKED", "status=INVALID"]) }),
  getStablecoinProviderAccount: (x) => ({ params: { stablecoinProviderAccountId: x.pool.id("StablecoinProviderAccount", n(x)) } }),
  registerStablecoin: (x) => ({
    params: {},
    headers: idempotencyKey(x),
    body: {
      providerTokenIdentifier: `FZ${x.r.int(1e6)}`,
      networkTokenIdentifier: `btkn1${Array.from({ length: 38 }, () => x.r.pick([..."qpzry9x8gf2tvdw0s3jn54khce6mua7l"])).join("")}`,
      network: "SPARK",
      ...(x.r.chance(0.5) ? { stablecoinProviderAccountId: x.pool.id("StablecoinProviderAccount", n(x)) } : {})
    }
  }),
  listStablecoins: (x) => ({ params: {}, query: listQuery(x, ["issuanceStatus=PROVISIONED", "gridOperationsStatus=NOT_ENABLED", "provider=BRALE"]) }),
  getStablecoin: (x) => ({ params: { stablecoinId: x.pool.id("Stablecoin", n(x)) } }),
  createStablecoinMint: (x) => ({
    params: { stablecoinId: x.pool.id("Stablecoin", n(x)) },
    headers: idempotencyKey(x),
    body: {
      amount: stablecoinAmount(x),
      fundingSource: x.r.pick([
        { type: "WIRE" },
        { type: "ACH_DEBIT", externalAccountId: external(x) },
        { type: "SAME_DAY_ACH_DEBIT", externalAccountId: external(x) },
        { type: "GRID_INTERNAL_ACCOUNT", accountId: account(x) },
        { type: "PROVIDER_INTERNAL_BALANCE", sourceTokenIdentifier: "USDC", cryptoNetwork: "SOLANA" }
      ]),
      destination: { accountId: external(x) }
    }
  }),
  createStablecoinBurn: (x) => ({
    params: { stablecoinId: x.pool.id("Stablecoin", n(x)) },
    headers: idempotencyKey(x),
    body: {
      amount: stablecoinAmount(x),
      source: x.r.pick([{ type: "EXTERNAL_ACCOUNT" }, { type: "PROVIDER_INTERNAL_BALANCE" }, { type: "GRID_INTERNAL_ACCOUNT", accountId: account(x) }]),
      destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: external(x), rail: x.r.pick(["WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT"]) }
    }
  }),
  listStablecoinOperations: (x) => ({ params: { stablecoinId: x.pool.id("Stablecoin", n(x)) }, query: listQuery(x, ["operationType=MINT", "operationType=BURN"]) }),
  getStablecoinOperation: (x) => ({ params: { stablecoinOperationId: x.pool.id("StablecoinOperation", n(x)) } }),
  ...agentTemplates
}

const invitation = (x: Ctx) => x.pool.invitationCodes.at(-1 - x.r.int(Math.max(1, x.pool.invitationCodes.length))) ?? "00000000deadbeef"
