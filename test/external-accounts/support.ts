import type { TestServer } from "../support/server.ts"
import { individual } from "../support/server.ts"

export const V = "/2025-10-13"

export const usd = (accountNumber = "123456789", over: Record<string, unknown> = {}) => ({
  currency: "USD",
  accountInfo: {
    accountType: "USD_ACCOUNT",
    accountNumber,
    routingNumber: "021000021",
    beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" },
    ...over
  }
})

export const wallet = (accountType: string, address: string, over: Record<string, unknown> = {}) => ({
  currency: accountType === "SPARK_WALLET" ? "BTC" : "USDC",
  ownershipType: "FIRST_PARTY" as const,
  accountInfo: { accountType, address },
  ...over
})

export const newCustomer = async (t: TestServer) =>
  (await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, platformCustomerId: undefined }) })).body.id as string
