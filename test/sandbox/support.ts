import { expect } from "vitest"
import { evmSigner, type KeyPair } from "@tessera/core/testing"
import { basic, business, individual, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet } from "../support/wallet.ts"
import { usd, wallet } from "../external-accounts/support.ts"

export const V = "/2025-10-13"

export interface World {
  readonly customerId: string
  readonly accountId: string
  readonly credentialId: string
  /** A live session's key, from the OTP login. */
  readonly sessionKey: KeyPair
  readonly externalAccountIds: ReadonlyArray<string>
}

/**
 * A platform with something in every corner: customers (one updated, one deleted, a business),
 * a wallet login (OTP issuance, consumed request, session), bank and wallet external accounts
 * (one verified, which writes an event; one with an open LIVENESS challenge), a processing hold,
 * an outstanding OTP.
 */
export const buildWorld = async (t: TestServer): Promise<World> => {
  const send = async (method: string, path: string, body?: unknown, status = 200) => {
    const r = await t.request(method, `${V}${path}`, body === undefined ? {} : { body })
    expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status)
    return r.body
  }
  const w = await newWallet(t)
  const { key } = await loginWithOtp(t, w.emailCredentialId)
  await send("PATCH", `/customers/${w.customerId}`, { customerType: "INDIVIDUAL", phoneNumber: "+14155550100" })
  const acme = await send("POST", "/customers", business({ platformCustomerId: `acme-${Math.random()}` }), 201)
  const gone = await send("POST", "/customers", individual({ email: undefined, platformCustomerId: undefined, fullName: "Gone 003" }), 201)
  await send("DELETE", `/customers/${gone.id}`)
  const bank = await send("POST", "/customers/external-accounts", { ...usd("555000104"), customerId: w.customerId }, 201)
  const signer = evmSigner()
  const owned = await send("POST", "/platform/external-accounts", wallet("ETHEREUM_WALLET", signer.address), 201)
  const ch = await send("POST", `/platform/external-accounts/${owned.id}/challenge`, { method: "WALLET_SIGNATURE" }, 201)
  await send("POST", `/platform/external-accounts/${owned.id}/verify`, { signature: signer.sign(ch.messageToSign) })
  const live = await send("POST", "/platform/external-accounts", wallet("BASE_WALLET", evmSigner().address), 201)
  await send("POST", `/platform/external-accounts/${live.id}/challenge`, { method: "LIVENESS" }, 201)
  const acmeAccount = (await send("GET", `/customers/internal-accounts?customerId=${acme.id}`)).data[0].id
  await send("POST", `/sandbox/internal-accounts/${acmeAccount}/processing`, { operations: 2, seconds: 30 })
  // An OTP issued and not yet used.
  const acmeCredential = (await send("GET", `/auth/credentials?accountId=${acmeAccount}`)).data[0].id
  await send("POST", `/auth/credentials/${acmeCredential}/challenge`)
  return { customerId: w.customerId, accountId: w.accountId, credentialId: w.emailCredentialId, sessionKey: key, externalAccountIds: [bank.id, owned.id, live.id] }
}

/** The same server, as another platform: every request carries that platform's credentials. */
export const asPlatform = async (t: TestServer, clientId: string): Promise<TestServer> => {
  const secret = `${clientId}-secret-0123456789`
  await t.engine.platform({ clientId, clientSecret: secret })
  const auth = basic(clientId, secret)
  return { ...t, request: (method, path, o = {}) => t.request(method, path, { ...o, auth: o.auth === undefined ? auth : o.auth }) }
}

export const exportState = async (t: TestServer) => {
  const r = await t.request("GET", `${V}/sandbox/state`)
  expect(r.status).toBe(200)
  return r.body
}

/** The document without its export time, which is all that may differ between two exports. */
export const content = <D extends { readonly exportedAt?: string }>(doc: D): Omit<D, "exportedAt"> => {
  const { exportedAt: _at, ...rest } = doc
  return rest
}
