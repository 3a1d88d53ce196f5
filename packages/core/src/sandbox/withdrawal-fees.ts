/**
 * The sandbox's crypto withdrawal fees (`POST /crypto/estimate-withdrawal-fee`, DECISIONS #179):
 * a fixed network fee per network in its native asset's smallest unit, what that asset is worth,
 * and the currencies each network carries. The application fee is none.
 */
export interface SandboxNetwork {
  readonly network: string
  readonly feeAsset: string
  /** The network fee, in the fee asset's smallest unit. */
  readonly networkFee: number
  readonly feeAssetDecimals: number
  /** US dollars per unit of the fee asset. */
  readonly feeAssetUsd: number
  /** Currencies a withdrawal on this network may carry. */
  readonly currencies: ReadonlyArray<string>
}

const stablecoins = ["USDC", "USDB"]

export const sandboxNetworks: ReadonlyArray<SandboxNetwork> = [
  { network: "SOLANA", feeAsset: "SOL", networkFee: 5_000, feeAssetDecimals: 9, feeAssetUsd: 150, currencies: stablecoins },
  { network: "ETHEREUM", feeAsset: "ETH", networkFee: 420_000_000_000_000, feeAssetDecimals: 18, feeAssetUsd: 3_000, currencies: stablecoins },
  { network: "BASE", feeAsset: "ETH", networkFee: 1_000_000_000_000, feeAssetDecimals: 18, feeAssetUsd: 3_000, currencies: stablecoins },
  { network: "POLYGON", feeAsset: "POL", networkFee: 5_000_000_000_000_000, feeAssetDecimals: 18, feeAssetUsd: 0.5, currencies: stablecoins },
  { network: "TRON", feeAsset: "TRX", networkFee: 1_000_000, feeAssetDecimals: 6, feeAssetUsd: 0.12, currencies: stablecoins },
  { network: "PLASMA", feeAsset: "XPL", networkFee: 1_000_000_000_000_000, feeAssetDecimals: 18, feeAssetUsd: 0.5, currencies: stablecoins },
  { network: "SPARK", feeAsset: "BTC", networkFee: 0, feeAssetDecimals: 8, feeAssetUsd: 65_000, currencies: ["BTC", ...stablecoins] },
  { network: "LIGHTNING", feeAsset: "BTC", networkFee: 10, feeAssetDecimals: 8, feeAssetUsd: 65_000, currencies: ["BTC"] },
  { network: "BITCOIN", feeAsset: "BTC", networkFee: 2_000, feeAssetDecimals: 8, feeAssetUsd: 65_000, currencies: ["BTC"] }
]
