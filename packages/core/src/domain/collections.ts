import { collection } from "../ports/store.ts"
import type { AuthMethodRecord } from "./wallet-auth/auth-method.ts"
import type { SessionRecord } from "./wallet-auth/session.ts"
import type { ExternalAccountRecord } from "./external-accounts/record.ts"
import type { OtpIssuanceRecord, PasskeyChallengeRecord, ProcessingControlRecord, SignedRequestRecord } from "./wallet-auth/records.ts"
import type { CustomerRecord } from "./customers/customer.ts"
import type { InternalAccountRecord } from "./internal-accounts/internal-account.ts"
import type { PlatformRecord } from "./platform/platform.ts"

/** Every collection the engine stores, with its indexes, in one place. */

export const Platforms = collection<PlatformRecord>()("platforms", (p) => p.id, {
  clientId: (p) => p.clientId
})

export const Customers = collection<CustomerRecord>()("customers", (c) => c.id, {
  platformCustomerId: (c) => c.platformCustomerId,
  umaAddress: (c) => (c.isDeleted ? undefined : c.umaAddress.toLowerCase())
})

export const InternalAccounts = collection<InternalAccountRecord>()("internalAccounts", (a) => a.id, {
  customerId: (a) => a.customerId ?? "platform"
})

export const AuthMethods = collection<AuthMethodRecord>()("authMethods", (a) => a.id, {
  accountId: (a) => a.accountId,
  email: (a) => a.email?.toLowerCase()
})

export const Sessions = collection<SessionRecord>()("sessions", (s) => s.id, {
  accountId: (s) => s.accountId,
  publicKey: (s) => s.publicKey
})

export const SignedRequests = collection<SignedRequestRecord>()("signedRequests", (r) => r.id, {
  // Only held operations are indexed: reconciliation looks for them per account.
  processingAccount: (r) => (r.state === "PROCESSING" ? r.accountId : undefined)
})

export const ProcessingControls = collection<ProcessingControlRecord>()("processingControls", (c) => c.id)

export const OtpIssuances = collection<OtpIssuanceRecord>()("otpIssuances", (o) => o.id)

export const PasskeyChallenges = collection<PasskeyChallengeRecord>()("passkeyChallenges", (c) => c.id)

export const ExternalAccounts = collection<ExternalAccountRecord>()("externalAccounts", (a) => a.id, {
  owner: (a) => a.customerId ?? "platform",
  // One account per owner, type and identifier: a second is 409 (reference: "already exists").
  identity: (a) => a.identityKey,
  defaultUma: (a) => (a.defaultUmaDepositAccount && a.customerId !== undefined ? a.customerId : undefined)
})
