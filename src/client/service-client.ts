/**
 * The base of the per-service typed clients (casino, domains, trading, wallet): one call function,
 * given by the AfpClient that made the client (it carries the identity and the transport), typed
 * by the service (`(endpoint id, input) => answer`). Each service's client adds its named calls.
 * Generic over the whole function type, so this file needs nothing of client.ts (no import cycle).
 */
export class ServiceClient<Call> {
  readonly call: Call;

  constructor(call: Call) {
    this.call = call;
  }
}
