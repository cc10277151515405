// The parts of autocannon 8 the harness uses (the package ships no types).
declare module 'autocannon' {
  import type { OutgoingHttpHeaders } from 'node:http';

  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: OutgoingHttpHeaders;
      body?: string | Buffer;
    }
    interface Request extends RequestParams {
      setupRequest?: (req: RequestParams) => RequestParams;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      /** Ms between samples; a duration run stops only on a sample tick. */
      sampleInt?: number;
      amount?: number;
      pipelining?: number;
      timeout?: number;
      method?: string;
      headers?: OutgoingHttpHeaders;
      body?: string | Buffer;
      requests?: Request[];
    }
    interface Result {
      requests: { total: number };
      throughput: { total: number };
      latency: { p50: number; p99: number };
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
