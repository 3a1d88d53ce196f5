import type { Layer } from "effect"
import { Engine, type PlatformRecord, type Store } from "@tessera/core"
import { usd } from "../external-accounts/support.ts"

/** An engine on a virtual clock whose platform's USD internal account holds `amount`, for money-movement tests through the embedding API. */
export interface FundedEngine {
  readonly engine: Engine
  readonly platform: PlatformRecord
  /** The platform's USD internal account. */
  readonly internal: string
  /** Creates a platform external USD account with this account number (its suffix is the sandbox outcome); answers its id. */
  readonly external: (accountNumber: string) => Promise<string>
}

export const fundedEngine = async (store: Layer.Layer<Store>, clientId: string, amount: number): Promise<FundedEngine> => {
  const engine = await Engine.make({ store, clock: "virtual" })
  const platform = await engine.platform({ clientId, clientSecret: `${clientId}-secret-0123456789` })
  const api = engine.as(platform)
  const internal = ((await api.platform.listInternalAccounts()) as { data: Array<{ id: string }> }).data[0]!.id
  await api.sandbox.fundInternalAccount(internal, { amount })
  const external = async (accountNumber: string) =>
    ((await api.platform.createExternalAccount(usd(accountNumber) as never)).body as { id: string }).id
  return { engine, platform, internal, external }
}
