import { describe, expect, it } from "vitest"
import { checkResponse } from "../support/openapi-checker.ts"

// The checker guards every HTTP test; these show it rejects what the reference would.
describe("response checker", () => {
  const customer = {
    id: "Customer:019542f5-b3e7-1d02-0000-000000000001",
    platformCustomerId: "p1",
    customerType: "INDIVIDUAL",
    umaAddress: "$p1@example.com",
    kycStatus: "APPROVED"
  }
  it("accepts a valid customer", () => {
    expect(checkResponse("getCustomerById", 200, customer).problems).toEqual([])
  })
  it("rejects a customer missing a required field", () => {
    const { umaAddress: _, ...bad } = customer
    expect(checkResponse("getCustomerById", 200, bad).ok).toBe(false)
  })
  it("rejects a status the operation does not declare", () => {
    expect(checkResponse("getCustomerById", 409, { status: 409, code: "CONFLICT", message: "x", details: {} }).ok).toBe(false)
  })
  it("rejects an error code outside the status's enum", () => {
    expect(checkResponse("getCustomerById", 404, { status: 404, code: "NOPE", message: "x", details: {} }).ok).toBe(false)
  })
  it("accepts the HTTP-layer codes named as known differences", () => {
    expect(checkResponse("createCustomer", 415, { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", message: "x", details: {} }).ok).toBe(true)
  })
  it("rejects the HTTP layer's no-route NOT_FOUND from an operation, and a 404 where the reference declares none", () => {
    const envelope = (code: string) => ({ status: 404, code, message: "x", details: {} })
    expect(checkResponse("getCustomerExternalAccountById", 404, envelope("REFERENCE_NOT_FOUND")).problems).toEqual([])
    expect(checkResponse("getCustomerExternalAccountById", 404, envelope("NOT_FOUND")).ok).toBe(false)
    expect(checkResponse("listAuthSessions", 404, envelope("REFERENCE_NOT_FOUND")).ok).toBe(false)
    expect(checkResponse(undefined, 404, envelope("NOT_FOUND")).ok).toBe(true)
  })
  it("rejects an error body that is not the envelope", () => {
    expect(checkResponse(undefined, 404, { error: "x" }).ok).toBe(false)
  })
})
