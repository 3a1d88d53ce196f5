import { Either } from "effect"
import type { BeneficialOwnerRecord } from "../domain/beneficial-owners/beneficial-owner.ts"
import { type CustomerRecord, customerView } from "../domain/customers/customer.ts"
import type { DocumentRecord } from "../domain/documents/document.ts"
import type { DomainError } from "../domain/envelope.ts"
import { Conflict, InvalidInput } from "../domain/errors.ts"
import type { VerificationId } from "../domain/ids.ts"
import { rfc3339 } from "../domain/time.ts"
import type { VerificationError, VerificationRecord, VerificationStatus } from "../domain/verifications/verification.ts"
import {
  businessVerificationRule,
  individualVerificationRule,
  isTerminal,
  type KycStatus,
  kycStatusAtCreation,
  ownerStatusOnResolution
} from "../sandbox/kyc.ts"
import type { Emitted, Transition } from "./transition.ts"
import { businessGaps, identityDocuments, individualGaps } from "./verification-requirements.ts"

/**
 * KYC and KYB after creation (spec "Sandbox scenarios"; DECISIONS #135–#141): a submission
 * (POST /verifications) or a completed hosted flow turns a customer, its documents and its
 * beneficial owners into a new verification and perhaps a new status. Records the step does not
 * change come back as the same objects, so the operation writes only what changed.
 */
export interface Onboarding {
  readonly customer: CustomerRecord
  /** Every document of the customer, its beneficial owners' included. */
  readonly documents: ReadonlyArray<DocumentRecord>
  readonly owners: ReadonlyArray<BeneficialOwnerRecord>
  /** The verification this step produced (absent before the first step). */
  readonly verification?: VerificationRecord
}

export type HostedOutcome = "APPROVED" | "REJECTED" | "PENDING"

export type VerificationEvent =
  | { readonly _tag: "Submit"; readonly verificationId: VerificationId }
  | { readonly _tag: "CompleteHostedFlow"; readonly verificationId: VerificationId; readonly outcome: HostedOutcome }

const kindOf = (c: CustomerRecord) => (c.customerType === "BUSINESS" ? "KYB" : "KYC")
const statusOf = (c: CustomerRecord): KycStatus | undefined => (c.customerType === "BUSINESS" ? c.kybStatus : c.kycStatus)

const withStatus = (c: CustomerRecord, status: KycStatus, now: string): CustomerRecord =>
  statusOf(c) === status ? c : { ...c, ...(c.customerType === "BUSINESS" ? { kybStatus: status } : { kycStatus: status }), updatedAt: now }

/** The customer's webhook for a status: `CUSTOMER.KYC_PENDING`, `CUSTOMER.KYB_APPROVED`, … (HOLD and UNVERIFIED have none). */
export const customerEvent = (c: CustomerRecord, status: KycStatus): ReadonlyArray<Emitted> =>
  status === "PENDING" || status === "APPROVED" || status === "REJECTED"
    ? [{ type: `CUSTOMER.${kindOf(c)}_${status}`, resourceId: c.id, data: customerView(c) }]
    : []

export const verificationEvent = (v: VerificationRecord): Emitted => ({ type: `VERIFICATION.${v.verificationStatus}`, resourceId: v.id, data: v })

/** A final status, or a suffix the sandbox decided at creation: POST /verifications answers 400 (DECISIONS #138). */
const alreadyDecided = (c: CustomerRecord, status: KycStatus | undefined): DomainError =>
  new InvalidInput({
    message: `Customer ${c.id} cannot be submitted for verification: its ${kindOf(c) === "KYB" ? "kybStatus" : "kycStatus"} ${status ?? "UNVERIFIED"} is final in the sandbox`,
    details: { customerId: c.id, status: status ?? "UNVERIFIED" }
  })

/** Each owner not yet final takes the status its lastName's suffix gives (a business resolved terminally). */
export const resolveOwners = (owners: ReadonlyArray<BeneficialOwnerRecord>, now: string): ReadonlyArray<BeneficialOwnerRecord> =>
  owners.map((o) => {
    if (isTerminal(o.kycStatus)) return o
    const kycStatus = ownerStatusOnResolution(o.personalInfo.lastName)
    return kycStatus === o.kycStatus ? o : { ...o, kycStatus, updatedAt: now }
  })

/** The documents a submission takes in are marked submitted (they can no longer be deleted). */
const takeIn = (documents: ReadonlyArray<DocumentRecord>, now: string): ReadonlyArray<DocumentRecord> =>
  documents.map((d) => (d.submittedAt === undefined ? { ...d, submittedAt: now, updatedAt: now } : d))

interface Outcome {
  readonly verificationStatus: VerificationStatus
  readonly errors?: ReadonlyArray<VerificationError>
  /** The customer's next status, when the step sets one (and emits its webhook). */
  readonly status?: KycStatus
  readonly takeDocumentsIn?: boolean
}

/** The status a suffix imposes whatever the data (002 rejects, an undecided-by-data suffix approves), if any. */
const suffixDecision = (c: CustomerRecord): HostedOutcome | undefined => {
  if (c.customerType === "BUSINESS") {
    const rule = businessVerificationRule(c.businessInfo?.registrationNumber)
    return rule === "REJECT" ? "REJECTED" : rule === "APPROVE" ? "APPROVED" : undefined
  }
  return individualVerificationRule(c.fullName) === "DECIDED" ? (kycStatusAtCreation(c.fullName) === "REJECTED" ? "REJECTED" : "APPROVED") : undefined
}

const decide = (s: Onboarding, e: VerificationEvent): Either.Either<Outcome, DomainError> => {
  const c = s.customer
  const current = statusOf(c)
  if (e._tag === "CompleteHostedFlow") {
    if (isTerminal(current))
      return Either.left(new Conflict({ message: `Customer ${c.id} is already ${current}; a hosted flow cannot change it`, details: { customerId: c.id, status: current } }))
    // The suffix decides here too (spec: "on POST /verifications (or the hosted KYB link)"):
    // only a customer left to validation takes the outcome the sandbox caller chose.
    const outcome = suffixDecision(c) ?? e.outcome
    const pending = c.customerType === "BUSINESS" ? "IN_PROGRESS" : "PENDING_MANUAL_REVIEW"
    return Either.right({ verificationStatus: outcome === "PENDING" ? pending : outcome, status: outcome })
  }
  if (isTerminal(current)) return Either.left(alreadyDecided(c, current))
  if (c.customerType === "BUSINESS") {
    const rule = businessVerificationRule(c.businessInfo?.registrationNumber)
    if (rule === "REJECT") return Either.right({ verificationStatus: "REJECTED", status: "REJECTED" })
    if (rule === "APPROVE") return Either.right({ verificationStatus: "APPROVED", status: "APPROVED" })
    const gaps = businessGaps(c, s.documents, s.owners)
    return Either.right(
      gaps.length > 0 ? { verificationStatus: "RESOLVE_ERRORS", errors: gaps } : { verificationStatus: "IN_PROGRESS", status: "PENDING", takeDocumentsIn: true }
    )
  }
  const rule = individualVerificationRule(c.fullName)
  if (rule === "DECIDED") return Either.left(alreadyDecided(c, current))
  const gaps = individualGaps(c, s.documents)
  if (gaps.length > 0) return Either.right({ verificationStatus: "RESOLVE_ERRORS", errors: gaps })
  if (rule === "POOR_QUALITY") {
    const document = identityDocuments(c.id, s.documents).at(-1)!
    return Either.right({
      verificationStatus: "RESOLVE_ERRORS",
      errors: [{ resourceId: document.id, type: "POOR_QUALITY_DOCUMENT", reason: "The identity document is too poor in quality to read; upload a clearer image" }]
    })
  }
  return Either.right({ verificationStatus: "PENDING_MANUAL_REVIEW", status: "PENDING", takeDocumentsIn: true })
}

/**
 * One step: decide the outcome, then build the next records and the webhooks. A status step
 * emits the customer's webhook (every accepted submission emits `*_PENDING`, DECISIONS #139);
 * every step emits `VERIFICATION.<status>`. A business that resolves terminally resolves its
 * owners by their lastName suffix.
 */
export const verificationStep = (s: Onboarding, e: VerificationEvent, nowMs: number): Either.Either<Transition<Onboarding>, DomainError> =>
  Either.map(decide(s, e), (o) => {
    const now = rfc3339(nowMs)
    const customer = o.status === undefined ? s.customer : withStatus(s.customer, o.status, now)
    const owners = customer.customerType === "BUSINESS" && isTerminal(o.status) ? resolveOwners(s.owners, now) : s.owners
    const documents = o.takeDocumentsIn === true ? takeIn(s.documents, now) : s.documents
    const verification: VerificationRecord = {
      id: e.verificationId,
      customerId: customer.id as VerificationRecord["customerId"],
      verificationStatus: o.verificationStatus,
      errors: o.errors ?? [],
      createdAt: now,
      updatedAt: now
    }
    return {
      state: { customer, documents, owners, verification },
      emit: [...(o.status === undefined ? [] : customerEvent(customer, o.status)), verificationEvent(verification)]
    }
  })
