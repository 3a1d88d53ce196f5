// Just the part of autocannon's API the benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      /** One URL, or several: the connections are spread over them. */
      url?: string | ReadonlyArray<string>
      method?: string
      headers?: Record<string, string>
      body?: string
      connections?: number
      duration?: number
    }
    interface Result {
      requests: { average: number }
      latency: { p99: number }
      non2xx: number
      /** Connection errors and timeouts. */
      errors: number
    }
  }
  function autocannon(opts: autocannon.Options, cb: (err: Error | null, res: autocannon.Result) => void): unknown
  export default autocannon
}
