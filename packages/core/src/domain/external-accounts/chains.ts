import { Schema } from "effect"
import type { BitcoinScheme } from "../../crypto/ownership/bitcoin.ts"
import { isEvmAddress, verifyEip191 } from "../../crypto/ownership/evm.ts"
import { isSolanaAddress, verifySolana } from "../../crypto/ownership/solana.ts"
import { isSparkAddress, verifySparkMessage } from "../../crypto/ownership/spark.ts"
import { isTronAddress, verifyTip191 } from "../../crypto/ownership/tron.ts"

/**
 * Wallet account types, the address each accepts and how ownership is proven (DECISIONS #13).
 * LIGHTNING has no key to prove: a challenge on it is 409.
 */
export interface Chain {
  readonly isAddress: (address: string) => boolean
  readonly verify: (address: string, message: string, signature: string, scheme: BitcoinScheme) => boolean
  readonly addressFormat: string
}

const evm: Chain = { isAddress: isEvmAddress, verify: (a, m, s) => verifyEip191(a, m, s), addressFormat: "an EVM address (0x + 40 hex, EIP-55 if mixed case)" }

export const chains: Readonly<Record<string, Chain>> = {
  ETHEREUM_WALLET: evm,
  BASE_WALLET: evm,
  POLYGON_WALLET: evm,
  PLASMA_WALLET: evm,
  SOLANA_WALLET: { isAddress: isSolanaAddress, verify: (a, m, s) => verifySolana(a, m, s), addressFormat: "a base58 Ed25519 public key" },
  TRON_WALLET: { isAddress: isTronAddress, verify: (a, m, s) => verifyTip191(a, m, s), addressFormat: "a base58check Tron address (T…)" },
  // Either Bitcoin-message scheme works: what counts is that the recovered key is the identity key.
  SPARK_WALLET: { isAddress: isSparkAddress, verify: (a, m, s) => verifySparkMessage(a, m, s), addressFormat: "a mainnet Spark address (spark1… or sp1…)" }
}

/** The `address` field's schema for a wallet type: the reference's plain string, checked per chain. */
export const addressSchema = (accountType: string): Schema.Schema<string> | undefined => {
  const chain = chains[accountType]
  if (chain === undefined) return undefined
  return Schema.String.pipe(Schema.filter((a) => chain.isAddress(a), { message: () => `must be ${chain.addressFormat}` }))
}

export const isWalletType = (accountType: string): boolean => chains[accountType] !== undefined

