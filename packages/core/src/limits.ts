/**
 * Every lifetime, interval and limit of the engine, in one place (DECISIONS #9). Modules import
 * these by name; none writes its own copy, so a change here is a change everywhere.
 */

/** How long each issued thing lives, in milliseconds of engine time. */
export const lifetimes = {
  /** A signed-retry challenge (202) until its retry must arrive. */
  signedRetryChallengeMs: 5 * 60_000,
  /** An OTP issuance (and a contact-verification code). */
  otpMs: 5 * 60_000,
  /** A wallet session opened by a credential or a refresh. */
  sessionMs: 15 * 60_000,
  /** A wallet-signature or liveness ownership challenge. */
  ownershipChallengeMs: 10 * 60_000,
  /** How old an OIDC token's `iat` may be. */
  oidcFreshnessMs: 60_000,
  /** Clock skew allowed on an OIDC token's `iat`, either way. */
  oidcSkewMs: 5_000
} as const

/** Minimum spacing of two challenges (OTP sends) on one credential (429 inside it). */
export const CHALLENGE_INTERVAL_MS = 30_000

/**
 * Wrong codes allowed per OTP issuance before it is withdrawn (429; a new challenge is needed),
 * and per contact-verification code (400; a resend is needed).
 */
export const OTP_MAX_ATTEMPTS = 5

/** Webhook retries: exponential from the base, capped, abandoned after the delivery window. */
export const BACKOFF_BASE_MS = 1_000
export const BACKOFF_MAX_MS = 30 * 60_000
export const DELIVERY_WINDOW_MS = 7 * 24 * 3_600_000
/** At most this many due events are read per platform and delivery pass (the rest wait for the next). */
export const WEBHOOK_DUE_BATCH = 1_000
/** One webhook attempt waits this long for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000
/**
 * An instance claims an event for this long before sending it (engine clock), well past the
 * attempt's own timeout, so no other instance sends it meanwhile; an instance that dies mid-attempt
 * leaves the event due again once the claim runs out (DECISIONS #300).
 */
export const WEBHOOK_CLAIM_MS = 30_000
/** At most this many webhook attempts are in flight at once in a delivery pass (one per resource). */
export const WEBHOOK_CONCURRENCY = 16
/**
 * On shutdown, attempts under way get this long to come back and be recorded (no duplicate on a
 * restart) before they are aborted (a hanging receiver must not hold the exit).
 */
export const WEBHOOK_STOP_GRACE_MS = 500

/** Upper bound of one sandbox clock advance: a bad request must not throw the clock past Date's range. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600

/** List pages: `limit` 1–100, default 20 (the reference's bounds). */
export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/**
 * A bulk customer CSV (`POST /customers/bulk/csv`) is imported within its request, so its size is
 * bounded: at most this many data rows (400 past it) and this many bytes of file (413 past it).
 * A thousand rows import in about a second on SQLite.
 */
export const BULK_CSV_MAX_ROWS = 1_000
export const BULK_CSV_MAX_BYTES = 1024 * 1024

/** A state document's check lists at most this many problems. */
export const MAX_LISTED_PROBLEMS = 1000

/** DECISIONS #14: the Travel Rule threshold, 1,000 EUR equivalent in cents. */
export const TRAVEL_RULE_THRESHOLD_EUR_CENTS = 100_000

/** How long a platform record stays cached by client id (bounds staleness across processes). */
export const PLATFORM_CACHE_MS = 1000

/** Largest request body the HTTP adapter reads. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024

/**
 * The node:http server of `serve`: an idle keep-alive connection is closed after
 * `HTTP_KEEP_ALIVE_TIMEOUT_MS`; a request whose headers (or whole request, body included) have
 * not arrived within `HTTP_HEADERS_TIMEOUT_MS` (`HTTP_REQUEST_TIMEOUT_MS`) is answered 408 and
 * closed. The server looks for stalled requests every `HTTP_TIMEOUT_CHECK_INTERVAL_MS`.
 */
export const HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000
export const HTTP_HEADERS_TIMEOUT_MS = 10_000
export const HTTP_REQUEST_TIMEOUT_MS = 30_000
export const HTTP_TIMEOUT_CHECK_INTERVAL_MS = 1_000

/**
 * Deepest nesting of arrays and objects a JSON request body may have (400 past it). The API's
 * deepest documents (a state import) nest about ten levels; recursive validation and error
 * formatting overflow the stack somewhere past a thousand.
 */
export const MAX_JSON_DEPTH = 64

/** Deepest nesting the CBOR reader follows (WebAuthn attestation objects are shallow). */
export const CBOR_MAX_DEPTH = 16

/**
 * Largest CBOR input read (an attestation object with fmt none is a few hundred bytes). The
 * strict decoder costs about 0.4 µs a byte, so this bounds what one hostile request can cost.
 */
export const CBOR_MAX_BYTES = 16 * 1024

/** A transaction failing with a retryable store error (lost connection, busy lock) is run again at most this often. */
export const STORE_TRANSACTION_RETRIES = 3

/**
 * Platform secrets are stored as scrypt hashes (N, r, p, key length; salt 16 bytes): slow to
 * guess offline. A verified secret is remembered as a fast digest in process memory, so the right
 * secret pays scrypt once per process, not per request.
 */
export const SECRET_SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const

/**
 * How long after it listens the CLI checks or derives the stored hash of its configured secret
 * (scrypt in libuv's thread pool; it accepts the secret from memory meanwhile). Run at once, that
 * memory-hard work competed with the start's last steps and its first answers for the machine's
 * cores and cache (DECISIONS #520); a stop before then runs it at once.
 */
export const SECRET_SETTLE_DELAY_MS = 1_000

/** Wrong secrets allowed per client id in a window before further attempts answer 429. */
export const AUTH_FAILURE_LIMIT = 5
export const AUTH_FAILURE_WINDOW_MS = 60_000


/** How long a hosted KYC link (POST /customers/{id}/kyc-link) can be used, once. */
export const KYC_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000

/** A document's file: at most 10 MB (the reference's limit), checked by the upload (400 on `file`). */
export const DOCUMENT_MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * A document upload's whole multipart body: the file at its limit plus room for the text fields
 * and the framing (413 past it), so a file just over 10 MB is still read and answered 400 on
 * `file`, which says what is wrong.
 */
export const DOCUMENT_UPLOAD_MAX_BYTES = DOCUMENT_MAX_FILE_BYTES + 256 * 1024

/** Longest `fileName` a document keeps (the state document's bound). */
export const DOCUMENT_MAX_FILE_NAME = 255

/**
 * Most parts a multipart/form-data body may have (400 past it). An upload has a handful; the cap
 * keeps a 10 MB body of tiny parts (about 175,000, half a second of parsing) from being parsed.
 */
export const MULTIPART_MAX_PARTS = 100

/**
 * Sandbox money movement (spec "Limits": about 30 s and about 6 minutes). A transfer or pull
 * whose external account ends 005 stays PENDING this long, then fails; a quote to a destination
 * ending 003 completes this long after it started processing; a quote to one ending 005 is
 * returned by the receiving bank this long after it completed (DECISIONS #182).
 */
export const SANDBOX_PENDING_FAIL_MS = 30_000
export const SANDBOX_LONG_PAYMENT_MS = 6 * 60_000
export const SANDBOX_RETURN_AFTER_MS = 30_000

/**
 * At most this many due outcome steps are read per Store read of the due index (a pass reads
 * until none are due). Large: the stores' due read walks the whole due range to answer in
 * listing order, so small batches would read a long backlog many times over.
 */
export const DUE_STEP_BATCH = 10_000

/** How often the standalone server on a real clock applies due outcome steps. */
export const DUE_RUNNER_INTERVAL_MS = 250

/** `POST /sandbox/internal-accounts/{accountId}/fund`: the reference's largest amount (smallest unit). */
export const SANDBOX_FUND_MAX = 100_000_000_000

/** An exchange rate holds for this long of engine time; a quote keeps the rate of its creation (spec: "about 5 minutes"). */
export const EXCHANGE_RATE_LIFETIME_MS = 5 * 60_000

/**
 * The largest single transfer (`POST /transfer-in`, `/transfer-out`), in US cents or their worth
 * (400 TRANSACTION_SIZE_LIMIT_EXCEEDED past it). The spec shows no value; the sandbox's corridors
 * send at most this much too (DECISIONS #187).
 */
export const TRANSFER_MAX_USD_CENTS = 10_000_000

/**
 * A quote can be executed for this long after it was created (reference: 1–5 minutes on instant
 * rails); after it, it is EXPIRED and executing it is 409.
 */
export const QUOTE_LIFETIME_MS = 5 * 60_000

/** A webhook URL (`PATCH /config` `webhookEndpoint`, `--webhook-url`) is at most this long. */
export const WEBHOOK_URL_MAX_LENGTH = 2048

/**
 * API tokens (`POST /tokens`, DECISIONS #244): the client id is this many random bytes in hex
 * (the reference's 32 hex digits), the secret this many (256 bits, shown once).
 */
export const TOKEN_CLIENT_ID_BYTES = 16
export const TOKEN_SECRET_BYTES = 32
/** A platform holds at most this many API tokens at once. */
export const MAX_TOKENS_PER_PLATFORM = 100

/** An invitation code is this many random bytes in hex (DECISIONS #250). */
export const INVITATION_CODE_BYTES = 8

/**
 * Strong customer authentication (DECISIONS #222–#226): an SCA login session lives
 * `SCA_SESSION_MS`; a challenge (login code, per-transaction, beneficiary trust) `SCA_CHALLENGE_MS`
 * and takes `OTP_MAX_ATTEMPTS` wrong proofs before it is withdrawn; a code is re-sent at most once
 * per `CHALLENGE_INTERVAL_MS`. A pending factor enrollment lives `SCA_ENROLLMENT_MS`.
 */
export const SCA_SESSION_MS = 15 * 60_000
export const SCA_CHALLENGE_MS = 5 * 60_000
export const SCA_ENROLLMENT_MS = 10 * 60_000

/**
 * Failed-login lockout (reference `RecordSecurityEventRequest`): the lock a cumulative count of
 * failed logins reaches, by count; from `SCA_SUSPEND_AT` on the login is suspended until a
 * password reset is recorded.
 */
export const SCA_LOCKOUT_MS: Readonly<Record<number, number>> = { 5: 15 * 60_000, 6: 30 * 60_000, 7: 60 * 60_000, 8: 24 * 3_600_000 }
export const SCA_SUSPEND_AT = 9

/**
 * A 2FA reset: its window, how long the sandbox's liveness check takes to pass after the start
 * (INITIATED until then, LIVENESS_PASSED after), and at most `SCA_RESET_MAX_STARTS` starts per
 * customer in `SCA_RESET_WINDOW_MS` (429 past it; the reference's 5 per 24 hours).
 */
export const SCA_RESET_MS = 30 * 60_000
export const SCA_RESET_LIVENESS_MS = 10_000
export const SCA_RESET_MAX_STARTS = 5
export const SCA_RESET_WINDOW_MS = 24 * 3_600_000

/**
 * Cards (DECISIONS #202–#205): a card whose platformCardId ends 005 activates this long after it
 * was issued; an authorization at a merchant whose descriptor ends 005 has its pull confirmed
 * this long after it; a reveal URL works this long; a card expires this many years after issue.
 */
export const CARD_ACTIVATION_DELAY_MS = 30_000
export const CARD_PULL_DELAY_MS = 30_000
export const CARD_REVEAL_LIFETIME_MS = 5 * 60_000
export const CARD_VALIDITY_YEARS = 3

/**
 * Stablecoin issuance (DECISIONS #360): the sandbox provider takes this long for each of its
 * steps (accepting an operation, then completing or failing it); money an operation waits for
 * (a wire, a deposit to the burn address) arrives this long after it was created; an operation
 * waiting for money expires this long after it was created; a link whose apiClientId ends 003 or
 * 004 is revoked or turns invalid this long after it was linked.
 */
export const STABLECOIN_PROVIDER_STEP_MS = 10_000
export const STABLECOIN_FUNDS_ARRIVAL_MS = 60_000
export const STABLECOIN_FUNDING_WINDOW_MS = 7 * 24 * 3_600_000
export const STABLECOIN_LINK_CHANGE_MS = 30_000

/**
 * Agents (DECISIONS #372, #378): a device code is redeemable this long after it was issued (the
 * reference's example: 24 hours); an agent action waiting for the platform's approval can be
 * approved this long after it was submitted (past it, approving fails it and nothing runs); the
 * random bytes of a device code's two groups and of an agent's access token.
 */
export const AGENT_DEVICE_CODE_LIFETIME_MS = 24 * 3_600_000
export const AGENT_ACTION_APPROVAL_WINDOW_MS = 7 * 24 * 3_600_000
export const AGENT_ACCESS_TOKEN_BYTES = 20
