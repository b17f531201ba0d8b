// autocannon ships no types and there is no @types package among the dependencies: this declares the
// part of its programmatic API the benchmarks use.
declare module 'autocannon' {
  type Histogram = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  };

  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    workers?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    title?: string;
  };

  type Result = {
    title?: string;
    url: string;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram & { totalCount: number };
    requests: Histogram & { sent: number };
    throughput: Histogram;
  };

  function autocannon(options: Options): Promise<Result>;

  export type { Options, Result };
  export default autocannon;
}
