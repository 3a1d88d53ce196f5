import { collection, sortableTimestamp } from "../ports/store.ts"
import type { AuthMethodRecord } from "./wallet-auth/auth-method.ts"
import type { SessionRecord } from "./wallet-auth/session.ts"
import type { ExternalAccountRecord } from "./external-accounts/record.ts"
import type { OtpIssuanceRecord, PasskeyChallengeRecord, ProcessingControlRecord, SignedRequestRecord } from "./wallet-auth/records.ts"
import type { CustomerRecord } from "./customers/customer.ts"
import type { InternalAccountRecord } from "./internal-accounts/internal-account.ts"
import type { PlatformRecord } from "./platform/platform.ts"
import type { DocumentFileRecord, DocumentRecord } from "./documents/document.ts"
import type { BeneficialOwnerRecord } from "./beneficial-owners/beneficial-owner.ts"
import type { KycLinkRecord, VerificationRecord } from "./verifications/verification.ts"
import type { BulkImportJobRecord } from "./customers/bulk-import.ts"
import type { LedgerBalanceRecord, LedgerMovementRecord } from "./ledger/ledger.ts"
import type { QuoteRecord } from "./quotes/quote.ts"
import type { IdempotencyRecord } from "./idempotency.ts"
import type { ReceiverLookupRecord } from "./receivers/lookup.ts"
import type { ApiTokenRecord } from "./platform/api-token.ts"
import type { InvitationRecord } from "./invitations/invitation.ts"
import type { DelegatedKeyRecord } from "./delegated-keys/delegated-key.ts"
import type { ScaProfileRecord, ScaResetRecord } from "./sca/records.ts"
import type { CardRecord } from "./cards/card.ts"
import type { StoredTransaction } from "./transactions/stored.ts"
import type { StablecoinOperationRecord, StablecoinProviderAccountRecord, StablecoinRecord } from "./stablecoins/records.ts"
import type { AgentActionRecord, AgentCredentialRecord, AgentDeviceCodeRecord, AgentQuoteRecord, AgentRecord } from "./agents/agent.ts"

/** Every collection the engine stores, with its indexes, in one place. */

export const Platforms = collection<PlatformRecord>()("platforms", (p) => p.id, {
  clientId: { kind: "plain", keys: (p) => p.clientId },
  // The webhook worker's tick reads only the platforms it has somewhere to send to.
  withWebhook: { kind: "plain", keys: (p) => (p.webhookUrl === undefined ? undefined : "yes") }
})

export const Customers = collection<CustomerRecord>()("customers", (c) => c.id, {
  // Unique among active customers (409): a deleted customer's ids are free to take again.
  // Declared first, so a customer clashing on both answers the platformCustomerId conflict.
  // Each a filter of its plain twin below (`within`): the memory store answers them from the
  // twin's entries, one Map fewer per customer (DECISIONS #421).
  activePlatformCustomerId: { kind: "unique", within: "platformCustomerId", keys: (c) => (c.isDeleted ? undefined : c.platformCustomerId) },
  umaAddress: { kind: "unique", within: "anyUmaAddress", keys: (c) => (c.isDeleted ? undefined : c.umaAddress.toLowerCase()) },
  // The list filters, each an index; the list's default hides deleted customers, so "active"
  // is a key of its own and its counter is the default page's totalCount.
  active: { kind: "plain", counted: true, keys: (c) => (c.isDeleted ? undefined : "yes") },
  platformCustomerId: { kind: "plain", keys: (c) => c.platformCustomerId },
  anyUmaAddress: { kind: "plain", keys: (c) => c.umaAddress.toLowerCase() },
  customerType: { kind: "plain", keys: (c) => c.customerType },
  region: { kind: "plain", keys: (c) => c.region },
  currency: { kind: "plain", keys: (c) => c.currencies },
  createdAt: { kind: "ordered", keys: (c) => sortableTimestamp(c.createdAt) },
  updatedAt: { kind: "ordered", keys: (c) => sortableTimestamp(c.updatedAt) }
})

export const InternalAccounts = collection<InternalAccountRecord>()("internalAccounts", (a) => a.id, {
  customerId: { kind: "plain", keys: (a) => a.customerId ?? "platform" },
  ownerKind: { kind: "plain", counted: true, keys: (a) => (a.customerId === undefined ? "platform" : "customer") },
  type: { kind: "plain", keys: (a) => a.type },
  currency: { kind: "plain", keys: (a) => a.balance.currency.code }
})

export const AuthMethods = collection<AuthMethodRecord>()("authMethods", (a) => a.id, {
  accountId: { kind: "plain", keys: (a) => a.accountId },
  email: { kind: "plain", keys: (a) => a.email?.toLowerCase() }
})

export const Sessions = collection<SessionRecord>()("sessions", (s) => s.id, {
  accountId: { kind: "plain", keys: (s) => s.accountId },
  publicKey: { kind: "plain", keys: (s) => s.publicKey }
})

export const SignedRequests = collection<SignedRequestRecord>()("signedRequests", (r) => r.id, {
  // Only held operations are indexed: reconciliation looks for them per account.
  processingAccount: { kind: "plain", keys: (r) => (r.state === "PROCESSING" ? r.accountId : undefined) }
})

export const ProcessingControls = collection<ProcessingControlRecord>()("processingControls", (c) => c.id)

export const OtpIssuances = collection<OtpIssuanceRecord>()("otpIssuances", (o) => o.id)

export const PasskeyChallenges = collection<PasskeyChallengeRecord>()("passkeyChallenges", (c) => c.id)

export const ExternalAccounts = collection<ExternalAccountRecord>()("externalAccounts", (a) => a.id, {
  owner: { kind: "plain", counted: true, keys: (a) => a.customerId ?? "platform" },
  ownerKind: { kind: "plain", counted: true, keys: (a) => (a.customerId === undefined ? "platform" : "customer") },
  currency: { kind: "plain", keys: (a) => a.currency },
  // One account per owner, type and identifier: a second is 409 (reference: "already exists").
  identity: { kind: "unique", keys: (a) => a.identityKey },
  defaultUma: { kind: "plain", keys: (a) => (a.defaultUmaDepositAccount && a.customerId !== undefined ? a.customerId : undefined) }
})

export const Documents = collection<DocumentRecord>()("documents", (d) => d.id, {
  documentHolder: { kind: "plain", counted: true, keys: (d) => d.documentHolder },
  // A verification reads every document of a customer, its beneficial owners' included.
  customerId: { kind: "plain", keys: (d) => d.customerId },
  createdAt: { kind: "ordered", keys: (d) => sortableTimestamp(d.createdAt) }
})

/** Document bytes, apart from the documents so that no list or view reads them. */
export const DocumentFiles = collection<DocumentFileRecord>()("documentFiles", (f) => f.id)

export const BeneficialOwners = collection<BeneficialOwnerRecord>()("beneficialOwners", (o) => o.id, {
  customerId: { kind: "plain", counted: true, keys: (o) => o.customerId },
  createdAt: { kind: "ordered", keys: (o) => sortableTimestamp(o.createdAt) }
})

export const Verifications = collection<VerificationRecord>()("verifications", (v) => v.id, {
  customerId: { kind: "plain", keys: (v) => v.customerId },
  verificationStatus: { kind: "plain", keys: (v) => v.verificationStatus },
  createdAt: { kind: "ordered", keys: (v) => sortableTimestamp(v.createdAt) }
})

/** Hosted KYC links, by their token; a customer's are read when it is reset or exported only. */
export const KycLinks = collection<KycLinkRecord>()("kycLinks", (l) => l.id, {
  customerId: { kind: "plain", keys: (l) => l.customerId }
})

/** Bulk customer imports (`POST /customers/bulk/csv`), read back by id. */
export const BulkImportJobs = collection<BulkImportJobRecord>()("bulkImportJobs", (j) => j.id)

/**
 * Transactions (OUTGOING, INCOMING and CARD), with the reference's list filters as indexes. The
 * identifiers are the accounts' ids and their rail identifiers (account number, address).
 */
export const Transactions = collection<StoredTransaction>()("transactions", (t) => t.id, {
  customerId: { kind: "plain", keys: (t) => t.customerId },
  platformCustomerId: { kind: "plain", keys: (t) => t.platformCustomerId },
  status: { kind: "plain", keys: (t) => t.status },
  type: { kind: "plain", counted: true, keys: (t) => t.type },
  reference: { kind: "plain", keys: (t) => (t.type === "CARD" ? undefined : t.reference) },
  // A card's transactions (the card simulators find their parent by it).
  card: { kind: "plain", keys: (t) => (t.type === "CARD" ? t.cardId : undefined) },
  senderIdentifier: { kind: "plain", keys: (t) => t.senderIdentifiers },
  receiverIdentifier: { kind: "plain", keys: (t) => t.receiverIdentifiers },
  accountIdentifier: { kind: "plain", keys: (t) => [...new Set([...t.senderIdentifiers, ...t.receiverIdentifiers])] },
  createdAt: { kind: "ordered", keys: (t) => sortableTimestamp(t.createdAt) }
})

/** The ledger's maintained balances, one per ledger account (internal accounts and the world's), by account id. */
export const LedgerBalances = collection<LedgerBalanceRecord>()("ledgerBalances", (b) => b.id)

/** The journal: every movement with its entries, found by the resource it belongs to (a transaction, a funding). */
export const LedgerMovements = collection<LedgerMovementRecord>()("ledgerMovements", (m) => m.id, {
  reference: { kind: "plain", keys: (m) => m.reference }
})

/** Receiver lookups by their `Lookup:<uuid>` id, the `lookupId` a quote names. */
export const ReceiverLookups = collection<ReceiverLookupRecord>()("receiverLookups", (l) => l.id)

/** Quotes (`POST /quotes`), read back by id; there is no list of quotes in the reference. */
export const Quotes = collection<QuoteRecord>()("quotes", (q) => q.id)

/** The first answer to each `Idempotency-Key` of a platform, replayed for the same request. */
export const IdempotencyKeys = collection<IdempotencyRecord>()("idempotencyKeys", (k) => k.id)

/**
 * API tokens live in the server scope beside the platforms (DECISIONS #244): authentication finds
 * one by its client id before it knows the platform. Credentials, not sandbox state: a reset or a
 * state document neither removes nor carries them.
 */
export const ApiTokens = collection<ApiTokenRecord>()("apiTokens", (t) => t.id, {
  clientId: { kind: "unique", keys: (t) => t.clientId },
  platform: { kind: "plain", counted: true, keys: (t) => t.platformId },
  name: { kind: "plain", keys: (t) => `${t.platformId} ${t.name}` },
  createdAt: { kind: "ordered", keys: (t) => sortableTimestamp(t.createdAt) },
  updatedAt: { kind: "ordered", keys: (t) => sortableTimestamp(t.updatedAt) }
})

/** UMA invitations of a platform, by code (DECISIONS #250). */
export const Invitations = collection<InvitationRecord>()("invitations", (i) => i.id)
/** Delegated signing keys of card funding sources (`/auth/delegated-keys`). */
export const DelegatedKeys = collection<DelegatedKeyRecord>()("delegatedKeys", (k) => k.id, {
  accountId: { kind: "plain", keys: (k) => k.accountId },
  fundingSourceId: { kind: "plain", keys: (k) => k.fundingSourceId },
  // At most one ACTIVE key per funding source (DECISIONS #264), enforced by the store as well.
  activeFundingSource: { kind: "unique", keys: (k) => (k.status === "ACTIVE" ? k.fundingSourceId : undefined) },
  // The signer check of a signed retry finds a stamp's key here (DECISIONS #265).
  publicKey: { kind: "plain", keys: (k) => k.publicKey }
})

/** A customer's SCA factors, login, session and lockout, one record per SCA customer (id = the customer's). */
export const ScaProfiles = collection<ScaProfileRecord>()("scaProfiles", (p) => p.id)

/** 2FA resets by their `ScaReset:<uuid>` id. */
export const ScaResets = collection<ScaResetRecord>()("scaResets", (r) => r.id, {
  customerId: { kind: "plain", keys: (r) => r.customerId }
})

/**
 * Cards (`POST /cards`), with the reference's list filters as indexes; `accountId` is each bound
 * funding source.
 */
export const Cards = collection<CardRecord>()("cards", (c) => c.id, {
  cardholderId: { kind: "plain", keys: (c) => c.cardholderId },
  accountId: { kind: "plain", keys: (c) => c.fundingSources },
  platformCardId: { kind: "plain", keys: (c) => c.platformCardId },
  state: { kind: "plain", keys: (c) => c.state }
})

/**
 * Stablecoin provider account links (DECISIONS #352): one per provider account, so linking the
 * same account again refreshes its credentials; the list filters and the selection rule read the
 * status index.
 */
export const StablecoinProviderAccounts = collection<StablecoinProviderAccountRecord>()("stablecoinProviderAccounts", (a) => a.id, {
  account: { kind: "unique", keys: (a) => `${a.provider}|${a.providerAccountId}` },
  provider: { kind: "plain", keys: (a) => a.provider },
  status: { kind: "plain", keys: (a) => a.status }
})

/** Registered stablecoins: one per provider token and one per network token (a second is 409, #354). */
export const Stablecoins = collection<StablecoinRecord>()("stablecoins", (s) => s.id, {
  providerToken: { kind: "unique", keys: (s) => `${s.provider}|${s.providerEnvironment}|${s.providerTokenIdentifier.toUpperCase()}` },
  networkToken: { kind: "unique", keys: (s) => s.networkTokenIdentifier },
  issuanceStatus: { kind: "plain", keys: (s) => s.issuanceStatus },
  gridOperationsStatus: { kind: "plain", keys: (s) => s.gridOperationsStatus },
  provider: { kind: "plain", keys: (s) => s.provider }
})

/** Mints and burns, listed per stablecoin (and type), newest first. */
export const StablecoinOperations = collection<StablecoinOperationRecord>()("stablecoinOperations", (o) => o.id, {
  stablecoin: { kind: "plain", counted: true, keys: (o) => o.stablecoinId },
  stablecoinType: { kind: "plain", keys: (o) => `${o.stablecoinId}|${o.operationType}` }
})

/** Agents of a platform (`/agents`, DECISIONS #370), with the reference's list filters as indexes. */
export const Agents = collection<AgentRecord>()("agents", (a) => a.id, {
  customerId: { kind: "plain", keys: (a) => a.customerId },
  isPaused: { kind: "plain", keys: (a) => String(a.isPaused) },
  isConnected: { kind: "plain", keys: (a) => String(a.isConnected) },
  createdAt: { kind: "ordered", keys: (a) => sortableTimestamp(a.createdAt) },
  updatedAt: { kind: "ordered", keys: (a) => sortableTimestamp(a.updatedAt) }
})

/** Actions agents submitted (transfers, quote executions); `pending` is the platform's approval queue. */
export const AgentActions = collection<AgentActionRecord>()("agentActions", (a) => a.id, {
  agentId: { kind: "plain", keys: (a) => a.agentId },
  customerId: { kind: "plain", keys: (a) => a.customerId },
  status: { kind: "plain", keys: (a) => a.status },
  // A pending action keyed by the end of its approval window: the queue lists those still open (DECISIONS #392).
  pending: { kind: "ordered", keys: (a) => (a.status === "PENDING_APPROVAL" ? sortableTimestamp(a.expiresAt) : undefined) },
  createdAt: { kind: "ordered", keys: (a) => sortableTimestamp(a.createdAt) }
})

/** The quotes agents created, by quote id. */
export const AgentQuotes = collection<AgentQuoteRecord>()("agentQuotes", (q) => q.id)

/**
 * Device codes and agent credentials live in the server scope, like API tokens (DECISIONS #373):
 * redemption and Bearer authentication find them before they know the platform. Credentials,
 * not sandbox state: a state document does not carry them, and one whose agent is gone (deleted,
 * reset) authenticates nobody.
 */
export const AgentDeviceCodes = collection<AgentDeviceCodeRecord>()("agentDeviceCodes", (c) => c.id, {
  agentId: { kind: "plain", keys: (c) => c.agentId }
})
export const AgentCredentials = collection<AgentCredentialRecord>()("agentCredentials", (c) => c.id, {
  agentId: { kind: "plain", keys: (c) => c.agentId }
})
