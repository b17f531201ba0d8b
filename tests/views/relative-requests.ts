// Node's Request refuses the API client's relative '/api' URLs, which a browser resolves against the page.
// Only for files that stub fetch themselves: elsewhere a relative request must keep failing at once instead
// of going out to the network. Call it in vi.hoisted, before the client is imported (openapi-fetch keeps
// the Request it finds then).
export function acceptRelativeRequests(): void {
  const NodeRequest = globalThis.Request;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://paraph.test') : input, init);
    }
  };
}
