/**
 * `@tessera/core`: the engine, its endpoint table, the domain's types and errors, the ports, the
 * sandbox language and the limits. Three subpaths hold the rest: `/operations` (every use case as
 * an Effect, and the signed-retry mechanism), `/crypto` (the checks, one module per scheme) and
 * `/store-kit` (what a storage adapter shares: write permits, transactions, the list planner).
 */

// The engine: built from layers, run as Promises or Effects, or composed as a Layer.
export * from "./engine.ts"

// The endpoint table, and the typed embedding API derived from it (`engine.as(platform)`).
export * from "./endpoints/index.ts"

// Domain: the error catalogue and its envelope, ids, replies, pages, timestamps.
export * from "./domain/errors.ts"
export * from "./domain/envelope.ts"
export * from "./domain/ids.ts"
export * from "./domain/reply.ts"
export * from "./domain/time.ts"
export { type FieldError, fieldErrorsOf, invalidInput } from "./domain/field-errors.ts"
export { decodeCursor, encodeCursor, type ListResponse } from "./domain/pagination.ts"

// Domain: every stored collection, and the records and views of each resource group.
export * from "./domain/collections.ts"
export type { PlatformRecord, PlatformSettings } from "./domain/platform/platform.ts"
export { type ApiTokenRecord, type Permission, permissions } from "./domain/platform/api-token.ts"
export { type InvitationRecord, type InvitationStatus } from "./domain/invitations/invitation.ts"
export {
  BusinessCreate,
  BusinessUpdate,
  type CustomerRecord,
  CustomerType,
  type CustomerView,
  customerView,
  IndividualCreate,
  IndividualUpdate
} from "./domain/customers/customer.ts"
export type { InternalAccountRecord, InternalAccountType } from "./domain/internal-accounts/internal-account.ts"
export { type CardRecord, CardState, type CardView, cardView } from "./domain/cards/card.ts"
export { type CardTransactionRecord, CardTransactionStatus, type CardTransactionView, cardTransactionView } from "./domain/cards/card-transaction.ts"
export { isPayment, type StoredTransaction, storedTransactionView } from "./domain/transactions/stored.ts"
export { type DocumentFileRecord, type DocumentRecord, type DocumentView, documentView } from "./domain/documents/document.ts"
export { type AuthMethodRecord, authMethodView, type CredentialType } from "./domain/wallet-auth/auth-method.ts"
export { type SessionRecord, sessionView } from "./domain/wallet-auth/session.ts"
export type { OtpIssuanceRecord, PasskeyChallengeRecord, ProcessingControlRecord, SignedRequestRecord } from "./domain/wallet-auth/records.ts"
export { ChallengeBody, CredentialCreate, CredentialVerify, ExportBody, InternalAccountUpdate, RefreshBody } from "./domain/wallet-auth/inputs.ts"
export {
  type BeneficiaryVerificationStatus,
  type ExternalAccountRecord,
  type ExternalAccountStatus,
  externalAccountView
} from "./domain/external-accounts/record.ts"
export { accountTypes, decodeAccountInfo } from "./domain/external-accounts/variants.ts"
export * from "./domain/transactions/transaction.ts"
export type { OutcomePlan, PlanStep } from "./domain/transactions/outcome-plan.ts"
export { type DueStepRecord, DueSteps } from "./domain/transactions/due-step.ts"
export * from "./domain/sca/records.ts"
export { checkStateDocument, type PlatformState, STATE_FORMAT, STATE_VERSION, StateDocument, stateCollections } from "./domain/sandbox/state-document.ts"

// Ports: what the engine asks of the world, with their stock layers.
export * from "./ports/store.ts"
export * from "./ports/ids.ts"
export * from "./ports/keys.ts"
export * from "./ports/notifier.ts"
export * from "./ports/time-control.ts"
export * from "./ports/webhook-transport.ts"

// The sandbox language (suffix tables, fixed codes, legacy literals) and every lifetime and limit.
export * from "./sandbox/index.ts"
export * from "./limits.ts"

// What a transport needs besides the table: authentication, the health probe, webhook passes.
export { authenticate, authenticatePrincipal, type Principal, type ClientCredentials, credentialsRefused, type CredentialsRefusal, ensurePlatform, openPlatform, PENDING_SECRET_HASH, type PlatformInput, settleSecret } from "./operations/platform/platforms.ts"
export { healthCheck } from "./operations/platform/health.ts"
export { agentCredentialsRefused, type AgentPrincipal, authenticateAgent, bearerToken, platformOfDeviceCode } from "./operations/agents/credentials.ts"
export type { AgentRecord, AgentActionRecord, AgentPolicy } from "./domain/agents/agent.ts"
export { deliverAll, deliverDue, webhookPublicKey } from "./operations/webhooks/delivery.ts"
export { runDueSteps } from "./operations/transactions/due-runner.ts"
export type { SignedHeaders } from "./signed-retry/signed-retry.ts"
export type { SignedTarget } from "./signed-retry/target.ts"
