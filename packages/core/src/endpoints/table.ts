import { beneficialOwnerEndpoints } from "./beneficial-owners.ts"
import { cardEndpoints, sandboxCardEndpoints } from "./cards.ts"
import { customerEndpoints } from "./customers.ts"
import { delegatedKeyEndpoints } from "./delegated-keys.ts"
import { directoryEndpoints } from "./directories.ts"
import { documentEndpoints } from "./documents.ts"
import { exchangeRateEndpoints } from "./exchange-rates.ts"
import { externalAccountEndpoints } from "./external-accounts.ts"
import { internalAccountEndpoints } from "./internal-accounts.ts"
import { platformEndpoints } from "./platform.ts"
import { quoteEndpoints } from "./quotes.ts"
import { cryptoEndpoints, receiverEndpoints } from "./receivers.ts"
import { sandboxEndpoints } from "./sandbox.ts"
import { scaEndpoints } from "./sca.ts"
import { sandboxPaymentEndpoints } from "./sandbox-payments.ts"
import { verificationEndpoints } from "./verifications.ts"
import { transactionEndpoints } from "./transactions.ts"
import { walletAuthEndpoints } from "./wallet-auth.ts"
import { webhookEndpoints } from "./webhooks.ts"
import { configEndpoints } from "./config.ts"
import { tokenEndpoints } from "./tokens.ts"
import { invitationEndpoints } from "./invitations.ts"
import { stablecoinEndpoints } from "./stablecoins.ts"
import { agentEndpoints } from "./agents.ts"
import { agentMeEndpoints } from "./agents-me.ts"

/**
 * Every endpoint of the API, each declared once. The HTTP adapter's route table, the served
 * OpenAPI document and the embedding API (`engine.as(platform)`) are derived from this list;
 * its order is the document's.
 */
export const endpoints = [
  ...customerEndpoints,
  ...documentEndpoints,
  ...internalAccountEndpoints,
  ...walletAuthEndpoints,
  ...delegatedKeyEndpoints,
  ...externalAccountEndpoints,
  ...platformEndpoints,
  ...webhookEndpoints,
  ...sandboxEndpoints,
  ...verificationEndpoints,
  ...beneficialOwnerEndpoints,
  ...transactionEndpoints,
  ...exchangeRateEndpoints,
  ...receiverEndpoints,
  ...cryptoEndpoints,
  ...quoteEndpoints,
  ...sandboxPaymentEndpoints,
  ...configEndpoints,
  ...tokenEndpoints,
  ...invitationEndpoints,
  ...directoryEndpoints,
  ...scaEndpoints,
  ...cardEndpoints,
  ...sandboxCardEndpoints,
  ...stablecoinEndpoints,
  ...agentEndpoints,
  ...agentMeEndpoints
]

export type Endpoints = (typeof endpoints)[number]
