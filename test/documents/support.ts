import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import { BeneficialOwners, DocumentFiles, Documents, makeId, type PlatformRecord, Store } from "@tessera/core"
import type { DocumentRecord } from "@tessera/core"
import { CLIENT_ID, CLIENT_SECRET, individual, business, type TestServer } from "../support/server.ts"

export const V = "/2025-10-13"

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

export const platformOf = (t: TestServer): Promise<PlatformRecord> => t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })

export const newCustomer = async (t: TestServer, over: Record<string, unknown> = {}): Promise<string> => {
  const res = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, ...over }) })
  if (res.status !== 201) throw new Error(`customer not created: ${JSON.stringify(res.body)}`)
  return res.body.id
}

/**
 * A beneficial owner of a new business, written through the Store: its endpoints are another
 * part's, and a document only needs it to exist.
 */
export const newBeneficialOwner = async (t: TestServer): Promise<{ readonly ownerId: string; readonly businessId: string }> => {
  const created = await t.request("POST", `${V}/customers`, { body: business({ email: undefined }) })
  const businessId: string = created.body.id
  const platform = await platformOf(t)
  const ownerId = makeId("BeneficialOwner", crypto.randomUUID())
  const now = new Date().toISOString()
  const owner = {
    id: ownerId,
    customerId: businessId,
    roles: ["UBO"],
    ownershipPercentage: 60,
    personalInfo: {
      firstName: "Ada",
      lastName: "Owner",
      birthDate: "1980-02-02",
      nationality: "US",
      address: { line1: "1 Main St", postalCode: "94105", country: "US" },
      idType: "SSN",
      identifier: "123-45-6789"
    },
    kycStatus: "UNVERIFIED",
    createdAt: now,
    updatedAt: now
  }
  await t.engine.run(Effect.flatMap(Store, (s) => s.put(BeneficialOwners, platform.id, owner as never)))
  return { ownerId, businessId }
}

/** What the store holds for a document: the record (with the facts the view hides) and the bytes. */
export const stored = async (t: TestServer, id: string) => {
  const platform = await platformOf(t)
  return t.engine.run(
    Effect.gen(function* () {
      const store = yield* Store
      const record = Option.getOrUndefined(yield* store.get(Documents, platform.id, id))
      const file = Option.getOrUndefined(yield* store.get(DocumentFiles, platform.id, id))
      return { record, bytes: file === undefined ? undefined : new Uint8Array(Buffer.from(file.base64, "base64")) }
    })
  )
}

/** Marks a document as taken in by a verification, as the verifications part does. */
export const markSubmitted = async (t: TestServer, id: string) => {
  const platform = await platformOf(t)
  await t.engine.run(
    Effect.gen(function* () {
      const store = yield* Store
      const record = Option.getOrThrow(yield* store.get(Documents, platform.id, id))
      yield* store.put(Documents, platform.id, { ...record, submittedAt: new Date().toISOString() } satisfies DocumentRecord)
    })
  )
}

/** The reference `Document` keys a view may have; nothing else may appear. */
export const DOCUMENT_KEYS = ["id", "documentHolder", "documentType", "side", "country", "documentNumber", "issuingAuthority", "fileName", "createdAt", "updatedAt"]
