/** Ids the fuzzer has seen in answers, by their prefix, so later requests address real resources. */
export type IdKind = "Customer" | "InternalAccount" | "ExternalAccount" | "AuthMethod" | "Session" | "ScaChallenge" | "BeneficialOwner" | "Verification" | "Document" | "Job" | "Transaction" | "Quote" | "Lookup" | "Token" | "DelegatedKey" | "CardFundingSource" | "ScaReset" | "Card" | "CardTransaction" | "Stablecoin" | "StablecoinOperation" | "StablecoinProviderAccount" | "Agent" | "AgentAction"
const kinds: ReadonlyArray<string> = ["Customer", "InternalAccount", "ExternalAccount", "AuthMethod", "Session", "ScaChallenge", "BeneficialOwner", "Verification", "Document", "Job", "Transaction", "Quote", "Lookup", "Token", "DelegatedKey", "CardFundingSource", "ScaReset", "Card", "CardTransaction", "Stablecoin", "StablecoinOperation", "StablecoinProviderAccount", "Agent", "AgentAction"]
const idPattern = /^([A-Za-z]+):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A signed retry's first leg, kept so a later request can send a second leg for it. */
export interface Challenge {
  readonly method: string
  readonly path: string
  readonly body: Buffer | undefined
  readonly requestId: string
  readonly payloadToSign: string
}

const KEEP = 64

export class Pool {
  private readonly ids = new Map<string, Array<string>>()
  readonly challenges: Array<Challenge> = []
  /** `otpEncryptionTargetBundle`s from credential challenges, to seal OTPs to. */
  readonly otpTargets: Array<string> = []
  /** Tokens of hosted KYC links, to complete them. */
  readonly kycTokens: Array<string> = []
  /** Codes of invitations created, to read, claim and cancel them. */
  readonly invitationCodes: Array<string> = []
  /** Agents' device codes, to redeem and poll, and the access tokens redeemed for them. */
  readonly deviceCodes: Array<string> = []
  readonly agentTokens: Array<string> = []
  /** Customers' UMA addresses, to invite from. */
  readonly umaAddresses: Array<string> = []
  /** The last state document exported (when small), to import again. */
  stateDocument: unknown = undefined

  /** The n-th remembered id of a kind (wrapping), or a well-formed id that names nothing. */
  id(kind: IdKind, n: number): string {
    const list = this.ids.get(kind)
    if (list === undefined || list.length === 0) return `${kind}:00000000-0000-4000-8000-${String(n % 1e12).padStart(12, "0")}`
    return list[n % list.length]!
  }

  /** The newest remembered id of a kind (the likeliest still to exist), or a well-formed id that names nothing. */
  latest(kind: IdKind): string {
    const list = this.ids.get(kind)
    return list === undefined || list.length === 0 ? this.id(kind, 0) : list[list.length - 1]!
  }

  /** Remembers every id in an answer (the newest KEEP of each kind). */
  harvest(value: unknown, depth = 0): void {
    if (depth > 8) return
    if (typeof value === "string") {
      const m = idPattern.exec(value)
      if (m !== null && kinds.includes(m[1]!)) {
        const list = this.ids.get(m[1]!) ?? []
        if (!list.includes(value)) list.push(value)
        if (list.length > KEEP) list.shift()
        this.ids.set(m[1]!, list)
      }
    } else if (Array.isArray(value)) for (const v of value) this.harvest(v, depth + 1)
    else if (value !== null && typeof value === "object") for (const v of Object.values(value)) this.harvest(v, depth + 1)
  }

  remember(challenge: Challenge): void {
    keep(this.challenges, challenge)
  }

  /** What an answer teaches: its ids, an OTP target, a state document. */
  learn(operationId: string | undefined, body: unknown, text: string): void {
    // A reset emptied the platform: the ids seen before name nothing now.
    if (operationId === "tessera.resetSandbox") this.ids.clear()
    this.harvest(body)
    if (body === null || typeof body !== "object") return
    const b = body as Record<string, unknown>
    if (typeof b["otpEncryptionTargetBundle"] === "string") keep(this.otpTargets, b["otpEncryptionTargetBundle"])
    if (operationId === "createCustomerKycLink" && typeof b["token"] === "string") keep(this.kycTokens, b["token"])
    if (operationId === "createInvitation" && typeof b["code"] === "string") keep(this.invitationCodes, b["code"])
    if (operationId === "createCustomer" && typeof b["umaAddress"] === "string") keep(this.umaAddresses, b["umaAddress"])
    const code = operationId === "createAgent" ? (b["deviceCode"] as Record<string, unknown> | undefined)?.["code"] : operationId === "regenerateAgentDeviceCode" ? b["code"] : undefined
    if (typeof code === "string") keep(this.deviceCodes, code)
    if (operationId === "redeemAgentDeviceCode" && typeof b["accessToken"] === "string") keep(this.agentTokens, b["accessToken"])
    if (operationId === "tessera.exportSandboxState" && text.length < 200_000) this.stateDocument = body
  }
}

const keep = <A>(list: Array<A>, item: A) => {
  list.push(item)
  if (list.length > KEEP) list.shift()
}
