import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { BeneficialOwnerRecord } from "../../packages/core/src/domain/beneficial-owners/beneficial-owner.ts"
import type { CustomerRecord } from "../../packages/core/src/domain/customers/customer.ts"
import type { DocumentRecord, DocumentType } from "../../packages/core/src/domain/documents/document.ts"
import type { VerificationId } from "../../packages/core/src/domain/ids.ts"
import { type HostedOutcome, type Onboarding, verificationStep, type VerificationEvent } from "../../packages/core/src/machines/verification.ts"
import { statusAtCreation } from "../../packages/core/src/machines/kyc.ts"

const NOW = Date.parse("2026-01-01T00:00:00Z")
const CID = "Customer:00000000-0000-4000-8000-000000000001"
const VID = "Verification:00000000-0000-4000-8000-000000000009" as VerificationId
const stamps = { createdAt: "2025-01-01T00:00:00.000Z", updatedAt: "2025-01-01T00:00:00.000Z" }

const doc = (n: number, documentType: DocumentType, holder = CID): DocumentRecord =>
  ({ id: `Document:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, documentHolder: holder, customerId: CID, documentType, country: "US", fileName: "f.pdf", fileType: "application/pdf", fileSize: 1, fileSha256: "0".repeat(64), ...stamps }) as DocumentRecord

const individualItems = ["birthDate", "nationality", "idType", "identifier", "address", "MISSING_IDENTITY_DOCUMENT"] as const
const individual = (fullName: string, missing: ReadonlySet<string>): Onboarding => {
  const full: Record<string, unknown> = {
    id: CID, platformCustomerId: "p", customerType: "INDIVIDUAL", umaAddress: "$a@b.co", isDeleted: false, ...stamps,
    ...statusAtCreation("INDIVIDUAL", fullName),
    fullName, birthDate: "1990-01-01", nationality: "US", idType: "SSN", identifier: "123-45-6789",
    address: { line1: "1 St", postalCode: "1", country: "US" }
  }
  for (const f of missing) delete full[f]
  const documents = [doc(1, "UTILITY_BILL"), ...(missing.has("MISSING_IDENTITY_DOCUMENT") ? [] : [doc(2, "PASSPORT")])]
  return { customer: full as unknown as CustomerRecord, documents, owners: [] }
}

const businessDocs = [
  ["MISSING_LEGAL_PRESENCE_DOCUMENT", "STATE_REGISTRY_EXCERPT"],
  ["MISSING_OWNERSHIP_STRUCTURE_DOCUMENT", "TRUST_AGREEMENT"],
  ["MISSING_PROOF_OF_ADDRESS_DOCUMENT", "BANK_STATEMENT"]
] as const
const ownerFields = ["firstName", "lastName", "birthDate", "nationality", "address", "idType", "identifier"] as const

const ownerRecord = (n: number, lastName: string, missing: ReadonlySet<string> = new Set()): BeneficialOwnerRecord => {
  const personalInfo: Record<string, unknown> = {
    firstName: "Jo", lastName, birthDate: "1970-01-01", nationality: "US", address: { line1: "1 St", postalCode: "1", country: "US" }, idType: "SSN", identifier: "x"
  }
  for (const f of missing) delete personalInfo[f]
  return { id: `BeneficialOwner:00000000-0000-4000-8000-00000000000${n}`, customerId: CID, roles: ["UBO"], ownershipPercentage: 50, personalInfo, kycStatus: "UNVERIFIED", ...stamps } as unknown as BeneficialOwnerRecord
}

const business = (registrationNumber: string | undefined, missing: ReadonlySet<string>, owners: ReadonlyArray<BeneficialOwnerRecord>): Onboarding => ({
  customer: {
    id: CID, platformCustomerId: "p", customerType: "BUSINESS", umaAddress: "$a@b.co", isDeleted: false, ...stamps, kybStatus: "UNVERIFIED",
    businessInfo: { legalName: "A", country: "US", taxId: "1", incorporatedOn: "2020-01-01", ...(registrationNumber === undefined ? {} : { registrationNumber }) },
    ...(missing.has("address") ? {} : { address: { line1: "1 St", postalCode: "1", country: "US" } })
  } as CustomerRecord,
  documents: businessDocs.filter(([item]) => !missing.has(item)).map(([, type], i) => doc(10 + i, type)),
  owners
})

const submit: VerificationEvent = { _tag: "Submit", verificationId: VID }
const step = (s: Onboarding, e: VerificationEvent = submit) => verificationStep(s, e, NOW)
const keys = (s: Onboarding) => Either.getOrThrow(step(s)).state.verification!.errors.map((e) => `${e.resourceId}|${e.field ?? e.type}`)
const subset = <T>(items: ReadonlyArray<T>) => fc.subarray([...items]).map((a) => new Set(a))

describe("the verification machine", () => {
  it("lists exactly an individual's missing items, one entry each, for 001 and 003; complete data is reviewed or of poor quality", () => {
    fc.assert(
      fc.property(fc.constantFrom("001", "003"), subset(individualItems), (suffix, missing) => {
        const s = individual(`Ann ${suffix}`, missing)
        const t = Either.getOrThrow(step(s))
        const v = t.state.verification!
        if (missing.size > 0) {
          expect(v.verificationStatus).toBe("RESOLVE_ERRORS")
          expect(keys(s)).toEqual(individualItems.filter((i) => missing.has(i)).map((i) => `${CID}|${i}`))
          expect(t.state.customer).toBe(s.customer)
        } else if (suffix === "001") {
          expect(v).toMatchObject({ verificationStatus: "PENDING_MANUAL_REVIEW", errors: [] })
          expect(t.state.documents.every((d) => d.submittedAt !== undefined)).toBe(true)
        } else expect(v.errors.map((e) => [e.type, e.resourceId])).toEqual([["POOR_QUALITY_DOCUMENT", s.documents[1]!.id]])
      })
    )
  })

  it("lists exactly a 001/003 business's missing items: fields, documents, owners and the owners' fields", () => {
    const ownerArb = fc.array(subset(ownerFields), { maxLength: 2 })
    fc.assert(
      fc.property(fc.constantFrom("X-001", "X-003"), subset(["address", ...businessDocs.map(([i]) => i)]), ownerArb, (rn, missing, ownerGaps) => {
        const owners = ownerGaps.map((m, i) => ownerRecord(i + 1, m.has("lastName") ? "" : "Doe", m))
        const s = business(rn, missing, owners)
        const expected = [
          ...(missing.has("address") ? [`${CID}|address`] : []),
          ...businessDocs.filter(([i]) => missing.has(i)).map(([i]) => `${CID}|${i}`),
          ...(owners.length === 0 ? [`${CID}|MISSING_BENEFICIAL_OWNER`] : owners.flatMap((o, i) => ownerFields.filter((f) => ownerGaps[i]!.has(f)).map((f) => `${o.id}|personalInfo.${f}`)))
        ]
        expect(keys(s)).toEqual(expected)
        const status = Either.getOrThrow(step(s)).state.verification!.verificationStatus
        expect(status).toBe(expected.length === 0 ? "IN_PROGRESS" : "RESOLVE_ERRORS")
      })
    )
  })

  const eventArb: fc.Arbitrary<VerificationEvent> = fc.oneof(
    fc.constant(submit),
    fc.constantFrom<HostedOutcome>("APPROVED", "REJECTED", "PENDING").map((outcome) => ({ _tag: "CompleteHostedFlow" as const, verificationId: VID, outcome }))
  )
  const customerArb = fc.tuple(fc.boolean(), fc.constantFrom("001", "002", "003", "004", "")).map(([isBusiness, suffix]) =>
    isBusiness ? { suffix, s: business(`R${suffix}`, new Set(), [ownerRecord(1, "Doe 002")]) } : { suffix, s: individual(`Ann${suffix}`, new Set()) }
  )

  it("never approves a 002 customer, and never changes a terminal status, whatever the sequence", () => {
    fc.assert(
      fc.property(customerArb, fc.array(eventArb, { maxLength: 8 }), ({ suffix, s: start }, events) => {
        let s = start
        const statusOf = (o: Onboarding) => o.customer.kycStatus ?? o.customer.kybStatus
        for (const e of events) {
          const before = statusOf(s)
          const r = step(s, e)
          if (before === "APPROVED" || before === "REJECTED") {
            expect(Either.isLeft(r)).toBe(true)
            continue
          }
          if (Either.isLeft(r)) continue
          s = r.right.state
          const v = s.verification!
          if (v.verificationStatus !== "RESOLVE_ERRORS") expect(v.errors).toEqual([])
          if (suffix === "002") expect([statusOf(s), v.verificationStatus]).not.toContain("APPROVED")
          // A business that resolved terminally resolved its owners by lastName (Doe 002 → REJECTED).
          if (s.customer.customerType === "BUSINESS" && (statusOf(s) === "APPROVED" || statusOf(s) === "REJECTED"))
            expect(s.owners[0]!.kycStatus).toBe("REJECTED")
        }
      })
    )
  })

  it("emits the customer's webhook only with a status, and VERIFICATION.<status> always", () => {
    fc.assert(
      fc.property(customerArb, eventArb, ({ s }, e) => {
        const r = step(s, e)
        if (Either.isLeft(r)) return
        const v = r.right.state.verification!
        const types = r.right.emit.map((x) => x.type)
        expect(types.at(-1)).toBe(`VERIFICATION.${v.verificationStatus}`)
        const status = r.right.state.customer.kycStatus ?? r.right.state.customer.kybStatus
        const kind = s.customer.customerType === "BUSINESS" ? "KYB" : "KYC"
        expect(types.slice(0, -1)).toEqual(v.verificationStatus === "RESOLVE_ERRORS" ? [] : [`CUSTOMER.${kind}_${status}`])
      })
    )
  })
})
