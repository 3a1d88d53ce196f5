import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { BULK_CSV_MAX_BYTES, BULK_CSV_MAX_ROWS, deliverAll, Engine, Outbox, type PlatformRecord, Store, WebhookTransport } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { referenceSchemaProblems } from "../support/openapi-checker.ts"
import { everyStore } from "../support/stores.ts"

/** A multipart body as the HTTP transport would hand it over: the CSV in the `file` part. */
const upload = (csv: string | Uint8Array) => ({
  fields: {},
  files: { file: { fileName: "customers.csv", contentType: "text/csv", bytes: typeof csv === "string" ? new TextEncoder().encode(csv) : csv } }
})

const HEADER = "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,email"

describe.each(everyStore("bulk"))("bulk customer CSV through engine.as (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  let api: ReturnType<Engine["as"]>
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "bulk", clientSecret: "bulk-secret-0123456789" })
    api = engine.as(platform)
  })
  afterAll(() => engine.dispose())

  const importCsv = async (csv: string) => {
    const accepted = (await api.customers.uploadCsv(upload(csv))) as { status: number; body: { jobId: string; status: string } }
    expect(accepted.status).toBe(202)
    expect(accepted.body.status).toBe("PROCESSING")
    return api.customers.getBulkJob(accepted.body.jobId)
  }
  const customerCount = async () => (await api.customers.list({ limit: "1" })).totalCount

  it("creates every valid row as POST /customers would, and the job is COMPLETED at once", async () => {
    const before = await customerCount()
    const job = await importCsv(
      [
        HEADER,
        "$ann@uma.example.com,ann-1,INDIVIDUAL,Ann Lee,1990-01-15,1 Main St,San Francisco,CA,94105,US,ann@example.com",
        // Quoted fields, a comma and a doubled quote inside; an empty cell is a field not given.
        ',bo-2,INDIVIDUAL,"Bo ""B"" Diaz","",,,,,,',
        ",biz-3,BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,"
      ].join("\r\n")
    )
    expect(job.progress).toEqual({ total: 3, processed: 3, successful: 2, failed: 1 })
    expect(job.status).toBe("COMPLETED")
    expect(job.completedAt).toMatch(/Z$/)
    expect(await customerCount()).toBe(before + 2)
    const ann = (await api.customers.list({ platformCustomerId: "ann-1" })).data[0]!
    expect(ann).toMatchObject({
      customerType: "INDIVIDUAL",
      umaAddress: "$ann@uma.example.com",
      fullName: "Ann Lee",
      birthDate: "1990-01-15",
      email: "ann@example.com",
      address: { line1: "1 Main St", city: "San Francisco", state: "CA", postalCode: "94105", country: "US" },
      kycStatus: "APPROVED"
    })
    expect((await api.customers.list({ platformCustomerId: "bo-2" })).data[0]).toMatchObject({ fullName: 'Bo "B" Diaz' })
    // The business row misses what POST /customers requires of a business, named by column.
    expect(job.errors).toEqual([
      {
        correlationId: "biz-3",
        code: "INVALID_INPUT",
        message: expect.stringContaining("businessLegalName"),
        details: {
          row: 3,
          errors: expect.arrayContaining([
            expect.objectContaining({ field: "businessLegalName" }),
            expect.objectContaining({ field: "businessTaxId" }),
            expect.objectContaining({ field: "businessIncorporatedOn" }),
            expect.objectContaining({ field: "businessCountry" })
          ])
        }
      }
    ])
  })

  it("reports every invalid field of a row by its column, and creates nothing for that row", async () => {
    const before = await customerCount()
    const job = await importCsv(
      ["customerType,fullName,birthDate,email,phoneNumber,addressLine1,country", "INDIVIDUAL,Cy,15/01/1990,not-an-email,12345,1 Way,USA"].join("\n")
    )
    expect(job.status).toBe("FAILED")
    expect(job.progress).toEqual({ total: 1, processed: 1, successful: 0, failed: 1 })
    expect(job.errors[0]!.correlationId).toBe("row_1")
    const fields = (job.errors[0]!.details["errors"] as Array<{ field: string }>).map((e) => e.field).sort()
    expect(fields).toEqual(["birthDate", "country", "email", "phoneNumber", "postalCode"])
    expect(await customerCount()).toBe(before)
  })

  it("reports conflicts per row: a platformCustomerId already taken, or repeated in the file", async () => {
    await importCsv("customerType,platformCustomerId,fullName\nINDIVIDUAL,dup-1,Dee")
    const job = await importCsv("customerType,platformCustomerId,fullName\nINDIVIDUAL,dup-1,Dee\nINDIVIDUAL,dup-2,Eve\nINDIVIDUAL,dup-2,Eve again")
    expect(job.progress).toEqual({ total: 3, processed: 3, successful: 1, failed: 2 })
    expect(job.errors.map((e) => [e.correlationId, e.code, e.details["row"]])).toEqual([
      ["dup-1", "CONFLICT", 1],
      ["dup-2", "CONFLICT", 3]
    ])
  })

  it("refuses a row with more fields than the header, and accepts shorter ones (as the reference's example has)", async () => {
    const job = await importCsv("customerType,fullName,platformAccountId,description\nINDIVIDUAL,Fay,acct-1,note,extra\nINDIVIDUAL")
    expect(job.progress.successful).toBe(1)
    expect(job.errors).toEqual([expect.objectContaining({ correlationId: "row_1", code: "INVALID_INPUT", details: expect.objectContaining({ row: 1 }) })])
  })

  it("publishes BULK_UPLOAD.COMPLETED or BULK_UPLOAD.FAILED with the job as data", async () => {
    const ok = await importCsv("customerType,fullName\nINDIVIDUAL,Gus")
    const bad = await importCsv("customerType\nROBOT")
    const events = await engine.run(Effect.flatMap(Store, (s) => s.list(Outbox, platform.id, { limit: 100 })))
    const about = (id: string) => events.items.filter((e) => e.resourceId === id).map((e) => [e.type, e.data])
    expect(about(ok.id)).toEqual([["BULK_UPLOAD.COMPLETED", ok]])
    expect(about(bad.id)).toEqual([["BULK_UPLOAD.FAILED", bad]])
  })

  it("refuses a file that is not CSV, or not a file, with 400 and creates nothing", async () => {
    const before = await customerCount()
    const refused = [
      "customerType,fullName\nINDIVIDUAL,\"Hal\nINDIVIDUAL,Ivy",
      'customerType,fullName\nINDIVIDUAL,Ha"l',
      "",
      "customerType,fullName\n",
      "customerType,nickname,fullName,fullName\nINDIVIDUAL,x,y,z",
      "fullName\nJo"
    ]
    for (const csv of refused) await expect(api.customers.uploadCsv(upload(csv)), csv).rejects.toMatchObject({ _tag: "INVALID_INPUT", status: 400 })
    await expect(api.customers.uploadCsv(upload(new Uint8Array([0x63, 0xff, 0xfe])))).rejects.toMatchObject({ details: { reason: "MALFORMED_CSV" } })
    await expect(api.customers.uploadCsv(upload("customerType,nickname,fullName,fullName\nINDIVIDUAL,x,y,z"))).rejects.toMatchObject({
      details: { errors: [{ field: "file", message: expect.stringContaining("nickname") }, { field: "file", message: expect.stringContaining("fullName") }] }
    })
    await expect(api.customers.uploadCsv({ fields: {}, files: {} })).rejects.toMatchObject({ details: { errors: [{ field: "file" }] } })
    await expect(api.customers.uploadCsv("customerType,fullName" as never)).rejects.toMatchObject({ status: 400 })
    expect(await customerCount()).toBe(before)
  })

  it(`bounds the file: more than ${BULK_CSV_MAX_ROWS} rows is 400, more than ${BULK_CSV_MAX_BYTES} bytes is 413`, async () => {
    const before = await customerCount()
    const rows = Array.from({ length: BULK_CSV_MAX_ROWS + 1 }, (_, i) => `INDIVIDUAL,Many ${i}`)
    await expect(api.customers.uploadCsv(upload(["customerType,fullName", ...rows].join("\n")))).rejects.toMatchObject({
      status: 400,
      details: { reason: "TOO_MANY_ROWS", maxRows: BULK_CSV_MAX_ROWS }
    })
    await expect(api.customers.uploadCsv(upload(new Uint8Array(BULK_CSV_MAX_BYTES + 1).fill(0x61)))).rejects.toMatchObject({ status: 413 })
    expect(await customerCount()).toBe(before)
  })

  it(`imports a file of exactly ${BULK_CSV_MAX_ROWS} rows`, async () => {
    const rows = Array.from({ length: BULK_CSV_MAX_ROWS }, (_, i) => `INDIVIDUAL,Max ${i},max-${i}`)
    const job = await importCsv(["customerType,fullName,platformCustomerId", ...rows].join("\n"))
    expect(job.progress).toEqual({ total: BULK_CSV_MAX_ROWS, processed: BULK_CSV_MAX_ROWS, successful: BULK_CSV_MAX_ROWS, failed: 0 })
    expect((await api.customers.list({ platformCustomerId: `max-${BULK_CSV_MAX_ROWS - 1}` })).data).toHaveLength(1)
  })

  it("answers 404 BULK_UPLOAD_JOB_NOT_FOUND for an unknown job, a malformed id, or another platform's job", async () => {
    for (const id of ["Job:00000000-0000-4000-8000-000000000000", "nope"])
      await expect(api.customers.getBulkJob(id)).rejects.toMatchObject({ _tag: "BULK_UPLOAD_JOB_NOT_FOUND", status: 404 })
    const mine = await importCsv("customerType,fullName\nINDIVIDUAL,Kim")
    const other = engine.as(await engine.platform({ clientId: "bulk-other", clientSecret: "other-secret-0123456789" }))
    await expect(other.customers.getBulkJob(mine.id)).rejects.toMatchObject({ _tag: "BULK_UPLOAD_JOB_NOT_FOUND" })
  })
})

describe("bulk upload webhooks", () => {
  it("are delivered to the platform in the reference's BulkUploadWebhook shape", async () => {
    const received: Array<{ type: string; data: { id: string } }> = []
    const transport = Layer.succeed(WebhookTransport, {
      post: (_url, _headers, body) => Effect.sync(() => (received.push(JSON.parse(body)), { status: 200, body: "" }))
    })
    const engine = await Engine.make({ store: MemoryStore.layer, clock: "virtual", webhookTransport: transport })
    const api = engine.as(await engine.platform({ clientId: "hooks", clientSecret: "s", webhookUrl: "http://receiver.test/hook" }))
    const ok = (await api.customers.uploadCsv(upload("customerType,fullName\nINDIVIDUAL,Lou\nROBOT,Max"))) as { body: { jobId: string } }
    const bad = (await api.customers.uploadCsv(upload("customerType\nROBOT"))) as { body: { jobId: string } }
    await engine.run(deliverAll)
    expect(received.map((e) => [e.type, e.data.id])).toEqual([
      ["BULK_UPLOAD.COMPLETED", ok.body.jobId],
      ["BULK_UPLOAD.FAILED", bad.body.jobId]
    ])
    for (const event of received) expect(referenceSchemaProblems("BulkUploadWebhook", event)).toEqual([])
    expect(referenceSchemaProblems("BulkUploadWebhook", { ...received[0], data: { id: "Job:x" } })).not.toEqual([])
    await engine.dispose()
  })
})
