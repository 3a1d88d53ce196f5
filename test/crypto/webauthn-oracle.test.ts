// Our WebAuthn checks beside @simplewebauthn/server's on the same bytes: a real browser's
// registration, and software passkeys with and without tampering. Both must agree.
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server"
import { convertCOSEtoPKCS } from "@simplewebauthn/server/helpers"
import { bytesToHex, decodeCbor, utf8, verifyAssertion, verifyRegistration } from "@tessera/core/crypto"
import { SoftwarePasskey } from "@tessera/core/testing"

// MasterKale/SimpleWebAuthn packages/server/src/registration/verifyRegistrationResponse.test.ts
// (attestationNone): Firefox on Android, fmt "none", flags UP|AT, rpId dev.dontneeda.pw.
const firefoxNone = {
  credentialId: "AdKXJEch1aV5Wo7bj7qLHskVY4OoNaj9qu8TPdJ7kSAgUeRxWNngXlcNIGt4gexZGKVGcqZpqqWordXb_he1izY",
  attestationObject:
    "o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjFPdxHEOnAiLIp26idVjIguzn3I" +
    "pr_RlsKZWsa-5qK-KBFAAAAAAAAAAAAAAAAAAAAAAAAAAAAQQHSlyRHIdWleVqO24-6ix7JFWODqDWo_arvEz3Se" +
    "5EgIFHkcVjZ4F5XDSBreIHsWRilRnKmaaqlqK3V2_4XtYs2pQECAyYgASFYID5PQTZQQg6haZFQWFzqfAOyQ_ENs" +
    "MH8xxQ4GRiNPsqrIlggU8IVUOV8qpgk_Jh-OTaLuZL52KdX1fTht07X4DiQPow",
  clientDataJson:
    "eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIiwiY2hhbGxlbmdlIjoiYUVWalkxQlhkWHBw" +
    "VURBd1NEQndOV2Q0YURKZmRUVmZVRU0wVG1WWloyUSIsIm9yaWdpbiI6Imh0dHBzOlwvXC9kZXYuZG9udG5lZWRh" +
    "LnB3IiwiYW5kcm9pZFBhY2thZ2VOYW1lIjoib3JnLm1vemlsbGEuZmlyZWZveCJ9",
  challenge: Buffer.from("hEccPWuziP00H0p5gxh2_u5_PC4NeYgd").toString("base64url")
}

const libRegister = (reg: { credentialId: string; clientDataJson: string; attestationObject: string }, challenge: string, origin: string, rpId: string) =>
  verifyRegistrationResponse({
    response: {
      id: reg.credentialId,
      rawId: reg.credentialId,
      response: { clientDataJSON: reg.clientDataJson, attestationObject: reg.attestationObject },
      type: "public-key",
      clientExtensionResults: {}
    },
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpId,
    requireUserVerification: false
  }).then(
    (r) => (r.verified ? r.registrationInfo.credential : undefined),
    () => undefined
  )

describe("a real browser registration (SimpleWebAuthn fixture), read by both", () => {
  it("both accept it and extract the same credential id, counter and P-256 key", async () => {
    const ours = verifyRegistration(firefoxNone)
    const lib = await libRegister(firefoxNone, firefoxNone.challenge, "https://dev.dontneeda.pw", "dev.dontneeda.pw")
    expect(ours.ok && lib !== undefined).toBe(true)
    if (!ours.ok || lib === undefined) return
    expect(ours.value.credentialId).toBe(lib.id)
    expect(ours.value.signCount).toBe(lib.counter)
    expect(ours.value.publicKey).toBe(bytesToHex(convertCOSEtoPKCS(lib.publicKey)))
    expect(ours.value.origin).toBe("https://dev.dontneeda.pw")
    // The attestation object is one map of exactly the three members.
    expect([...(decodeCbor(Buffer.from(firefoxNone.attestationObject, "base64url"))!.value as Map<string, unknown>).keys()]).toEqual(["fmt", "attStmt", "authData"])
  })

  it("both refuse it for another challenge", async () => {
    const other = Buffer.from("another").toString("base64url")
    expect(verifyRegistration({ ...firefoxNone, challenge: other }).ok).toBe(false)
    expect(await libRegister(firefoxNone, other, "https://dev.dontneeda.pw", "dev.dontneeda.pw")).toBeUndefined()
  })
})

const libAssert = (
  a: { credentialId: string; clientDataJson: string; authenticatorData: string; signature: string },
  expected: { challenge: string; origin: string; rpId: string; cose: Uint8Array; counter: number }
) =>
  verifyAuthenticationResponse({
    response: {
      id: a.credentialId,
      rawId: a.credentialId,
      response: { clientDataJSON: a.clientDataJson, authenticatorData: a.authenticatorData, signature: a.signature },
      type: "public-key",
      clientExtensionResults: {}
    },
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.origin,
    expectedRPID: expected.rpId,
    credential: { id: a.credentialId, publicKey: expected.cose as Uint8Array<ArrayBuffer>, counter: expected.counter },
    requireUserVerification: false
  }).then(
    (r) => r.verified,
    () => false
  )

describe("software passkeys: our verdict equals SimpleWebAuthn's", () => {
  it("registration and assertion, honest or tampered (signature, origin, user presence, counter)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.hexaString({ minLength: 64, maxLength: 64 }),
        fc.constantFrom("honest", "signature", "origin", "absent", "replay"),
        async (seed, hex, tamper) => {
          const origin = "https://app.example.com"
          const pk = new SoftwarePasskey({ origin, rpId: "example.com", seed })
          const challenge = Buffer.from(seed).toString("base64url")
          const reg = pk.register(challenge)
          const ours = verifyRegistration({ challenge, ...reg })
          const lib = await libRegister(reg, challenge, origin, "example.com")
          expect(ours.ok).toBe(true)
          expect(lib).toBeDefined()
          if (!ours.ok || lib === undefined) return
          expect(ours.value.publicKey).toBe(bytesToHex(convertCOSEtoPKCS(lib.publicKey)))

          const first = pk.assert(hex)
          const a = tamper === "origin" ? pk.assert(hex, { origin: "https://evil.example" }) : tamper === "absent" ? pk.assert(hex, { userPresent: false }) : first
          const sig = Buffer.from(a.signature, "base64url")
          if (tamper === "signature") sig[sig.length - 2]! ^= 1
          const sent = { ...a, signature: sig.toString("base64url") }
          const counter = tamper === "replay" ? 10 : 0
          const oursOk = verifyAssertion({ passkey: { ...ours.value, signCount: counter }, challengeBytes: utf8(hex), ...sent }).ok
          const libOk = await libAssert(sent, { challenge: Buffer.from(hex).toString("base64url"), origin, rpId: "example.com", cose: lib.publicKey, counter })
          expect(oursOk).toBe(tamper === "honest")
          expect(libOk).toBe(oursOk)
        }
      ),
      { numRuns: 25 }
    )
  })
})
