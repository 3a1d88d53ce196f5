/**
 * The sandbox's directories (DECISIONS #268–#271): the VASPs a custodial wallet may name, the UMA
 * providers, and the receiving institutions of each payout corridor. VASP and bank names are
 * public facts (the firms exist; the URLs are their public sites); the UMA providers are invented
 * for the sandbox and live on the sandbox UMA domains or `.example` ones.
 */

/** A custodial platform a wallet can be held at: `vaspName` on external accounts must be one of these. */
export interface SandboxVasp {
  readonly vaspName: string
  readonly url?: string
}

export const sandboxVasps: ReadonlyArray<SandboxVasp> = [
  { vaspName: "Binance", url: "https://www.binance.com" },
  { vaspName: "Bitfinex", url: "https://www.bitfinex.com" },
  { vaspName: "bitFlyer", url: "https://bitflyer.com" },
  { vaspName: "Bitget", url: "https://www.bitget.com" },
  { vaspName: "Bitpanda", url: "https://www.bitpanda.com" },
  { vaspName: "Bitso", url: "https://bitso.com" },
  { vaspName: "Bitstamp", url: "https://www.bitstamp.net" },
  { vaspName: "Bybit", url: "https://www.bybit.com" },
  { vaspName: "Coinbase", url: "https://www.coinbase.com" },
  { vaspName: "Coins.ph", url: "https://coins.ph" },
  { vaspName: "Crypto.com", url: "https://crypto.com" },
  { vaspName: "Gemini", url: "https://www.gemini.com" },
  { vaspName: "Kraken", url: "https://www.kraken.com" },
  { vaspName: "KuCoin", url: "https://www.kucoin.com" },
  { vaspName: "Luno", url: "https://www.luno.com" },
  { vaspName: "Mercado Bitcoin", url: "https://www.mercadobitcoin.com.br" },
  { vaspName: "OKX", url: "https://www.okx.com" },
  { vaspName: "Upbit", url: "https://upbit.com" },
  { vaspName: "Uphold", url: "https://uphold.com" },
  { vaspName: "WazirX", url: "https://wazirx.com" },
  // A sandbox VASP with no known website: `url` is optional in the directory.
  { vaspName: "Sandbox Custody" }
]

const vaspNames = new Set(sandboxVasps.map((v) => v.vaspName))

/** Whether `name` is a VASP of the directory (exactly as listed). */
export const isKnownVasp = (name: string): boolean => vaspNames.has(name)

/** A UMA provider of `GET /uma-providers`; currencies are codes of the sandbox market. */
export interface SandboxUmaProvider {
  readonly name: string
  readonly domain: string
  readonly supportedRegions: ReadonlyArray<string>
  readonly supportedCurrencies: ReadonlyArray<string>
  /** On every platform's allow list, except the one the sandbox keeps blocked to show the filter. */
  readonly allowListed: boolean
}

export const sandboxUmaProviders: ReadonlyArray<SandboxUmaProvider> = [
  { name: "Tessera Sandbox UMA", domain: "sandbox.uma.money", supportedRegions: ["US"], supportedCurrencies: ["USD", "USDC", "BTC"], allowListed: true },
  { name: "Tessera Sandbox Grid", domain: "sandbox.grid.uma.money", supportedRegions: ["US", "CA"], supportedCurrencies: ["USD", "CAD"], allowListed: true },
  { name: "Andes Wallet", domain: "andes-wallet.example", supportedRegions: ["CO", "MX"], supportedCurrencies: ["COP", "MXN", "USD"], allowListed: true },
  { name: "Baltic Pay", domain: "baltic-pay.example", supportedRegions: ["DE", "FR", "ES", "NL"], supportedCurrencies: ["EUR"], allowListed: true },
  { name: "Harbour Money", domain: "harbour-money.example", supportedRegions: ["GB"], supportedCurrencies: ["GBP", "EUR"], allowListed: true },
  { name: "Lagos Remit", domain: "lagos-remit.example", supportedRegions: ["NG"], supportedCurrencies: ["NGN", "USD"], allowListed: true },
  { name: "Manila Padala", domain: "manila-padala.example", supportedRegions: ["PH"], supportedCurrencies: ["PHP", "USD"], allowListed: true },
  { name: "Merlion Wallet", domain: "merlion-wallet.example", supportedRegions: ["SG"], supportedCurrencies: ["SGD", "USD"], allowListed: true },
  { name: "Nairobi Mobile", domain: "nairobi-mobile.example", supportedRegions: ["KE"], supportedCurrencies: ["KES"], allowListed: true },
  { name: "Rio Carteira", domain: "rio-carteira.example", supportedRegions: ["BR"], supportedCurrencies: ["BRL"], allowListed: true },
  { name: "Sahyadri Pay", domain: "sahyadri-pay.example", supportedRegions: ["IN"], supportedCurrencies: ["INR"], allowListed: true },
  { name: "Tijuana Transfer", domain: "tijuana-transfer.example", supportedRegions: ["MX", "US"], supportedCurrencies: ["MXN", "USD"], allowListed: true },
  { name: "Blocked Sandbox Provider", domain: "blocked.sandbox.example", supportedRegions: ["US"], supportedCurrencies: ["USD"], allowListed: false }
]

/** A receiving institution of `GET /discoveries`: `bankName` is what external accounts take as `bankName`. */
export interface SandboxInstitution {
  readonly bankName: string
  readonly displayName: string
  readonly country: string
  readonly currency: string
}

const banks = (country: string, currency: string, names: ReadonlyArray<readonly [string, string]>): Array<SandboxInstitution> =>
  names.map(([bankName, displayName]) => ({ bankName, displayName, country, currency }))

/** One table per payout corridor of the sandbox market (`sandboxCurrencies` with a rail). */
export const sandboxInstitutions: ReadonlyArray<SandboxInstitution> = [
  ...banks("US", "USD", [["Chase", "JPMorgan Chase Bank"], ["Bank of America", "Bank of America"], ["Wells Fargo", "Wells Fargo Bank"]]),
  ...banks("DE", "EUR", [["Deutsche Bank", "Deutsche Bank"], ["Commerzbank", "Commerzbank"]]),
  ...banks("FR", "EUR", [["BNP Paribas", "BNP Paribas"], ["Societe Generale", "Société Générale"]]),
  ...banks("ES", "EUR", [["Santander", "Banco Santander"], ["BBVA", "Banco Bilbao Vizcaya Argentaria"]]),
  ...banks("GB", "GBP", [["Barclays", "Barclays Bank"], ["HSBC UK", "HSBC UK Bank"], ["Lloyds", "Lloyds Bank"]]),
  ...banks("MX", "MXN", [["BBVA Mexico", "BBVA México"], ["Banorte", "Banco Mercantil del Norte"], ["Santander Mexico", "Banco Santander México"]]),
  ...banks("BR", "BRL", [["Itau Unibanco", "Itaú Unibanco"], ["Banco do Brasil", "Banco do Brasil"], ["Nubank", "Nu Pagamentos"]]),
  ...banks("IN", "INR", [["State Bank of India", "State Bank of India"], ["HDFC Bank", "HDFC Bank"], ["ICICI Bank", "ICICI Bank"]]),
  ...banks("PH", "PHP", [["BDO Unibank", "BDO Unibank"], ["BPI", "Bank of the Philippine Islands"], ["GCash", "GCash (G-Xchange)"]]),
  ...banks("CA", "CAD", [["RBC", "Royal Bank of Canada"], ["TD Canada Trust", "TD Canada Trust"]]),
  ...banks("SG", "SGD", [["DBS", "DBS Bank"], ["OCBC", "Oversea-Chinese Banking Corporation"]]),
  ...banks("CO", "COP", [["Bancolombia", "Bancolombia"], ["Davivienda", "Banco Davivienda"]]),
  ...banks("NG", "NGN", [["Access Bank", "Access Bank"], ["GTBank", "Guaranty Trust Bank"]]),
  ...banks("KE", "KES", [["M-Pesa", "Safaricom M-Pesa"], ["Equity Bank", "Equity Bank Kenya"]])
]
