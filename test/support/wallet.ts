import { expect } from "vitest"
import { type KeyPair, newKeyPair, sealOtp, stamp } from "@tessera/core/testing"
import { individual, type Reply, type TestServer } from "./server.ts"

/** What these helpers need of a server: its request helper (an in-process server or a `tessera serve` process). */
export type Client = Pick<TestServer, "request">

export const V = "/2025-10-13"

export interface Wallet {
  readonly customerId: string
  readonly accountId: string
  readonly emailCredentialId: string
}

/** A customer with an email, its Global account and the EMAIL_OTP credential it was born with. */
export const newWallet = async (t: Client, email = `w${Math.random().toString(36).slice(2)}@example.com`): Promise<Wallet> => {
  const c = await t.request("POST", `${V}/customers`, { body: individual({ email, platformCustomerId: undefined }) })
  expect(c.status).toBe(201)
  const accounts = await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`)
  const accountId = accounts.body.data[0].id as string
  const creds = await t.request("GET", `${V}/auth/credentials?accountId=${encodeURIComponent(accountId)}`)
  return { customerId: c.body.id, accountId, emailCredentialId: creds.body.data[0].id }
}

/** The second leg of a signed retry: the same request, stamped, with the challenge's Request-Id. */
export const retry = (t: Client, method: string, path: string, challenge: Reply, key: KeyPair | string, body?: unknown) =>
  t.request(method, path, {
    ...(body === undefined ? {} : { body }),
    headers: {
      "service-wallet-signature": typeof key === "string" ? key : stamp(key.privateKey, challenge.body.payloadToSign),
      "request-id": challenge.body.requestId
    }
  })

/** Both legs of a signed call; answers the first leg's 202 and the final reply. */
export const signed = async (t: Client, method: string, path: string, key: KeyPair, body?: unknown) => {
  const challenge = await t.request(method, path, body === undefined ? {} : { body })
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(202)
  return { challenge, final: await retry(t, method, path, challenge, key, body) }
}

/** The email OTP flow of the spec: challenge, seal 000000 with a fresh TEK, verify, stamp, verify again. */
export const loginWithOtp = async (t: Client, credentialId: string, type: "EMAIL_OTP" | "SMS_OTP" = "EMAIL_OTP") => {
  const ch = await t.request("POST", `${V}/auth/credentials/${credentialId}/challenge`)
  expect(ch.status, JSON.stringify(ch.body)).toBe(200)
  const tek = newKeyPair()
  const body = { type, encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
  const { challenge, final } = await signed(t, "POST", `${V}/auth/credentials/${credentialId}/verify`, tek, body)
  expect(challenge.body.type).toBe(type)
  expect(final.status, JSON.stringify(final.body)).toBe(200)
  return { session: final.body, key: tek }
}
