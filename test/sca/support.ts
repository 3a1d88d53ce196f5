import { expect } from "vitest"
import { individual, type TestServer } from "../support/server.ts"

export const V = "/2025-10-13"
export const CODE = "123456"
export const ORIGIN = "https://sca.tessera.sandbox"
export const RP_ID = "sca.tessera.sandbox"

/** `?customerId=…` of an SCA call. */
export const q = (customerId: string) => `?customerId=${encodeURIComponent(customerId)}`

/** A customer SCA applies to (nationality DE, no address). */
export const euCustomer = async (t: TestServer, over: Record<string, unknown> = {}) => {
  const r = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, nationality: "DE", platformCustomerId: undefined, ...over }) })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

/** A customer outside SCA regions. */
export const usCustomer = async (t: TestServer) => {
  const r = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, platformCustomerId: undefined }) })
  expect(r.status).toBe(201)
  return r.body.id as string
}

/** An SMS_OTP SCA login with the sandbox code: the customer has an SCA session after it. */
export const scaLogin = async (t: TestServer, customerId: string) => {
  const start = await t.request("POST", `${V}/sca/login/start${q(customerId)}`, { body: { factor: "SMS_OTP" } })
  expect(start.status, JSON.stringify(start.body)).toBe(200)
  const done = await t.request("POST", `${V}/sca/login/complete${q(customerId)}`, {
    body: { factor: "SMS_OTP", challengeId: start.body.challengeId, code: CODE, endUserIpAddress: "203.0.113.42" }
  })
  expect(done.status, JSON.stringify(done.body)).toBe(200)
  return done.body as { status: string; sessionExpiresAt: string }
}

export const advance = async (t: TestServer, seconds: number) => {
  const r = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}
