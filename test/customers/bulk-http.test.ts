import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BULK_CSV_MAX_BYTES } from "@tessera/core"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

/** The bytes and content type `fetch` sends for a FormData holding the CSV in its `file` part. */
const formData = async (csv: string | Uint8Array, name = "file") => {
  const form = new FormData()
  form.append(name, new Blob([csv as BlobPart], { type: "text/csv" }), "customers.csv")
  const request = new Request("http://x/", { method: "POST", body: form })
  return { raw: new Uint8Array(await request.arrayBuffer()), headers: { "content-type": request.headers.get("content-type")! } }
}

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("bulk customer CSV over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  const upload = async (csv: string | Uint8Array, name?: string) => t.request("POST", `${V}/customers/bulk/csv`, await formData(csv, name))

  it("accepts a multipart CSV with 202 and the job reports created rows and failed ones", async () => {
    const csv = [
      "umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName",
      `$ann.${kind}@uma.example.com,http-${kind}-1,INDIVIDUAL,Ann Lee,1990-01-15,123 Main St,San Francisco,CA,94105,US`,
      `,http-${kind}-2,INDIVIDUAL,Bo,1990-13-45,,,,,,`
    ].join("\r\n")
    const accepted = await upload(csv)
    expect(accepted.status).toBe(202)
    expect(accepted.body).toEqual({ jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: "PROCESSING" })
    const job = await t.request("GET", `${V}/customers/bulk/jobs/${accepted.body.jobId}`)
    expect(job.status).toBe(200)
    expect(job.body).toMatchObject({ id: accepted.body.jobId, status: "COMPLETED", progress: { total: 2, processed: 2, successful: 1, failed: 1 } })
    expect(job.body.errors).toEqual([
      expect.objectContaining({ correlationId: `http-${kind}-2`, code: "INVALID_INPUT", details: { row: 2, errors: [expect.objectContaining({ field: "birthDate" })] } })
    ])
    const created = await t.request("GET", `${V}/customers?platformCustomerId=http-${kind}-1`)
    expect(created.body.data).toEqual([expect.objectContaining({ fullName: "Ann Lee", address: expect.objectContaining({ line1: "123 Main St" }) })])
  })

  it("refuses a malformed CSV, a file that is not CSV text, or a body without the file part with 400", async () => {
    for (const [body, name] of [['customerType\n"INDIVIDUAL', "file"], [new Uint8Array([0xff, 0xfe, 0x00]), "file"], ["customerType\nINDIVIDUAL", "csv"]] as const) {
      const r = await upload(body, name)
      expect(r.status).toBe(400)
      expect(r.body.code).toBe("INVALID_INPUT")
      expect(r.body.details.errors).toEqual([expect.objectContaining({ field: "file" })])
    }
  })

  it("refuses a JSON body with 415 and a file over the limit with 413", async () => {
    expect((await t.request("POST", `${V}/customers/bulk/csv`, { body: { file: "customerType\nINDIVIDUAL" } })).status).toBe(415)
    const big = await upload(new Uint8Array(BULK_CSV_MAX_BYTES + 1).fill(0x61))
    expect(big.status).toBe(413)
    expect(big.body.code).toBe("PAYLOAD_TOO_LARGE")
  })

  it("answers 404 BULK_UPLOAD_JOB_NOT_FOUND for an unknown job", async () => {
    const r = await t.request("GET", `${V}/customers/bulk/jobs/Job:00000000-0000-4000-8000-000000000000`)
    expect([r.status, r.body.code]).toEqual([404, "BULK_UPLOAD_JOB_NOT_FOUND"])
  })
})
