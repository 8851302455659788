// The part of autocannon's API bench/search.ts uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    interface Histogram {
      average: number;
      total: number;
    }
    interface Result {
      requests: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      requests?: Request[];
    }
    interface Instance {
      on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
    }
  }
  function autocannon(opts: autocannon.Options, done: (err: Error | null, result: autocannon.Result) => void): autocannon.Instance;
  export default autocannon;
}
