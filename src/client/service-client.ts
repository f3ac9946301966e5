/**
 * The base of the per-service typed clients (casino, domains, trading, wallet): one call function,
 * given by the AfpClient that made the client (it carries the identity and the transport), typed
 * by the service's endpoint ids and answer body. Each service's client adds its named calls.
 */
import type { ApiResult, CallInput } from './client.ts';

export type ServiceCall<EndpointId extends string, Body> = (
  endpoint: EndpointId,
  input: CallInput,
) => Promise<ApiResult<Body>>;

export class ServiceClient<EndpointId extends string, Body> {
  readonly call: ServiceCall<EndpointId, Body>;

  constructor(call: ServiceCall<EndpointId, Body>) {
    this.call = call;
  }
}
