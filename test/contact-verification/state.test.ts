import { describe, expect, it } from "vitest"
import { Engine } from "@tessera/core"
import { everyStore } from "../support/stores.ts"

const upload = (csv: string) => ({ fields: {}, files: { file: { fileName: "c.csv", contentType: "text/csv", bytes: new TextEncoder().encode(csv) } } })

describe.each(everyStore("contact-state"))("a pending code and a bulk job travel with the sandbox state (into a %s store)", (_kind, layer) => {
  it("exports them from one engine and imports them into another, where they work on", async () => {
    const a = await Engine.make({ store: everyStore("contact-state-a")[0]![1](), clock: "virtual" })
    const apiA = a.as(await a.platform({ clientId: "state-a", clientSecret: "s" }))
    const customer = (await apiA.customers.create({ customerType: "INDIVIDUAL", fullName: "Eu Person", region: "FR", email: "eu@example.com" })) as { id: string }
    await apiA.customers.sendEmailVerification(customer.id)
    const accepted = (await apiA.customers.uploadCsv(upload("customerType,fullName\nINDIVIDUAL,Row One\nBUSINESS,"))) as { body: { jobId: string } }
    const job = await apiA.customers.getBulkJob(accepted.body.jobId)
    const doc = await apiA.sandbox.exportState()
    await a.dispose()

    const b = await Engine.make({ store: layer(), clock: "virtual" })
    const apiB = b.as(await b.platform({ clientId: "state-b", clientSecret: "s" }))
    await apiB.sandbox.importState(doc)
    expect(await apiB.customers.getBulkJob(accepted.body.jobId)).toEqual(job)
    // The code sent before the export still confirms: it came along, hidden in its customer.
    const confirmed = await apiB.customers.confirmEmailVerification(customer.id, { code: "123456" })
    expect(confirmed.contactVerification).toEqual({ email: "VERIFIED", phone: "PENDING" })
    expect(JSON.stringify(await apiB.customers.get(customer.id))).not.toContain("contactCodes")
    await b.dispose()
  })
})
