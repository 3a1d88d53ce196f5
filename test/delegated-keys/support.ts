import { expect } from "vitest"
import { randomUUID } from "node:crypto"
import type { KeyPair } from "@tessera/core/testing"
import { type Reply, type TestServer } from "../support/server.ts"
import { newWallet, retry, V, type Wallet } from "../support/wallet.ts"

export const PATH = `${V}/auth/delegated-keys`

/** A well-formed card id of no card. */
export const newCardId = () => `Card:${randomUUID()}`

/** A card of the wallet's customer (KYC-approved by the sandbox) funded by the wallet; answers its id. */
export const cardOf = async (t: TestServer, w: Pick<Wallet, "customerId" | "accountId">, fundingSources = [w.accountId]) => {
  const r = await t.request("POST", `${V}/cards`, { body: { cardholderId: w.customerId, form: "VIRTUAL", fundingSources, platformCardId: `dk-card-${randomUUID()}-x` } })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

/**
 * A wallet and a card it funds. The sandbox refuses funding sources whose id ends 002 or 003, so
 * such a (random) wallet is passed over for another.
 */
export const walletWithCard = async (t: TestServer): Promise<Wallet & { readonly cardId: string }> => {
  for (;;) {
    const w = await newWallet(t)
    if (["002", "003"].includes(w.accountId.slice(-3))) continue
    return { ...w, cardId: await cardOf(t, w) }
  }
}

export const createBody = (accountId: string, cardId: string, nickname = "Card payments key") => ({ cardId, internalAccountId: accountId, nickname })

/** The three legs of a creation, each retry stamped by `key`; answers every reply. */
export const createKey = async (t: TestServer, body: Record<string, unknown>, key: KeyPair) => {
  const first = await t.request("POST", PATH, { body })
  expect(first.status, JSON.stringify(first.body)).toBe(202)
  const second = await retry(t, "POST", PATH, first, key, body)
  expect(second.status, JSON.stringify(second.body)).toBe(202)
  const third = await retry(t, "POST", PATH, second, key, body)
  expect(third.status, JSON.stringify(third.body)).toBe(201)
  return { first, second, third, key: third.body as DelegatedKeyView }
}

export interface DelegatedKeyView {
  readonly id: string
  readonly cardId: string
  readonly fundingSourceId: string
  readonly accountId: string
  readonly publicKey: string
  readonly nickname: string
  readonly status: string
}

export const payloadOf = (r: Reply) => JSON.parse(r.body.payloadToSign as string)
