import { Effect } from "effect"
import { Documents, Store } from "@tessera/core"
import { uploadDocument } from "./onboarding-uploads.ts"
import type { DocumentRecord, DocumentType } from "../../packages/core/src/domain/documents/document.ts"
import { checkWebhook } from "./openapi-checker.ts"
import { CLIENT_ID, CLIENT_SECRET, type TestServer } from "./server.ts"

const V = "/2025-10-13"

/**
 * Adds a document to a holder (a customer, or one of its beneficial owners) through the real
 * multipart upload, as a client would, and answers the stored record (to see `submittedAt`).
 */
export const addDocument = async (t: TestServer, holderId: string, documentType: DocumentType): Promise<DocumentRecord> => {
  const uploaded = await uploadDocument(t, holderId, documentType, "pdf")
  const record = await readDocument(t, uploaded.id)
  if (record === undefined) throw new Error(`uploaded document ${uploaded.id} is not stored`)
  return record
}

export const addIdentityDocument = (t: TestServer, holderId: string, type: DocumentType = "PASSPORT") => addDocument(t, holderId, type)

/** Reads a document back from the Store (to see `submittedAt`). */
export const readDocument = async (t: TestServer, id: string): Promise<DocumentRecord | undefined> => {
  const platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  const found = await t.engine.run(Effect.flatMap(Store, (s) => s.get(Documents, platform.id, id)))
  return found._tag === "Some" ? found.value : undefined
}

/** An individual with every field a submission needs (no document yet). */
export const completeIndividual = (fullName: string, over: Record<string, unknown> = {}) => ({
  customerType: "INDIVIDUAL",
  fullName,
  birthDate: "1990-01-15",
  nationality: "US",
  idType: "SSN",
  identifier: "123-45-6789",
  address: { line1: "1 Main St", city: "Seattle", state: "WA", postalCode: "98101", country: "US" },
  ...over
})

export const businessWith = (registrationNumber: string | undefined, over: Record<string, unknown> = {}) => ({
  customerType: "BUSINESS",
  businessInfo: {
    legalName: "Acme Corp",
    country: "US",
    taxId: "47-1234567",
    incorporatedOn: "2018-03-14",
    ...(registrationNumber === undefined ? {} : { registrationNumber })
  },
  ...over
})

export const BUSINESS_ADDRESS = { line1: "500 Market St", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" }

export const owner = (customerId: string, lastName: string, over: Record<string, unknown> = {}) => ({
  customerId,
  roles: ["UBO"],
  ownershipPercentage: 60,
  personalInfo: {
    firstName: "Jane",
    lastName,
    birthDate: "1978-06-15",
    nationality: "US",
    address: { line1: "2 Oak Ave", postalCode: "94105", country: "US" },
    idType: "SSN",
    identifier: "987-65-4321"
  },
  ...over
})

export const create = async (t: TestServer, body: unknown): Promise<string> => {
  const r = await t.request("POST", `${V}/customers`, { body })
  if (r.status !== 201) throw new Error(`customer not created: ${JSON.stringify(r.body)}`)
  return r.body.id as string
}

export const verify = (t: TestServer, customerId: string) => t.request("POST", `${V}/verifications`, { body: { customerId } })

/** The webhooks published about a resource, oldest first. */
export const eventsAbout = async (t: TestServer, resourceId: string): Promise<ReadonlyArray<{ type: string; data: any }>> =>
  (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(resourceId)}&limit=100`)).body.data

/** A business that passes validation: address, the three documents and one owner. */
export const completeBusiness = async (t: TestServer, registrationNumber: string, ownerLastName = "Smith") => {
  const id = await create(t, businessWith(registrationNumber, { address: BUSINESS_ADDRESS }))
  for (const type of ["CERTIFICATE_OF_INCORPORATION", "SHAREHOLDER_REGISTER", "UTILITY_BILL"] as const) await addDocument(t, id, type)
  const o = await t.request("POST", `${V}/beneficial-owners`, { body: owner(id, ownerLastName) })
  if (o.status !== 201) throw new Error(`owner not created: ${JSON.stringify(o.body)}`)
  return { id, ownerId: o.body.id as string }
}

/** Asserts every listed event is a payload the reference's webhook schemas accept. */
export const webhookProblems = (events: ReadonlyArray<{ id?: string; type: string; timestamp?: string; data: unknown }>) =>
  events.flatMap((e) =>
    checkWebhook(e.type.startsWith("CUSTOMER.") ? "CustomerWebhook" : "VerificationWebhook", { id: e.id, type: e.type, timestamp: e.timestamp, data: e.data })
  )
