import { expect } from "vitest"
import { randomUUID } from "node:crypto"
import type { KeyPair } from "@tessera/core/testing"
import { type Reply, type TestServer } from "../support/server.ts"
import { retry, V } from "../support/wallet.ts"

export const PATH = `${V}/auth/delegated-keys`

export const newCardId = () => `Card:${randomUUID()}`

export const createBody = (accountId: string, cardId = newCardId(), nickname = "Card payments key") => ({ cardId, internalAccountId: accountId, nickname })

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
