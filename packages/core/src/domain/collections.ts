import { collection } from "../ports/store.ts"
import type { AuthMethodRecord } from "./auth-method.ts"
import type { CustomerRecord } from "./customer.ts"
import type { InternalAccountRecord } from "./internal-account.ts"
import type { PlatformRecord } from "./platform.ts"

/** Every collection the engine stores, with its indexes, in one place. */

export const Platforms = collection<PlatformRecord>()("platforms", (p) => p.id, {
  clientId: (p) => p.clientId
})

export const Customers = collection<CustomerRecord>()("customers", (c) => c.id, {
  platformCustomerId: (c) => c.platformCustomerId,
  umaAddress: (c) => (c.isDeleted ? undefined : c.umaAddress.toLowerCase())
})

export const InternalAccounts = collection<InternalAccountRecord>()("internalAccounts", (a) => a.id, {
  customerId: (a) => a.customerId ?? "platform"
})

export const AuthMethods = collection<AuthMethodRecord>()("authMethods", (a) => a.id, {
  accountId: (a) => a.accountId,
  email: (a) => a.email?.toLowerCase()
})
