import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { BusinessCreate, BusinessInfoUpdate, BusinessUpdate, IndividualCreate, IndividualUpdate } from "../customers/customer.ts"
import { ContactVerificationStatus } from "../customers/contact-verification.ts"
import { IdSchema } from "../ids.ts"
import { InternalAccountType } from "../internal-accounts/internal-account.ts"
import { ClientPublicKey, UncompressedPublicKey } from "../wallet-auth/inputs.ts"
import { lazily } from "./lazily.ts"

/**
 * What an imported record must satisfy (README, "Sandbox state"): the fields the indexes, list
 * filters, views and later operations read, with the types and formats they assume. Records are
 * checked, never rewritten: a field not named here is kept as it is, so a record field added later
 * needs no new format version. Body-derived customer fields reuse the request schemas, so a record
 * the engine wrote always passes.
 */

/** A time in ms that `new Date(ms).toISOString()` can render (views print expiries). */
export const recordStates = lazily(() => {
  const Millis = Schema.Number.pipe(Schema.int(), Schema.between(0, 8.64e15, { message: () => "must be a time in ms since 1970" }))
  const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
  const Hex = (bytes: number) =>
    Schema.String.pipe(Schema.pattern(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), { message: () => `must be ${bytes} bytes of hex` }))
  const Status = Schema.Literal("UNVERIFIED", "PENDING", "APPROVED", "REJECTED", "HOLD")
  const CredentialType = Schema.Literal("PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP")
  const stamps = { createdAt: DateTimeString, updatedAt: DateTimeString }

  const PendingCode = Schema.Struct({ expiresAtMs: Millis, failedAttempts: Count })
  const customerRecord = {
    id: IdSchema("Customer"),
    platformCustomerId: NonEmpty(128),
    // Generated addresses use the platform's UMA domain, which need not be a public one.
    umaAddress: NonEmpty(256),
    isDeleted: Schema.Boolean,
    contactVerification: optional(Schema.Struct({ email: optional(ContactVerificationStatus), phone: optional(ContactVerificationStatus) })),
    contactCodes: optional(Schema.Struct({ email: optional(PendingCode), phone: optional(PendingCode) })),
    ...stamps
  }
  const CustomerState = Schema.Union(
    Schema.Struct({ ...IndividualCreate.fields, ...customerRecord, kycStatus: optional(Status) }),
    Schema.Struct({ ...BusinessCreate.fields, ...customerRecord, kybStatus: optional(Status), businessInfo: optional(BusinessInfoUpdate) })
  )

  const Currency = Schema.Struct({ code: NonEmpty(16), name: Schema.String, symbol: Schema.String, decimals: Count })
  const Money = Schema.Struct({ amount: Schema.Number.pipe(Schema.finite()), currency: Currency })
  const InternalAccountState = Schema.Struct({
    id: IdSchema("InternalAccount"),
    customerId: optional(IdSchema("Customer")),
    type: InternalAccountType,
    status: Schema.Literal("PENDING", "ACTIVE", "CLOSED", "FROZEN", "FAILED"),
    balance: Money,
    totalBalance: Money,
    fundingPaymentInstructions: Schema.Array(Schema.Unknown),
    privateEnabled: optional(Schema.Boolean),
    ...stamps
  })

  const PasskeyKey = Schema.Struct({ publicKey: ClientPublicKey, rpIdHash: Hex(32), origin: Schema.String, signCount: Count })
  const OauthIdentity = Schema.Struct({ iss: Schema.String, aud: Schema.String, sub: Schema.String })
  const credentialFields = {
    accountId: IdSchema("InternalAccount"),
    type: CredentialType,
    nickname: Schema.String,
    email: optional(Schema.String),
    phoneNumber: optional(Schema.String),
    credentialId: optional(Schema.String),
    passkey: optional(PasskeyKey),
    oauth: optional(OauthIdentity)
  }
  const AuthMethodState = Schema.Struct({
    id: IdSchema("AuthMethod"),
    customerId: optional(IdSchema("Customer")),
    ...credentialFields,
    lastChallengeAtMs: optional(Millis),
    ...stamps
  })

  const SessionState = Schema.Struct({
    id: IdSchema("Session"),
    accountId: IdSchema("InternalAccount"),
    authMethodId: IdSchema("AuthMethod"),
    type: CredentialType,
    nickname: Schema.String,
    publicKey: ClientPublicKey,
    expiresAtMs: Millis,
    revokedAt: optional(DateTimeString),
    ...stamps
  })

  /**
   * The bound input of each signed operation, as its first call stores it: a held operation runs
   * from this input alone (on its retry, or on reconciliation), so it must be what the operation reads.
   */
  const Id = Schema.String
  const signedInputs: Readonly<Record<string, Schema.Schema.Any>> = {
    revokeSession: Schema.Struct({ sessionId: Id }),
    refreshSession: Schema.Struct({ sessionId: Id, clientPublicKey: ClientPublicKey }),
    exportWallet: Schema.Struct({ accountId: Id, clientPublicKey: UncompressedPublicKey }),
    updateInternalAccount: Schema.Struct({ accountId: Id, privateEnabled: Schema.Boolean }),
    executeQuote: Schema.Struct({ quoteId: Id, scaFactor: optional(Schema.Literal("SMS_OTP", "PASSKEY", "TOTP")) }),
    // The two signed legs of a delegated key's creation (DECISIONS #262).
    createDelegatedKey: Schema.Union(
      Schema.Struct({ step: Schema.Literal("CREATE_USER"), delegatedKeyId: Id, cardId: Id, accountId: Id, fundingSourceId: Id, nickname: Schema.String, bodySha256: Hex(32), path: Schema.String }),
      Schema.Struct({ step: Schema.Literal("CREATE_POLICY"), delegatedKeyId: Id })
    ),
    createCredential: Schema.Struct(credentialFields),
    revokeCredential: Schema.Struct({ credentialId: Id }),
    otpLogin: Schema.Struct({ credentialId: Id, tek: ClientPublicKey }),
    changeCustomerEmail: Schema.Struct({
      customerId: Id,
      tiedIds: Schema.Array(Id),
      body: Schema.Union(IndividualUpdate, BusinessUpdate).pipe(
        Schema.filter((b) => b.email !== undefined || { path: ["email"], message: "is required (the change is an email change)" })
      )
    })
  }

  const SignedRequestState = Schema.Struct({
    id: IdSchema("Request"),
    accountId: IdSchema("InternalAccount"),
    method: Schema.String,
    path: Schema.String,
    bodySha256: Hex(32),
    payloadToSign: Schema.String,
    expiresAtMs: Millis,
    type: optional(CredentialType),
    kind: Schema.Literal(...(Object.keys(signedInputs) as [string, ...Array<string>])),
    input: Schema.Unknown,
    state: Schema.Literal("ISSUED", "PROCESSING", "CONSUMED"),
    settleAtMs: optional(Millis),
    stampSha256: optional(Hex(32)),
    // Answered as the HTTP status of an identical re-send.
    settledReply: optional(Schema.Struct({ status: Schema.Number.pipe(Schema.int(), Schema.between(200, 599)), body: Schema.Unknown })),
    createdAt: DateTimeString
  })

  const ProcessingControlState = Schema.Struct({
    id: Schema.Union(IdSchema("InternalAccount"), Schema.Literal("platform")),
    remaining: Count,
    holdMs: Count.pipe(Schema.lessThanOrEqualTo(315_360_000_000))
  })

  const OtpIssuanceState = Schema.Struct({
    id: IdSchema("AuthMethod"),
    targetPrivateKey: Hex(32),
    targetPublicKey: UncompressedPublicKey,
    code: Schema.String,
    expiresAtMs: Millis,
    failedAttempts: Count
  })

  const PasskeyChallengeState = Schema.Struct({
    id: IdSchema("Request"),
    authMethodId: IdSchema("AuthMethod"),
    accountId: IdSchema("InternalAccount"),
    challenge: Hex(32),
    clientPublicKey: ClientPublicKey,
    expiresAtMs: Millis,
    consumed: Schema.Boolean
  })

  const OwnershipChallenge = Schema.Struct({
    method: Schema.Literal("WALLET_SIGNATURE", "LIVENESS"),
    messageToSign: optional(Schema.String),
    verificationLink: optional(Schema.String),
    nonce: Schema.String,
    expiresAtMs: Millis
  })
  const ExternalAccountState = Schema.Struct({
    id: IdSchema("ExternalAccount"),
    customerId: optional(IdSchema("Customer")),
    status: Schema.Literal("PENDING", "ACTIVE", "PENDING_OWNERSHIP_VERIFICATION", "UNVERIFIED", "UNDER_REVIEW", "INACTIVE"),
    platformAccountId: optional(Schema.String),
    ownershipType: optional(Schema.Literal("FIRST_PARTY", "THIRD_PARTY")),
    currency: Schema.String,
    defaultUmaDepositAccount: Schema.Boolean,
    beneficiaryVerificationStatus: optional(
      Schema.Literal("MATCHED", "PARTIAL_MATCH", "NOT_MATCHED", "UNSUPPORTED", "CHECKED_BY_RECEIVING_FI", "PENDING")
    ),
    beneficiaryVerifiedData: optional(Schema.Struct({ fullName: Schema.String })),
    // Checked against the reference's variants by the document check (with its own paths).
    accountInfo: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    sandboxTransferSuffix: optional(Schema.String),
    challenge: optional(OwnershipChallenge),
    trusted: optional(Schema.Boolean),
    trustChange: optional(Schema.Struct({ challengeId: Schema.String, trust: Schema.Boolean, expiresAtMs: Millis, failedAttempts: optional(Count) })),
    identityKey: Schema.String,
    ...stamps
  })
  return { CustomerState, InternalAccountState, AuthMethodState, SessionState, signedInputs, SignedRequestState, ProcessingControlState, OtpIssuanceState, PasskeyChallengeState, ExternalAccountState }
})
