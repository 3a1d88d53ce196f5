/**
 * `@tessera/core/operations`: every use case as an Effect program over the ports, grouped as the
 * API is, plus the signed-retry mechanism they share. The endpoint table (`endpointPrograms`) is
 * the usual way to reach them; this entry is for programs that compose them directly.
 */
export * from "./customers/customers.ts"
export * from "./customers/queries.ts"
export * from "./documents/documents.ts"
export * from "./internal-accounts/queries.ts"
export * from "./internal-accounts/wallet-account.ts"
export * from "./external-accounts/external-accounts.ts"
export * from "./external-accounts/ownership.ts"
export * from "./external-accounts/beneficiary-trust.ts"
export * from "./external-accounts/travel-rule.ts"
export * from "./wallet-auth/credentials.ts"
export * from "./wallet-auth/credential-auth.ts"
export * from "./wallet-auth/sessions.ts"
export * from "./webhooks/events.ts"
export * from "./webhooks/delivery.ts"
export * from "./platform/platforms.ts"
export * from "./platform/health.ts"
export * from "./sandbox/state.ts"
export * from "./sandbox/clock.ts"
export * from "./sandbox/processing-control.ts"
export * from "./sandbox/fund.ts"
export * as ledger from "./ledger/index.ts"
export * from "../signed-retry/index.ts"
